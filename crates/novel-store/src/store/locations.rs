//! Location rows and the undirected connections between locations.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::model::Location;

pub fn insert_location(tx: &Transaction<'_>, l: &Location) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO locations (id, name, tension_level, data, created_tick, updated_tick)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            l.id,
            l.name,
            l.tension_level,
            to_json(l)?,
            l.first_tick,
            l.last_update_tick
        ],
    )?;
    sync_connections(tx, l)
}

pub fn save_location(tx: &Transaction<'_>, l: &Location) -> StoreResult<()> {
    tx.execute(
        "UPDATE locations SET name = ?2, tension_level = ?3, data = ?4, updated_tick = ?5 WHERE id = ?1",
        params![l.id, l.name, l.tension_level, to_json(l)?, l.last_update_tick],
    )?;
    sync_connections(tx, l)
}

/// Adds the connections listed on the record (an update never removes one: a road that closes
/// is a story event recorded on the location; only the writer deletes an edge, through
/// [`disconnect_locations`]).
fn sync_connections(tx: &Transaction<'_>, l: &Location) -> StoreResult<()> {
    for other in &l.connections {
        connect_locations(tx, &l.id, other, "")?;
    }
    Ok(())
}

pub fn connect_locations(
    tx: &Transaction<'_>,
    x: &str,
    y: &str,
    description: &str,
) -> StoreResult<()> {
    let (a, b) = if x < y { (x, y) } else { (y, x) };
    tx.execute(
        "INSERT INTO location_connections (a, b, description) VALUES (?1, ?2, ?3)
         ON CONFLICT (a, b) DO UPDATE SET description =
             CASE WHEN excluded.description = '' THEN description ELSE excluded.description END",
        params![a, b, description],
    )?;
    Ok(())
}

/// Removes the connection between `x` and `y`; whether there was one.
pub fn disconnect_locations(tx: &Transaction<'_>, x: &str, y: &str) -> StoreResult<bool> {
    let (a, b) = if x < y { (x, y) } else { (y, x) };
    let removed = tx.execute(
        "DELETE FROM location_connections WHERE a = ?1 AND b = ?2",
        params![a, b],
    )?;
    Ok(removed > 0)
}

/// All connections as (a, b, description) pairs, each once.
pub fn list_connections(conn: &Connection) -> StoreResult<Vec<(String, String, String)>> {
    let mut stmt =
        conn.prepare("SELECT a, b, description FROM location_connections ORDER BY a, b")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn connections_of(conn: &Connection, id: &str) -> StoreResult<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT CASE WHEN a = ?1 THEN b ELSE a END FROM location_connections
         WHERE a = ?1 OR b = ?1 ORDER BY 1",
    )?;
    let rows = stmt.query_map([id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get_location(conn: &Connection, id: &str) -> StoreResult<Option<Location>> {
    let data: Option<String> = conn
        .query_row("SELECT data FROM locations WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    let Some(data) = data else { return Ok(None) };
    let mut location: Location = from_json(id, &data)?;
    location.connections = connections_of(conn, id)?;
    Ok(Some(location))
}

pub fn list_locations(conn: &Connection) -> StoreResult<Vec<Location>> {
    let mut stmt = conn.prepare(
        "SELECT id FROM locations ORDER BY created_tick, CAST(substr(id, 2) AS INTEGER)",
    )?;
    let ids: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    ids.iter()
        .filter_map(|id| get_location(conn, id).transpose())
        .collect()
}
