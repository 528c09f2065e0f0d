//! An open loop: an unanswered question or unresolved conflict the story owes the reader.

use serde::{Deserialize, Serialize};

use super::importance::Importance;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenLoop {
    pub id: String,
    pub description: String,
    /// goal, mystery, conflict, relationship, promise, threat, …
    pub category: String,
    pub importance: Importance,
    pub status: LoopStatus,
    pub opened_tick: u32,
    pub resolved_tick: Option<u32>,
    /// How the loop advanced, tick by tick.
    pub notes: Vec<LoopNote>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopNote {
    pub tick: u32,
    pub note: String,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopStatus {
    Open,
    Resolved,
    Abandoned,
}

impl LoopStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LoopStatus::Open => "open",
            LoopStatus::Resolved => "resolved",
            LoopStatus::Abandoned => "abandoned",
        }
    }

    pub fn parse(s: &str) -> Option<LoopStatus> {
        match s {
            "open" => Some(LoopStatus::Open),
            "resolved" => Some(LoopStatus::Resolved),
            "abandoned" => Some(LoopStatus::Abandoned),
            _ => None,
        }
    }
}
