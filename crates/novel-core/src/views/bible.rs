//! The story bible as the writer edits it: the foundation with its author's note, the goal,
//! the outline of beats, the pressure clocks and events, and every lore entry. One snapshot for
//! the app's Bible view.

use rusqlite::Connection;
use serde::Serialize;

use crate::config::Foundation;
use crate::model::{Beat, LoopStatus, LoreFact, PressureClock, StoryEvent};
use crate::store::{self, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BibleView {
    /// `None` only for a store made before foundations were kept in it.
    pub foundation: Option<Foundation>,
    /// The words of the story's first open goal loop.
    pub goal: Option<String>,
    pub beats: Vec<Beat>,
    pub clocks: Vec<PressureClock>,
    pub events: Vec<StoryEvent>,
    pub lore: Vec<LoreFact>,
    pub current_tick: u32,
}

pub fn bible(conn: &Connection) -> Result<BibleView, StoreError> {
    let goal = store::list_loops(conn, Some(LoopStatus::Open))?
        .into_iter()
        .find(|l| l.category == "goal")
        .map(|l| l.description);
    Ok(BibleView {
        foundation: store::get_foundation(conn)?,
        goal,
        beats: store::list_beats(conn)?,
        clocks: store::list_clocks(conn)?,
        events: store::list_events(conn)?,
        lore: store::list_lore(conn)?,
        current_tick: store::load_state(conn)?.current_tick,
    })
}
