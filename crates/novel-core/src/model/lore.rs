//! A lore fact: a truth about the world (magic rules, history, customs) with keywords that
//! bring it back into the context when the story touches it.

use serde::{Deserialize, Serialize};

use super::Importance;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoreFact {
    pub id: String,
    pub fact: String,
    pub category: String,
    pub importance: Importance,
    pub keywords: Vec<String>,
    /// The tick whose scene established the fact, if any (seed facts have none).
    pub source_tick: Option<u32>,
    pub created_tick: u32,
}
