//! Tending the open loops as a director does: park a thread for later, abandon one the story
//! has moved past (the reason stays in its notes for the writer), or merge a thread into the
//! one that duplicates it. Resolving and advancing belong to the scenes (the extractor reads
//! them from the prose); these are decisions about the book, so they need a reason.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::MemoryError;
use crate::ids::{EntityId, EntityKind};
use crate::model::{Importance, LoopNote, LoopStatus, OpenLoop};
use crate::store::{self, HistoryEntry};

/// What to do with a loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoopTending {
    /// Keep it open but set it aside: its importance drops to low, so it leaves the front of
    /// the planner's list until a scene takes it up again.
    Park,
    /// Close it unresolved: the story no longer needs it.
    Abandon,
    /// Close it as a duplicate of `into`, which takes its notes.
    Merge,
}

impl LoopTending {
    fn verb(self) -> &'static str {
        match self {
            LoopTending::Park => "parked",
            LoopTending::Abandon => "abandoned",
            LoopTending::Merge => "merged",
        }
    }
}

/// Parks, abandons or merges the open loop `id`; returns the loop as it now stands.
pub fn tend_loop(
    tx: &Transaction<'_>,
    id: &str,
    action: LoopTending,
    reason: &str,
    into: Option<&str>,
    tick: u32,
    source: &str,
) -> Result<OpenLoop, MemoryError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(MemoryError::Invalid(format!(
            "say why the loop is {} (the writer reads the reason)",
            action.verb()
        )));
    }
    let mut l = open_loop(tx, id)?;
    let before = l.clone();
    match action {
        LoopTending::Park => {
            l.importance = Importance::Low;
            l.notes.push(note(tick, format!("Parked: {reason}")));
        }
        LoopTending::Abandon => {
            l.status = LoopStatus::Abandoned;
            l.resolved_tick = Some(tick);
            l.notes.push(note(tick, format!("Abandoned: {reason}")));
        }
        LoopTending::Merge => {
            let into = into.ok_or_else(|| {
                MemoryError::Invalid("merge needs `into`: the loop that carries on".into())
            })?;
            let mut keeper = open_loop(tx, into)?;
            if keeper.id == l.id {
                return Err(MemoryError::Invalid(format!(
                    "loop {} cannot be merged into itself",
                    l.id
                )));
            }
            let keeper_before = keeper.clone();
            keeper.importance = keeper.importance.max(l.importance);
            keeper.notes.push(note(
                tick,
                format!("Took in {}: {} ({reason})", l.id, l.description.trim()),
            ));
            save(tx, &keeper_before, &keeper, tick, "merged in", source)?;
            l.status = LoopStatus::Abandoned;
            l.resolved_tick = Some(tick);
            l.notes
                .push(note(tick, format!("Merged into {}: {reason}", keeper.id)));
        }
    }
    save(tx, &before, &l, tick, action.verb(), source)?;
    Ok(l)
}

fn open_loop(tx: &Transaction<'_>, id: &str) -> Result<OpenLoop, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Loop)?.to_string();
    let l = store::get_loop(tx, &id)?.ok_or_else(|| MemoryError::NotFound {
        kind: EntityKind::Loop,
        id: id.clone(),
    })?;
    if l.status != LoopStatus::Open {
        return Err(MemoryError::Invalid(format!(
            "loop {id} is already {}",
            l.status.as_str()
        )));
    }
    Ok(l)
}

fn note(tick: u32, text: String) -> LoopNote {
    LoopNote { tick, note: text }
}

fn save(
    tx: &Transaction<'_>,
    before: &OpenLoop,
    after: &OpenLoop,
    tick: u32,
    change: &str,
    source: &str,
) -> Result<(), MemoryError> {
    store::save_loop(tx, after)?;
    store::index_document(tx, &store::loop_document(after))?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: after.id.clone(),
            tick,
            field: "*".into(),
            change: change.into(),
            old_value: serde_json::to_value(before).ok(),
            new_value: serde_json::to_value(after).ok(),
            flagged: false,
            source: source.to_string(),
        },
    )?;
    Ok(())
}
