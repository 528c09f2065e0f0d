//! Conditions with a start and an end: an injury begins in the scene that deals it and ends in
//! the scene that heals it, and the character record keeps both, so a broken arm can heal
//! (a fact would freeze it) and the book can tell when. Beginning one that is already active,
//! or ending one that is not, is refused with the reason; the tick reports it and goes on.

use rusqlite::Transaction;

use super::MemoryError;
use crate::ids::{EntityId, EntityKind};
use crate::model::{Character, Condition};
use crate::store::{self, HistoryEntry};

/// Records that character `id` is in condition `name` from scene `tick`.
pub fn begin_condition(
    tx: &Transaction<'_>,
    id: &str,
    name: &str,
    kind: &str,
    note: &str,
    tick: u32,
    source: &str,
) -> Result<Condition, MemoryError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(MemoryError::Invalid("a condition needs a name".into()));
    }
    let mut character = load(tx, id)?;
    if let Some(active) = character.active_conditions().find(|c| c.is_named(name)) {
        return Err(MemoryError::Invalid(format!(
            "{} is already {} (since scene {})",
            character.name, active.name, active.since_tick
        )));
    }
    let condition = Condition {
        name: name.to_string(),
        kind: kind.trim().to_lowercase(),
        since_tick: tick,
        until_tick: None,
        note: note.trim().to_string(),
    };
    character.conditions.push(condition.clone());
    save(
        tx,
        &mut character,
        tick,
        "condition began",
        &condition,
        source,
    )?;
    Ok(condition)
}

/// Records that character `id`'s active condition `name` ended in scene `tick`.
pub fn end_condition(
    tx: &Transaction<'_>,
    id: &str,
    name: &str,
    note: &str,
    tick: u32,
    source: &str,
) -> Result<Condition, MemoryError> {
    let mut character = load(tx, id)?;
    let who = character.name.clone();
    let Some(condition) = character
        .conditions
        .iter_mut()
        .find(|c| c.until_tick.is_none() && c.is_named(name))
    else {
        return Err(MemoryError::Invalid(format!(
            "{who} has no lasting condition called \"{}\" to end",
            name.trim()
        )));
    };
    condition.until_tick = Some(tick);
    let note = note.trim();
    if !note.is_empty() {
        condition.note = if condition.note.is_empty() {
            note.to_string()
        } else {
            format!("{}; {note}", condition.note)
        };
    }
    let ended = condition.clone();
    save(tx, &mut character, tick, "condition ended", &ended, source)?;
    Ok(ended)
}

fn load(tx: &Transaction<'_>, id: &str) -> Result<Character, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Character)?.to_string();
    store::get_character(tx, &id)?.ok_or(MemoryError::NotFound {
        kind: EntityKind::Character,
        id,
    })
}

fn save(
    tx: &Transaction<'_>,
    character: &mut Character,
    tick: u32,
    change: &str,
    condition: &Condition,
    source: &str,
) -> Result<(), MemoryError> {
    character.last_update_tick = tick;
    store::save_character(tx, character)?;
    store::index_document(tx, &store::character_document(character))?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: character.id.clone(),
            tick,
            field: format!("conditions.{}", condition.name),
            change: change.into(),
            old_value: None,
            new_value: serde_json::to_value(condition).ok(),
            flagged: false,
            source: source.into(),
        },
    )?;
    Ok(())
}
