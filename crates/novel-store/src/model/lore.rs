//! A lore fact: a truth about the world (magic rules, history, customs) with keywords and
//! aliases that bring it back into the context when the story touches it (a
//! keyword-triggered "world info", as writers know it from lorebooks).

use serde::{Deserialize, Serialize};

use super::importance::Importance;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoreFact {
    pub id: String,
    pub fact: String,
    pub category: String,
    pub importance: Importance,
    pub keywords: Vec<String>,
    /// Other names of what the fact is about; they trigger it like keywords.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// In every context, mentioned or not (like a critical fact).
    #[serde(default)]
    pub always_on: bool,
    /// The tick whose scene established the fact, if any (seed facts have none).
    pub source_tick: Option<u32>,
    pub created_tick: u32,
}
