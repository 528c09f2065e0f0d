//! The open-loops board: every loop the story has opened, in the column of where it stands
//! (just opened, advancing, left hanging, closed), with how it advanced scene by scene and the
//! scenes it was touched in.

use rusqlite::Connection;
use serde::Serialize;

use crate::model::{Importance, LoopNote, LoopStatus};
use crate::store::{self, StoreError};

/// An open loop untouched for this many scenes is stale: left hanging. The one place the
/// number lives; the app says it on the board (exported as `LOOP_STALE_AFTER`).
pub const STALE_AFTER_SCENES: u32 = 5;

/// Where a loop stands on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum LoopColumn {
    /// Opened and not advanced since, touched within the last [`STALE_AFTER_SCENES`] scenes.
    Open,
    /// Advanced at least once, touched within the last [`STALE_AFTER_SCENES`] scenes.
    Advancing,
    /// Still open and untouched for [`STALE_AFTER_SCENES`] scenes or more.
    Stale,
    /// Resolved or abandoned.
    Resolved,
}

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
    pub column: LoopColumn,
    /// Scenes since the loop was last touched.
    pub idle_scenes: u32,
    /// The scenes that opened, advanced or closed it, in order, without repeats (0, a loop
    /// set up before the first scene, is left out).
    pub scenes: Vec<u32>,
}

fn column(status: LoopStatus, advanced: bool, idle: u32) -> LoopColumn {
    match status {
        LoopStatus::Resolved | LoopStatus::Abandoned => LoopColumn::Resolved,
        LoopStatus::Open if idle >= STALE_AFTER_SCENES => LoopColumn::Stale,
        LoopStatus::Open if advanced => LoopColumn::Advancing,
        LoopStatus::Open => LoopColumn::Open,
    }
}

/// All loops, most important first, then oldest first.
pub fn loops_board(conn: &Connection) -> Result<Vec<LoopCard>, StoreError> {
    let current = store::load_state(conn)?.current_tick;
    let mut cards: Vec<LoopCard> = store::list_loops(conn, None)?
        .into_iter()
        .map(|l| {
            let last_tick = l
                .notes
                .iter()
                .map(|n| n.tick)
                .chain(l.resolved_tick)
                .max()
                .unwrap_or(l.opened_tick)
                .max(l.opened_tick);
            let idle_scenes = current.saturating_sub(last_tick);
            let advanced = l.notes.iter().any(|n| n.tick > l.opened_tick);
            let mut scenes: Vec<u32> = std::iter::once(l.opened_tick)
                .chain(l.notes.iter().map(|n| n.tick))
                .chain(l.resolved_tick)
                .filter(|t| *t > 0)
                .collect();
            scenes.sort_unstable();
            scenes.dedup();
            LoopCard {
                column: column(l.status, advanced, idle_scenes),
                idle_scenes,
                scenes,
                last_tick,
                id: l.id,
                description: l.description,
                category: l.category,
                importance: l.importance,
                status: l.status,
                opened_tick: l.opened_tick,
                resolved_tick: l.resolved_tick,
                notes: l.notes,
            }
        })
        .collect();
    cards.sort_by(|a, b| {
        b.importance
            .cmp(&a.importance)
            .then(a.opened_tick.cmp(&b.opened_tick))
    });
    Ok(cards)
}
