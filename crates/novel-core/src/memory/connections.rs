//! The writer's changes to the map: connecting two places (with an optional description of the
//! way, "a flooded stair") and removing a connection. The agent only ever adds connections
//! (through a place's `connections` field); taking one away is the writer's call. Both places
//! get the change in their history and their record saved, so a rewind restores them exactly.

use rusqlite::Transaction;

use super::{MemoryError, WRITER};
use crate::ids::{EntityId, EntityKind};
use crate::model::Location;
use crate::store::{self, HistoryEntry};

fn place(tx: &Transaction<'_>, raw: &str) -> Result<Location, MemoryError> {
    let id = EntityId::parse_kind(raw.trim(), EntityKind::Location)
        .map_err(|_| MemoryError::Invalid(format!("`{raw}` is not a place id (L1, L2, …)")))?
        .to_string();
    store::get_location(tx, &id)?.ok_or(MemoryError::NotFound {
        kind: EntityKind::Location,
        id,
    })
}

fn pair(tx: &Transaction<'_>, a: &str, b: &str) -> Result<(Location, Location), MemoryError> {
    let (a, b) = (place(tx, a)?, place(tx, b)?);
    if a.id == b.id {
        return Err(MemoryError::Invalid(format!(
            "a place cannot connect to itself ({}); pick two different places",
            a.id
        )));
    }
    Ok((a, b))
}

/// Saves `place` as it now is (its connections read back from the table) with `change` in its
/// history.
fn record(
    tx: &Transaction<'_>,
    before: Location,
    tick: u32,
    change: String,
) -> Result<(), MemoryError> {
    let mut after = store::get_location(tx, &before.id)?.ok_or(MemoryError::NotFound {
        kind: EntityKind::Location,
        id: before.id.clone(),
    })?;
    after.last_update_tick = tick;
    store::save_location(tx, &after)?;
    store::index_document(tx, &store::location_document(&after))?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: after.id.clone(),
            tick,
            field: "connections".into(),
            change,
            old_value: Some(before.connections.into()),
            new_value: Some(after.connections.into()),
            flagged: false,
            source: WRITER.into(),
        },
    )?;
    Ok(())
}

/// Connects places `a` and `b`; `description` names the way between them (may be empty).
pub fn connect_places(
    tx: &Transaction<'_>,
    a: &str,
    b: &str,
    description: &str,
    tick: u32,
) -> Result<(), MemoryError> {
    let (a, b) = pair(tx, a, b)?;
    if a.connections.contains(&b.id) {
        return Err(MemoryError::Invalid(format!(
            "{} and {} are already connected",
            a.name, b.name
        )));
    }
    let description = crate::text::clean_line(description);
    store::connect_locations(tx, &a.id, &b.id, &description)?;
    let way = if description.is_empty() {
        String::new()
    } else {
        format!(" ({description})")
    };
    // The history says where by name: the writer reads it in the place's panel.
    let (a_name, b_name) = (a.name.clone(), b.name.clone());
    record(
        tx,
        a,
        tick,
        format!("connected to {b_name}{way} by the writer"),
    )?;
    record(
        tx,
        b,
        tick,
        format!("connected to {a_name}{way} by the writer"),
    )?;
    Ok(())
}

/// Removes the connection between places `a` and `b`.
pub fn disconnect_places(
    tx: &Transaction<'_>,
    a: &str,
    b: &str,
    tick: u32,
) -> Result<(), MemoryError> {
    let (a, b) = pair(tx, a, b)?;
    if !store::disconnect_locations(tx, &a.id, &b.id)? {
        return Err(MemoryError::Invalid(format!(
            "{} and {} are not connected",
            a.name, b.name
        )));
    }
    let (a_name, b_name) = (a.name.clone(), b.name.clone());
    record(
        tx,
        a,
        tick,
        format!("disconnected from {b_name} by the writer"),
    )?;
    record(
        tx,
        b,
        tick,
        format!("disconnected from {a_name} by the writer"),
    )?;
    Ok(())
}
