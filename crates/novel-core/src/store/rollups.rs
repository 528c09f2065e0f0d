//! Rolled-up summary lines: one per chapter (level 1) and per arc (level 2), derived from the
//! scenes by `crate::context` and rebuilt with the rest of the derived data.

use rusqlite::{Connection, Transaction, params};

use super::StoreResult;

/// One rolled-up line covering ticks `first_tick..=last_tick`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollup {
    pub level: u8,
    pub first_tick: u32,
    pub last_tick: u32,
    pub text: String,
}

pub fn put_rollup(tx: &Transaction<'_>, r: &Rollup) -> StoreResult<()> {
    tx.execute(
        "INSERT OR REPLACE INTO summary_rollups (level, first_tick, last_tick, text)
         VALUES (?1, ?2, ?3, ?4)",
        params![r.level, r.first_tick, r.last_tick, r.text],
    )?;
    Ok(())
}

/// All roll-ups, by level then start.
pub fn list_rollups(conn: &Connection) -> StoreResult<Vec<Rollup>> {
    let mut stmt = conn.prepare(
        "SELECT level, first_tick, last_tick, text FROM summary_rollups ORDER BY level, first_tick",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Rollup {
            level: r.get(0)?,
            first_tick: r.get(1)?,
            last_tick: r.get(2)?,
            text: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn clear_rollups(tx: &Transaction<'_>) -> StoreResult<()> {
    tx.execute("DELETE FROM summary_rollups", [])?;
    Ok(())
}
