//! Open-loop rows: the story's unanswered questions and their fate.

use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use super::error::{StoreError, StoreResult};
use super::json::{from_json, to_json};
use crate::model::{Importance, LoopStatus, OpenLoop};

const COLUMNS: &str =
    "id, description, category, importance, status, opened_tick, resolved_tick, notes";

pub fn insert_loop(tx: &Transaction<'_>, l: &OpenLoop) -> StoreResult<()> {
    tx.execute(
        &format!("INSERT INTO open_loops ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
        params![
            l.id,
            l.description,
            l.category,
            l.importance.as_str(),
            l.status.as_str(),
            l.opened_tick,
            l.resolved_tick,
            to_json(&l.notes)?
        ],
    )?;
    Ok(())
}

pub fn save_loop(tx: &Transaction<'_>, l: &OpenLoop) -> StoreResult<()> {
    tx.execute(
        "UPDATE open_loops SET description = ?2, category = ?3, importance = ?4, status = ?5,
             resolved_tick = ?6, notes = ?7 WHERE id = ?1",
        params![
            l.id,
            l.description,
            l.category,
            l.importance.as_str(),
            l.status.as_str(),
            l.resolved_tick,
            to_json(&l.notes)?
        ],
    )?;
    Ok(())
}

type RawLoop = (OpenLoop, String, String, String);

fn read_loop(row: &Row<'_>) -> rusqlite::Result<RawLoop> {
    Ok((
        OpenLoop {
            id: row.get(0)?,
            description: row.get(1)?,
            category: row.get(2)?,
            importance: Importance::Medium,
            status: LoopStatus::Open,
            opened_tick: row.get(5)?,
            resolved_tick: row.get(6)?,
            notes: Vec::new(),
        },
        row.get(3)?,
        row.get(4)?,
        row.get(7)?,
    ))
}

fn finish((mut l, importance, status, notes): RawLoop) -> StoreResult<OpenLoop> {
    let corrupt = |what: &str| StoreError::Corrupt {
        id: l.id.clone(),
        message: format!("unknown {what}"),
    };
    l.importance = Importance::parse(&importance).ok_or_else(|| corrupt("importance"))?;
    l.status = LoopStatus::parse(&status).ok_or_else(|| corrupt("status"))?;
    l.notes = from_json(&l.id, &notes)?;
    Ok(l)
}

pub fn get_loop(conn: &Connection, id: &str) -> StoreResult<Option<OpenLoop>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM open_loops WHERE id = ?1"),
        [id],
        read_loop,
    )
    .optional()?
    .map(finish)
    .transpose()
}

/// Loops with the given status (all when `None`), most important first, then oldest first.
pub fn list_loops(conn: &Connection, status: Option<LoopStatus>) -> StoreResult<Vec<OpenLoop>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM open_loops WHERE ?1 IS NULL OR status = ?1
         ORDER BY CASE importance WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END,
                  opened_tick, CAST(substr(id, 2) AS INTEGER)"
    ))?;
    let rows = stmt.query_map([status.map(LoopStatus::as_str)], read_loop)?;
    rows.map(|r| finish(r?)).collect()
}
