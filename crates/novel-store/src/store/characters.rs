//! Character rows: the full record as JSON plus the columns queries filter on.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::model::Character;

pub fn insert_character(tx: &Transaction<'_>, c: &Character) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO characters (id, name, status, data, created_tick, updated_tick)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            c.id,
            c.name,
            c.status.as_str(),
            to_json(c)?,
            c.first_tick,
            c.last_update_tick
        ],
    )?;
    Ok(())
}

pub fn save_character(tx: &Transaction<'_>, c: &Character) -> StoreResult<()> {
    tx.execute(
        "UPDATE characters SET name = ?2, status = ?3, data = ?4, updated_tick = ?5 WHERE id = ?1",
        params![
            c.id,
            c.name,
            c.status.as_str(),
            to_json(c)?,
            c.last_update_tick
        ],
    )?;
    Ok(())
}

pub fn get_character(conn: &Connection, id: &str) -> StoreResult<Option<Character>> {
    let data: Option<String> = conn
        .query_row("SELECT data FROM characters WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    data.map(|d| from_json(id, &d)).transpose()
}

pub fn list_characters(conn: &Connection) -> StoreResult<Vec<Character>> {
    let mut stmt = conn.prepare(
        "SELECT id, data FROM characters ORDER BY created_tick, CAST(substr(id, 2) AS INTEGER)",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    rows.map(|row| {
        let (id, data) = row?;
        from_json(&id, &data)
    })
    .collect()
}

/// Finds a character by exact name or alias, case-insensitively.
pub fn find_character_by_name(conn: &Connection, name: &str) -> StoreResult<Option<Character>> {
    let wanted = name.trim().to_lowercase();
    Ok(list_characters(conn)?.into_iter().find(|c| {
        c.name.to_lowercase() == wanted || c.aliases.iter().any(|a| a.to_lowercase() == wanted)
    }))
}
