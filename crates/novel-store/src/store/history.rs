//! The per-entity history log: one row per applied change or flagged contradiction, by tick.

use rusqlite::{Connection, Transaction, params};
use serde::{Deserialize, Serialize};

use super::error::StoreResult;
use crate::model::ChangeSource;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub entity_id: String,
    pub tick: u32,
    /// The changed field as a dotted path (`inventory`, `facts.brother`), or `*` for the record.
    pub field: String,
    /// What happened, in words ("created", "updated", "contradiction: …").
    pub change: String,
    pub old_value: Option<serde_json::Value>,
    pub new_value: Option<serde_json::Value>,
    /// A contradiction that was recorded but not applied.
    pub flagged: bool,
    /// Who asked for it: the writer, the extractor, the seed, the writer in review, or a tool.
    pub source: ChangeSource,
}

pub fn append_history(tx: &Transaction<'_>, e: &HistoryEntry) -> StoreResult<()> {
    let json = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string());
    tx.execute(
        "INSERT INTO history (entity_id, tick, field, change, old_value, new_value, flagged, source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            e.entity_id, e.tick, e.field, e.change, json(&e.old_value), json(&e.new_value),
            e.flagged, e.source.as_str()
        ],
    )?;
    Ok(())
}

pub fn history_of(conn: &Connection, entity_id: &str) -> StoreResult<Vec<HistoryEntry>> {
    read_history(conn, "WHERE entity_id = ?1", [entity_id])
}

/// The whole history of every record, in the order it was written (the book audit reads it
/// once rather than record by record).
pub fn all_history(conn: &Connection) -> StoreResult<Vec<HistoryEntry>> {
    read_history(conn, "", rusqlite::params![])
}

fn read_history<P: rusqlite::Params>(
    conn: &Connection,
    filter: &str,
    params: P,
) -> StoreResult<Vec<HistoryEntry>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT entity_id, tick, field, change, old_value, new_value, flagged, source
         FROM history {filter} ORDER BY seq"
    ))?;
    let parse = |s: Option<String>| s.and_then(|s| serde_json::from_str(&s).ok());
    let rows = stmt.query_map(params, |r| {
        Ok(HistoryEntry {
            entity_id: r.get(0)?,
            tick: r.get(1)?,
            field: r.get(2)?,
            change: r.get(3)?,
            old_value: parse(r.get(4)?),
            new_value: parse(r.get(5)?),
            flagged: r.get(6)?,
            source: ChangeSource::parse(&r.get::<_, String>(7)?),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
