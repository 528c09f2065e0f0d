//! The record of a committed tick and of a failed one, and the story's current state.

use serde::{Deserialize, Serialize};

/// Where the story stands: the last committed tick and whose eyes we are behind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoryState {
    pub current_tick: u32,
    pub active_character: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// What one committed tick planned, ran, found and cost. JSON columns stay `Value` here: their
/// shapes belong to the agent loop and evolve with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TickRecord {
    pub tick: u32,
    pub plan: Option<serde_json::Value>,
    pub execution: Option<serde_json::Value>,
    pub findings: serde_json::Value,
    pub usage: serde_json::Value,
    pub timings: serde_json::Value,
    pub started_at: String,
    pub finished_at: String,
    /// What the engine repaired, clamped or dropped on the way (a plan fixed locally, an
    /// extracted field out of range), in words for the timeline.
    pub notes: Vec<String>,
    /// The prompt sections the tick's requests carried, with tokens against budget.
    pub context_used: Option<serde_json::Value>,
}

/// A tick that could not complete: the story was left untouched and the details are on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TickFailure {
    pub seq: i64,
    pub tick: u32,
    pub at: String,
    pub error_type: String,
    pub message: String,
    pub error_file: String,
    pub resolved: bool,
}
