//! Every version of every scene: the writer model's draft and revision, each regeneration, each
//! hand edit and restore, on whichever branch it was made. Versions are never deleted and never
//! undone — moving through history changes which version a scene shows, not which exist.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::error::{StoreError, StoreResult};

/// How a version came to be.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionOrigin {
    /// What the writer model wrote first, when it was revised before the commit.
    Draft,
    /// The version a tick committed after the revision pass (or its only version).
    Revision,
    /// A scene written again in place of an earlier one.
    Regeneration,
    /// The writer's own edit.
    Edit,
    /// An earlier version made current again.
    Restore,
    /// A scene written before versions were kept.
    Imported,
}

impl VersionOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            VersionOrigin::Draft => "draft",
            VersionOrigin::Revision => "revision",
            VersionOrigin::Regeneration => "regeneration",
            VersionOrigin::Edit => "edit",
            VersionOrigin::Restore => "restore",
            VersionOrigin::Imported => "imported",
        }
    }

    fn parse(s: &str) -> VersionOrigin {
        match s {
            "draft" => VersionOrigin::Draft,
            "revision" => VersionOrigin::Revision,
            "regeneration" => VersionOrigin::Regeneration,
            "edit" => VersionOrigin::Edit,
            "restore" => VersionOrigin::Restore,
            _ => VersionOrigin::Imported,
        }
    }
}

/// One version of the scene of a tick.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SceneVersion {
    // Row ids of one novel's versions fit a JS number.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub id: i64,
    pub tick: u32,
    /// The branch it was made on.
    pub branch: String,
    pub origin: VersionOrigin,
    pub title: String,
    pub prose: String,
    pub words: u32,
    /// The recorded change that made it the scene's text, when one did (a draft never is).
    #[cfg_attr(feature = "specta", specta(type = Option<u32>))]
    pub change_seq: Option<i64>,
    pub created_at: String,
}

/// A version to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewVersion<'a> {
    pub tick: u32,
    pub branch: &'a str,
    pub origin: VersionOrigin,
    pub title: &'a str,
    pub prose: &'a str,
    pub words: u32,
    pub change_seq: Option<i64>,
    pub created_at: &'a str,
}

/// Stores a version of the scene that has tick `v.tick` now (versions follow the scene's id
/// when the writer moves it, see `versions_of`).
pub fn insert_version(tx: &Transaction<'_>, v: &NewVersion<'_>) -> StoreResult<i64> {
    tx.execute(
        "INSERT INTO scene_versions
             (tick, branch, origin, title, prose, words, change_seq, created_at, scene_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, (SELECT id FROM scenes WHERE tick = ?1))",
        params![
            v.tick,
            v.branch,
            v.origin.as_str(),
            v.title,
            v.prose,
            v.words,
            v.change_seq,
            v.created_at
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Attaches a change to versions stored before the change had its number.
pub fn link_versions(tx: &Transaction<'_>, ids: &[i64], change_seq: i64) -> StoreResult<()> {
    for id in ids {
        tx.execute(
            "UPDATE scene_versions SET change_seq = ?1 WHERE id = ?2 AND origin <> 'draft'",
            params![change_seq, id],
        )?;
    }
    Ok(())
}

const COLUMNS: &str = "id, tick, branch, origin, title, prose, words, change_seq, created_at";

fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<SceneVersion> {
    Ok(SceneVersion {
        id: r.get(0)?,
        tick: r.get(1)?,
        branch: r.get(2)?,
        origin: VersionOrigin::parse(&r.get::<_, String>(3)?),
        title: r.get(4)?,
        prose: r.get(5)?,
        words: r.get(6)?,
        change_seq: r.get(7)?,
        created_at: r.get(8)?,
    })
}

/// Every version of the scene of `tick`, oldest first: of the scene that has that place in
/// the book now (wherever the writer moved it from), or, when no scene has it on this branch,
/// every version made at that place.
pub fn versions_of(conn: &Connection, tick: u32) -> StoreResult<Vec<SceneVersion>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM scene_versions
         WHERE CASE WHEN EXISTS (SELECT 1 FROM scenes WHERE tick = ?1)
                    THEN scene_id IN (SELECT id FROM scenes WHERE tick = ?1)
                    ELSE tick = ?1 END
         ORDER BY id"
    ))?;
    let rows = stmt.query_map([tick], read)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The scenes (by id) whose every version is the writer's edit: added by hand, or split off
/// an existing scene by hand. A scene with no version at all is not among them.
pub fn hand_written_scenes(conn: &Connection) -> StoreResult<HashSet<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT scene_id FROM scene_versions WHERE scene_id IS NOT NULL
         GROUP BY scene_id HAVING sum(origin <> 'edit') = 0",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get_version(conn: &Connection, id: i64) -> StoreResult<SceneVersion> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM scene_versions WHERE id = ?1"),
        [id],
        read,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound(format!("version {id}")))
}

/// How many versions exist in all (for tests that prove none is ever lost).
pub fn count_versions(conn: &Connection) -> StoreResult<i64> {
    Ok(conn.query_row("SELECT count(*) FROM scene_versions", [], |r| r.get(0))?)
}
