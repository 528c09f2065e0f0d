//! The open-loops board: every loop the story has opened, grouped by status on screen, with
//! how it advanced tick by tick.

use rusqlite::Connection;
use serde::Serialize;

use crate::model::{Importance, LoopNote, LoopStatus};
use crate::store::{self, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LoopCard {
    pub id: String,
    pub description: String,
    pub category: String,
    pub importance: Importance,
    pub status: LoopStatus,
    pub opened_tick: u32,
    pub resolved_tick: Option<u32>,
    pub notes: Vec<LoopNote>,
    /// The last tick that touched the loop: how long it has been left hanging.
    pub last_tick: u32,
}

/// All loops, most important first, then oldest first.
pub fn loops_board(conn: &Connection) -> Result<Vec<LoopCard>, StoreError> {
    let mut cards: Vec<LoopCard> = store::list_loops(conn, None)?
        .into_iter()
        .map(|l| LoopCard {
            last_tick: l
                .notes
                .iter()
                .map(|n| n.tick)
                .chain(l.resolved_tick)
                .max()
                .unwrap_or(l.opened_tick)
                .max(l.opened_tick),
            id: l.id,
            description: l.description,
            category: l.category,
            importance: l.importance,
            status: l.status,
            opened_tick: l.opened_tick,
            resolved_tick: l.resolved_tick,
            notes: l.notes,
        })
        .collect();
    cards.sort_by(|a, b| {
        b.importance
            .cmp(&a.importance)
            .then(a.opened_tick.cmp(&b.opened_tick))
    });
    Ok(cards)
}
