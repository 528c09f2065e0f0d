//! The foundation row, outline beats, pressure clocks and story events. Ids (`B3`, `P0`,
//! `E2`) come from the same never-reused counters as the memory's.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::config::Foundation;
use crate::model::{Beat, BeatStatus, EventStatus, PressureClock, StoryEvent};

/// The next unused id with `prefix` (`B`, `P`, `E`).
pub fn mint_prefixed(tx: &Transaction<'_>, prefix: char) -> StoreResult<String> {
    let next: u32 = tx.query_row(
        "INSERT INTO id_counters (prefix, next) VALUES (?1, 1)
         ON CONFLICT (prefix) DO UPDATE SET next = next + 1
         RETURNING next - 1",
        params![prefix.to_string()],
        |row| row.get(0),
    )?;
    Ok(format!("{prefix}{next}"))
}

pub fn get_foundation(conn: &Connection) -> StoreResult<Option<Foundation>> {
    let text: Option<String> = conn
        .query_row("SELECT data FROM foundation WHERE id = 1", [], |r| r.get(0))
        .optional()?;
    text.map(|t| from_json("foundation", &t)).transpose()
}

pub fn put_foundation(tx: &Transaction<'_>, foundation: &Foundation) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO foundation (id, data) VALUES (1, ?1)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data",
        [to_json(foundation)?],
    )?;
    Ok(())
}

fn beat_status(s: &str) -> BeatStatus {
    if s == "done" {
        BeatStatus::Done
    } else {
        BeatStatus::Open
    }
}

/// Every beat, in outline order.
pub fn list_beats(conn: &Connection) -> StoreResult<Vec<Beat>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, position, text, status, done_tick FROM outline_beats ORDER BY position, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Beat {
            id: r.get(0)?,
            position: r.get(1)?,
            text: r.get(2)?,
            status: beat_status(&r.get::<_, String>(3)?),
            done_tick: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn put_beat(tx: &Transaction<'_>, b: &Beat) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO outline_beats (id, position, text, status, done_tick) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET position = excluded.position, text = excluded.text,
             status = excluded.status, done_tick = excluded.done_tick",
        params![
            b.id,
            b.position,
            b.text,
            match b.status {
                BeatStatus::Open => "open",
                BeatStatus::Done => "done",
            },
            b.done_tick
        ],
    )?;
    Ok(())
}

pub fn delete_beat(tx: &Transaction<'_>, id: &str) -> StoreResult<bool> {
    Ok(tx.execute("DELETE FROM outline_beats WHERE id = ?1", [id])? == 1)
}

/// Every clock, oldest first.
pub fn list_clocks(conn: &Connection) -> StoreResult<Vec<PressureClock>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, description, value, max, per_tick, thresholds, created_tick
         FROM pressure_clocks ORDER BY created_tick, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, u32>(3)?,
            r.get::<_, u32>(4)?,
            r.get::<_, u32>(5)?,
            r.get::<_, String>(6)?,
            r.get::<_, u32>(7)?,
        ))
    })?;
    rows.map(|row| {
        let (id, name, description, value, max, per_tick, thresholds, created_tick) = row?;
        Ok(PressureClock {
            thresholds: from_json(&id, &thresholds)?,
            id,
            name,
            description,
            value,
            max,
            per_tick,
            created_tick,
        })
    })
    .collect()
}

pub fn put_clock(tx: &Transaction<'_>, c: &PressureClock) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO pressure_clocks (id, name, description, value, max, per_tick, thresholds, created_tick)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
             value = excluded.value, max = excluded.max, per_tick = excluded.per_tick,
             thresholds = excluded.thresholds",
        params![
            c.id,
            c.name,
            c.description,
            c.value,
            c.max,
            c.per_tick,
            to_json(&c.thresholds)?,
            c.created_tick
        ],
    )?;
    Ok(())
}

pub fn delete_clock(tx: &Transaction<'_>, id: &str) -> StoreResult<bool> {
    Ok(tx.execute("DELETE FROM pressure_clocks WHERE id = ?1", [id])? == 1)
}

/// Every event, by tick.
pub fn list_events(conn: &Connection) -> StoreResult<Vec<StoryEvent>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, tick, description, status FROM story_events ORDER BY tick, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(StoryEvent {
            id: r.get(0)?,
            tick: r.get(1)?,
            description: r.get(2)?,
            status: if r.get::<_, String>(3)? == "done" {
                EventStatus::Done
            } else {
                EventStatus::Pending
            },
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn put_event(tx: &Transaction<'_>, e: &StoryEvent) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO story_events (id, tick, description, status) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET tick = excluded.tick, description = excluded.description,
             status = excluded.status",
        params![
            e.id,
            e.tick,
            e.description,
            match e.status {
                EventStatus::Pending => "pending",
                EventStatus::Done => "done",
            }
        ],
    )?;
    Ok(())
}

pub fn delete_event(tx: &Transaction<'_>, id: &str) -> StoreResult<bool> {
    Ok(tx.execute("DELETE FROM story_events WHERE id = ?1", [id])? == 1)
}
