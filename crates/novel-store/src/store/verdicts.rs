//! Plan verdict rows: per scene (by tick), whether it did what its plan intended, what it
//! missed, and who judged it.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::{StoreError, StoreResult};
use super::json::{from_json, to_json};
use crate::model::{Realized, SceneVerdict};

/// A scene's verdict with who gave it ("extraction" or "audit").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredVerdict {
    pub tick: u32,
    pub verdict: SceneVerdict,
    pub judged_by: String,
}

/// Records (or replaces) the verdict of the scene of `tick`.
pub fn put_verdict(
    tx: &Transaction<'_>,
    tick: u32,
    verdict: &SceneVerdict,
    judged_by: &str,
) -> StoreResult<()> {
    tx.execute(
        "INSERT OR REPLACE INTO plan_verdicts (tick, verdict, missed, judged_by)
         VALUES (?1, ?2, ?3, ?4)",
        params![
            tick,
            verdict.verdict.as_str(),
            to_json(&verdict.missed)?,
            judged_by
        ],
    )?;
    Ok(())
}

fn read(
    tick: u32,
    verdict: String,
    missed: String,
    judged_by: String,
) -> StoreResult<StoredVerdict> {
    let id = format!("verdict of tick {tick}");
    let realized = Realized::parse(&verdict).ok_or_else(|| StoreError::Corrupt {
        id: id.clone(),
        message: format!("unknown verdict {verdict}"),
    })?;
    Ok(StoredVerdict {
        tick,
        verdict: SceneVerdict {
            verdict: realized,
            missed: from_json(&id, &missed)?,
        },
        judged_by,
    })
}

pub fn get_verdict(conn: &Connection, tick: u32) -> StoreResult<Option<StoredVerdict>> {
    let row = conn
        .query_row(
            "SELECT verdict, missed, judged_by FROM plan_verdicts WHERE tick = ?1",
            [tick],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    row.map(|(v, m, j)| read(tick, v, m, j)).transpose()
}

/// Every stored verdict, by tick.
pub fn list_verdicts(conn: &Connection) -> StoreResult<BTreeMap<u32, StoredVerdict>> {
    let mut stmt =
        conn.prepare("SELECT tick, verdict, missed, judged_by FROM plan_verdicts ORDER BY tick")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    let mut out = BTreeMap::new();
    for row in rows {
        let (tick, v, m, j) = row?;
        out.insert(tick, read(tick, v, m, j)?);
    }
    Ok(out)
}
