//! Lore rows: world facts with their keywords, aliases and always-on flag.

use rusqlite::{Connection, Transaction, params};

use super::error::{StoreError, StoreResult};
use super::json::{from_json, to_json};
use crate::model::{Importance, LoreFact};

pub fn insert_lore(tx: &Transaction<'_>, f: &LoreFact) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO lore (id, fact, category, importance, keywords, source_tick, created_tick, aliases, always_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            f.id,
            f.fact,
            f.category,
            f.importance.as_str(),
            to_json(&f.keywords)?,
            f.source_tick,
            f.created_tick,
            to_json(&f.aliases)?,
            f.always_on
        ],
    )?;
    Ok(())
}

/// Rewrites a lore row (every field but its id and creation).
pub fn save_lore(tx: &Transaction<'_>, f: &LoreFact) -> StoreResult<bool> {
    let n = tx.execute(
        "UPDATE lore SET fact = ?2, category = ?3, importance = ?4, keywords = ?5, aliases = ?6,
             always_on = ?7 WHERE id = ?1",
        params![
            f.id,
            f.fact,
            f.category,
            f.importance.as_str(),
            to_json(&f.keywords)?,
            to_json(&f.aliases)?,
            f.always_on
        ],
    )?;
    Ok(n == 1)
}

pub fn delete_lore(tx: &Transaction<'_>, id: &str) -> StoreResult<bool> {
    tx.execute("DELETE FROM search_chunks WHERE entity_id = ?1", [id])?;
    Ok(tx.execute("DELETE FROM lore WHERE id = ?1", [id])? == 1)
}

pub fn list_lore(conn: &Connection) -> StoreResult<Vec<LoreFact>> {
    let mut stmt = conn.prepare(
        "SELECT id, fact, category, importance, keywords, source_tick, created_tick, aliases, always_on FROM lore
         ORDER BY created_tick, CAST(substr(id, 2) AS INTEGER)",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, Option<u32>>(5)?,
            r.get::<_, u32>(6)?,
            r.get::<_, String>(7)?,
            r.get::<_, bool>(8)?,
        ))
    })?;
    rows.map(|row| {
        let (
            id,
            fact,
            category,
            importance,
            keywords,
            source_tick,
            created_tick,
            aliases,
            always_on,
        ) = row?;
        let importance = Importance::parse(&importance).ok_or_else(|| StoreError::Corrupt {
            id: id.clone(),
            message: "unknown importance".into(),
        })?;
        let keywords = from_json(&id, &keywords)?;
        let aliases = from_json(&id, &aliases)?;
        Ok(LoreFact {
            id,
            fact,
            category,
            importance,
            keywords,
            source_tick,
            created_tick,
            aliases,
            always_on,
        })
    })
    .collect()
}

pub fn get_lore(conn: &Connection, id: &str) -> StoreResult<Option<LoreFact>> {
    Ok(list_lore(conn)?.into_iter().find(|f| f.id == id))
}
