//! Relationship rows, each pair of characters at most once.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::model::Relationship;

pub fn insert_relationship(tx: &Transaction<'_>, r: &Relationship) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO relationships
            (id, character_a, character_b, kind, status, intensity, data, created_tick, updated_tick)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            r.id, r.character_a, r.character_b, r.kind, r.status, r.intensity,
            to_json(r)?, r.first_tick, r.last_update_tick
        ],
    )?;
    Ok(())
}

pub fn save_relationship(tx: &Transaction<'_>, r: &Relationship) -> StoreResult<()> {
    tx.execute(
        "UPDATE relationships SET kind = ?2, status = ?3, intensity = ?4, data = ?5, updated_tick = ?6
         WHERE id = ?1",
        params![r.id, r.kind, r.status, r.intensity, to_json(r)?, r.last_update_tick],
    )?;
    Ok(())
}

pub fn get_relationship(conn: &Connection, id: &str) -> StoreResult<Option<Relationship>> {
    let data: Option<String> = conn
        .query_row("SELECT data FROM relationships WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    data.map(|d| from_json(id, &d)).transpose()
}

/// The relationship between two characters, in either order.
pub fn find_relationship(conn: &Connection, x: &str, y: &str) -> StoreResult<Option<Relationship>> {
    let data: Option<(String, String)> = conn
        .query_row(
            "SELECT id, data FROM relationships
             WHERE (character_a = ?1 AND character_b = ?2) OR (character_a = ?2 AND character_b = ?1)",
            [x, y],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    data.map(|(id, d)| from_json(&id, &d)).transpose()
}

/// All relationships, or those involving `character` when given.
pub fn list_relationships(
    conn: &Connection,
    character: Option<&str>,
) -> StoreResult<Vec<Relationship>> {
    let mut stmt = conn.prepare(
        "SELECT id, data FROM relationships
         WHERE ?1 IS NULL OR character_a = ?1 OR character_b = ?1
         ORDER BY created_tick, CAST(substr(id, 2) AS INTEGER)",
    )?;
    let rows = stmt.query_map([character], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    rows.map(|row| {
        let (id, data) = row?;
        from_json(&id, &data)
    })
    .collect()
}
