//! A relationship between two characters: its type and status, an intensity from 1 to 10, and
//! how each side sees it. Its history of events lives in the store's history log.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Relationship {
    pub id: String,
    pub character_a: String,
    pub character_b: String,
    /// ally, rival, family, romance, mentor, enemy, … (free text: stories invent their own).
    pub kind: String,
    /// Where it stands now: trusting, strained, broken, …
    pub status: String,
    pub intensity: u8,
    #[serde(default)]
    pub perspective_a: String,
    #[serde(default)]
    pub perspective_b: String,
    pub first_tick: u32,
    pub last_update_tick: u32,
}

impl Relationship {
    /// The other side of the relationship, seen from `character`.
    pub fn other(&self, character: &str) -> &str {
        if self.character_a == character {
            &self.character_b
        } else {
            &self.character_a
        }
    }

    /// How `character` sees the relationship.
    pub fn perspective_of(&self, character: &str) -> &str {
        if self.character_a == character {
            &self.perspective_a
        } else {
            &self.perspective_b
        }
    }
}
