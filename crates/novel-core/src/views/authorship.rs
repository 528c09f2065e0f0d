//! Who wrote each scene, as the writer thinks of it: the agent, the writer by hand (a scene
//! added or split off in the manuscript: every version it ever had is the writer's edit), or
//! the imported manuscript (adopted with the import's plan). A scene the agent wrote and the
//! writer then edited is still the agent's. The timeline marks each scene with it.

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;
use serde::Serialize;

use crate::plan::Plan;
use crate::store::{self, StoreError};
use crate::tick::IMPORTED_RATIONALE;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum WrittenBy {
    Agent,
    /// Written by the writer: added, or split off another scene, in the manuscript.
    Hand,
    /// A scene of an imported manuscript.
    Import,
}

/// Who wrote the scene `scene_id`, given the scenes written by hand
/// (`store::hand_written_scenes`) and the plan its tick recorded, if any.
pub(super) fn written_by(scene_id: &str, hand: &HashSet<String>, plan: Option<&Plan>) -> WrittenBy {
    if hand.contains(scene_id) {
        WrittenBy::Hand
    } else if plan.is_some_and(|p| p.actions.is_empty() && p.rationale == IMPORTED_RATIONALE) {
        WrittenBy::Import
    } else {
        WrittenBy::Agent
    }
}

/// Who wrote each scene of the book, by its place (tick).
pub fn scene_authors(conn: &Connection) -> Result<HashMap<u32, WrittenBy>, StoreError> {
    let hand = store::hand_written_scenes(conn)?;
    let plans: HashMap<u32, Plan> = store::list_ticks(conn)?
        .into_iter()
        .filter_map(|r| Some((r.tick, serde_json::from_value(r.plan?).ok()?)))
        .collect();
    Ok(store::list_scenes(conn)?
        .into_iter()
        .map(|s| (s.tick, written_by(&s.id, &hand, plans.get(&s.tick))))
        .collect())
}
