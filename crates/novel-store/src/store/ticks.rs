//! Tick records (committed) and tick failures (recorded, story untouched).

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::model::{TickFailure, TickRecord};

pub fn insert_tick(tx: &Transaction<'_>, t: &TickRecord) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO ticks (tick, plan, execution, findings, usage, timings, started_at, finished_at,
                            notes, context_used)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            t.tick,
            t.plan.as_ref().map(to_json).transpose()?,
            t.execution.as_ref().map(to_json).transpose()?,
            to_json(&t.findings)?,
            to_json(&t.usage)?,
            to_json(&t.timings)?,
            t.started_at,
            t.finished_at,
            to_json(&t.notes)?,
            t.context_used.as_ref().map(to_json).transpose()?,
        ],
    )?;
    Ok(())
}

const TICK_COLUMNS: &str =
    "tick, plan, execution, findings, usage, timings, started_at, finished_at, notes, context_used";

type TickRow = (
    u32,
    Option<String>,
    Option<String>,
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
);

fn read_tick(r: &rusqlite::Row<'_>) -> rusqlite::Result<TickRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
    ))
}

fn finish_tick(row: TickRow) -> StoreResult<TickRecord> {
    let (tick, plan, execution, findings, usage, timings, started_at, finished_at, notes, used) =
        row;
    let id = format!("tick {tick}");
    Ok(TickRecord {
        tick,
        plan: plan.map(|p| from_json(&id, &p)).transpose()?,
        execution: execution.map(|e| from_json(&id, &e)).transpose()?,
        findings: from_json(&id, &findings)?,
        usage: from_json(&id, &usage)?,
        timings: from_json(&id, &timings)?,
        started_at,
        finished_at,
        notes: from_json(&id, &notes)?,
        context_used: used.map(|u| from_json(&id, &u)).transpose()?,
    })
}

pub fn list_ticks(conn: &Connection) -> StoreResult<Vec<TickRecord>> {
    let mut stmt = conn.prepare(&format!("SELECT {TICK_COLUMNS} FROM ticks ORDER BY tick"))?;
    let rows = stmt.query_map([], read_tick)?;
    rows.map(|row| finish_tick(row?)).collect()
}

pub fn get_tick(conn: &Connection, tick: u32) -> StoreResult<Option<TickRecord>> {
    conn.query_row(
        &format!("SELECT {TICK_COLUMNS} FROM ticks WHERE tick = ?1"),
        [tick],
        read_tick,
    )
    .optional()?
    .map(finish_tick)
    .transpose()
}

/// Every committed tick's number and start time, in order, without its JSON payloads: enough
/// to tell whether a plan file on disk belongs to it.
pub fn tick_starts(conn: &Connection) -> StoreResult<Vec<(u32, String)>> {
    let mut stmt = conn.prepare("SELECT tick, started_at FROM ticks ORDER BY tick")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn record_failure(tx: &Transaction<'_>, f: &TickFailure) -> StoreResult<i64> {
    tx.execute(
        "INSERT INTO tick_failures (tick, at, error_type, message, error_file, resolved)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            f.tick,
            f.at,
            f.error_type,
            f.message,
            f.error_file,
            f.resolved
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Marks every recorded failure of `tick` resolved (the tick was retried or skipped).
pub fn resolve_failures(tx: &Transaction<'_>, tick: u32) -> StoreResult<()> {
    tx.execute(
        "UPDATE tick_failures SET resolved = 1 WHERE tick = ?1",
        [tick],
    )?;
    Ok(())
}

pub fn list_failures(conn: &Connection) -> StoreResult<Vec<TickFailure>> {
    let mut stmt = conn.prepare(
        "SELECT seq, tick, at, error_type, message, error_file, resolved FROM tick_failures ORDER BY seq",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(TickFailure {
            seq: r.get(0)?,
            tick: r.get(1)?,
            at: r.get(2)?,
            error_type: r.get(3)?,
            message: r.get(4)?,
            error_file: r.get(5)?,
            resolved: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Tokens and cost of every committed tick, from their stored usage: what the novel has spent
/// (for its `[budget.novel]` limit). A usage record this build cannot read counts as nothing.
pub fn spent_on_ticks(conn: &Connection) -> StoreResult<novel_llm::Spent> {
    let mut stmt = conn.prepare("SELECT usage FROM ticks")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let mut spent = novel_llm::Spent::default();
    for row in rows {
        let Ok(usage) = serde_json::from_str::<crate::model::TickUsage>(&row?) else {
            continue;
        };
        spent.tokens = spent.tokens.saturating_add(u64::from(usage.total_tokens()));
        spent.cost += usage.cost();
    }
    Ok(spent)
}

/// Prompt tokens of every committed tick and how many of them the servers read from their
/// prompt caches, from the ticks' stored usage.
pub fn prompt_cache_totals(conn: &Connection) -> StoreResult<(u64, u64)> {
    let mut stmt = conn.prepare("SELECT usage FROM ticks")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let (mut prompt, mut cached) = (0u64, 0u64);
    for row in rows {
        let Ok(usage) = serde_json::from_str::<crate::model::TickUsage>(&row?) else {
            continue;
        };
        let (p, c) = usage.prompt_and_cached();
        prompt = prompt.saturating_add(u64::from(p));
        cached = cached.saturating_add(u64::from(c));
    }
    Ok((prompt, cached))
}
