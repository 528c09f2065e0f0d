//! What the checks read: the scene, the novel's point of view and tense, and what the story
//! memory knows (characters, places, lost items, deaths off the page), given by the engine.

use serde::{Deserialize, Serialize};

use crate::config::{PointOfView, Tense};
use crate::model::{Character, Location};

/// Everything the checks read: the scene and what the story memory knows.
#[derive(Debug, Clone, Copy)]
pub struct EvalInput<'a> {
    pub prose: &'a str,
    pub pov: PointOfView,
    pub tense: Tense,
    pub pov_character: &'a Character,
    /// All known characters, the POV character included.
    pub characters: &'a [Character],
    pub scene_location: Option<&'a Location>,
    pub locations: &'a [Location],
    /// Items characters are known to have lost or given away (the engine reads the history).
    pub lost_items: &'a [LostItem],
    /// Deaths shown on earlier pages that the POV character has not witnessed or learned of.
    pub off_page: &'a [OffPageDeath],
    /// `(target_words_min, target_words_max)` from the generation settings.
    pub target_words: (u32, u32),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostItem {
    pub character_id: String,
    pub character_name: String,
    pub item: String,
    /// The tick in which the item was lost.
    pub tick: u32,
}

/// A death the POV character has neither witnessed nor learned of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffPageDeath {
    pub character_id: String,
    pub character_name: String,
    /// The tick whose scene shows the death.
    pub tick: u32,
}
