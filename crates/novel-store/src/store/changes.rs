//! The story's recorded history. Every write to the story (a committed tick, a writer's edit,
//! the seed) runs under a [`Recorder`]: SQLite's session extension captures the exact rows it
//! changed as a changeset, stored in `changes` with the change it follows. Undoing a change is
//! applying its inverse; redoing it is applying it again — exact for every tracked table,
//! derived passages, vectors and roll-ups included, and fast, since only the changed rows move.
//! Branches are names for changes; `story_head` says which change the database reflects.
//!
//! Not tracked: the history tables themselves, failure records, an import's bookkeeping, the
//! FTS index (its shadow tables follow the passages through their triggers when a changeset is
//! applied) and the vector counter (kept by triggers too).

use std::io::Read;

use rusqlite::session::{ConflictAction, ConflictType, Session, invert_strm};
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::error::{StoreError, StoreResult};

/// Tables whose rows are history or bookkeeping, never story state.
const UNTRACKED: [&str; 9] = [
    "changes",
    "branches",
    "story_head",
    "scene_versions",
    "tick_failures",
    "search_meta",
    "sqlite_sequence",
    "import_job",
    "import_scenes",
];

/// Derived tables: a conflict on them is repaired afterwards, never fatal.
const DERIVED: [&str; 3] = ["search_chunks", "search_vectors", "summary_rollups"];

fn tracked(table: &str) -> bool {
    !UNTRACKED.contains(&table) && !table.starts_with("search_index")
}

/// Captures what one transaction changes in the story tables.
pub struct Recorder<'c> {
    session: Session<'c>,
}

impl<'c> Recorder<'c> {
    /// Starts recording on `conn` (before the changes are made).
    pub fn start(conn: &'c Connection) -> StoreResult<Recorder<'c>> {
        let mut session = Session::new(conn)?;
        session.table_filter(Some(tracked));
        session.attach::<&str>(None)?;
        Ok(Recorder { session })
    }

    /// The changeset of everything recorded so far; empty when nothing changed.
    pub fn changeset(&mut self) -> StoreResult<Vec<u8>> {
        if self.session.is_empty() {
            return Ok(Vec::new());
        }
        let mut bytes = Vec::new();
        self.session.changeset_strm(&mut bytes)?;
        Ok(bytes)
    }
}

/// What kind of change a history entry is.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// The novel's creation from its seed.
    Seed,
    /// A committed story tick.
    Tick,
    /// A change the writer made (prose, a record, a restored version).
    Edit,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Seed => "seed",
            ChangeKind::Tick => "tick",
            ChangeKind::Edit => "edit",
        }
    }

    fn parse(s: &str) -> ChangeKind {
        match s {
            "seed" => ChangeKind::Seed,
            "tick" => ChangeKind::Tick,
            _ => ChangeKind::Edit,
        }
    }
}

/// One recorded change, without its changeset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangeEntry {
    pub seq: i64,
    pub parent: Option<i64>,
    pub kind: ChangeKind,
    /// The story's tick once this change is applied.
    pub tick: u32,
    pub label: String,
    pub created_at: String,
}

/// Where the database stands in its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub branch: i64,
    pub branch_name: String,
    /// The change the story state reflects; `None` before any recorded change.
    pub head: Option<i64>,
    /// The first tick history covers (later than 0 for novels written before recording).
    pub baseline_tick: u32,
    /// Set while a regeneration has undone a scene and not yet committed its replacement.
    pub restore_to: Option<i64>,
}

pub fn head(conn: &Connection) -> StoreResult<Head> {
    conn.query_row(
        "SELECT h.branch, b.name, h.head, h.baseline_tick, h.restore_to
         FROM story_head h JOIN branches b ON b.id = h.branch WHERE h.id = 1",
        [],
        |r| {
            Ok(Head {
                branch: r.get(0)?,
                branch_name: r.get(1)?,
                head: r.get(2)?,
                baseline_tick: r.get(3)?,
                restore_to: r.get(4)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound("story head".into()))
}

/// Starts the history of a new novel on branch `main` (id 1), at no change yet.
pub fn init_head(tx: &Transaction<'_>) -> StoreResult<()> {
    tx.execute(
        "INSERT OR IGNORE INTO story_head (id, branch, head, baseline_tick) VALUES (1, 1, NULL, 0)",
        [],
    )?;
    Ok(())
}

/// Stores `changeset` as a change following the current head, on the current branch, and
/// makes it the head. Returns its sequence number, or `None` when nothing changed.
pub fn append_change(
    tx: &Transaction<'_>,
    kind: ChangeKind,
    tick: u32,
    label: &str,
    changeset: &[u8],
    at: &str,
) -> StoreResult<Option<i64>> {
    if changeset.is_empty() {
        return Ok(None);
    }
    let current = head(tx)?;
    tx.execute(
        "INSERT INTO changes (parent, kind, tick, label, changeset, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![current.head, kind.as_str(), tick, label, changeset, at],
    )?;
    let seq = tx.last_insert_rowid();
    set_head(tx, Some(seq))?;
    Ok(Some(seq))
}

/// Points the database and the current branch at `seq`.
pub fn set_head(tx: &Transaction<'_>, seq: Option<i64>) -> StoreResult<()> {
    tx.execute("UPDATE story_head SET head = ?1 WHERE id = 1", [seq])?;
    tx.execute(
        "UPDATE branches SET head = ?1 WHERE id = (SELECT branch FROM story_head WHERE id = 1)",
        [seq],
    )?;
    Ok(())
}

pub fn set_restore_to(tx: &Transaction<'_>, seq: Option<i64>) -> StoreResult<()> {
    tx.execute("UPDATE story_head SET restore_to = ?1 WHERE id = 1", [seq])?;
    Ok(())
}

pub fn get_change(conn: &Connection, seq: i64) -> StoreResult<ChangeEntry> {
    conn.query_row(
        "SELECT seq, parent, kind, tick, label, created_at FROM changes WHERE seq = ?1",
        [seq],
        read_change,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound(format!("change {seq}")))
}

fn read_change(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChangeEntry> {
    Ok(ChangeEntry {
        seq: r.get(0)?,
        parent: r.get(1)?,
        kind: ChangeKind::parse(&r.get::<_, String>(2)?),
        tick: r.get(3)?,
        label: r.get(4)?,
        created_at: r.get(5)?,
    })
}

/// `seq` and its ancestors, newest first.
pub fn lineage(conn: &Connection, seq: Option<i64>) -> StoreResult<Vec<ChangeEntry>> {
    let Some(seq) = seq else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare_cached(
        "WITH RECURSIVE line(seq) AS (
             SELECT ?1 UNION ALL SELECT c.parent FROM changes c JOIN line ON c.seq = line.seq
             WHERE c.parent IS NOT NULL)
         SELECT c.seq, c.parent, c.kind, c.tick, c.label, c.created_at
         FROM line JOIN changes c ON c.seq = line.seq ORDER BY c.seq DESC",
    )?;
    let rows = stmt.query_map([seq], read_change)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn changeset_of(conn: &Connection, seq: i64) -> StoreResult<Vec<u8>> {
    Ok(
        conn.query_row("SELECT changeset FROM changes WHERE seq = ?1", [seq], |r| {
            r.get(0)
        })?,
    )
}

/// Which way a change is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Undo,
    Redo,
}

/// Applies change `seq` forwards or backwards. A conflict on a story table means the database
/// is not where this change expects it and aborts (the caller's transaction rolls back); a
/// row a cascade already removed is fine; derived tables are repaired afterwards.
pub fn apply_change(tx: &Transaction<'_>, seq: i64, direction: Direction) -> StoreResult<()> {
    let forward = changeset_of(tx, seq)?;
    let bytes = match direction {
        Direction::Redo => forward,
        Direction::Undo => {
            let mut inverse = Vec::new();
            invert_strm(&mut forward.as_slice(), &mut inverse)?;
            inverse
        }
    };
    let mut input: &[u8] = &bytes;
    tx.apply_strm(
        &mut input as &mut dyn Read,
        Some(tracked),
        |conflict, item| resolve(conflict, &item),
    )
    .map_err(|e| StoreError::History(format!("change {seq} could not be applied: {e}")))
}

fn resolve(conflict: ConflictType, item: &rusqlite::session::ChangesetItem) -> ConflictAction {
    let (table, op) = match item.op() {
        Ok(op) => (op.table_name().to_string(), op.code()),
        Err(_) => return ConflictAction::SQLITE_CHANGESET_ABORT,
    };
    let derived = DERIVED.contains(&table.as_str());
    match conflict {
        // The row is already gone (a cascade removed it): the end state is the same.
        ConflictType::SQLITE_CHANGESET_NOTFOUND
            if derived || op == rusqlite::hooks::Action::SQLITE_DELETE =>
        {
            ConflictAction::SQLITE_CHANGESET_OMIT
        }
        ConflictType::SQLITE_CHANGESET_DATA | ConflictType::SQLITE_CHANGESET_CONFLICT
            if derived =>
        {
            ConflictAction::SQLITE_CHANGESET_REPLACE
        }
        ConflictType::SQLITE_CHANGESET_CONSTRAINT if derived => {
            ConflictAction::SQLITE_CHANGESET_OMIT
        }
        other => {
            tracing::error!(table, ?other, "history conflict; the move is abandoned");
            ConflictAction::SQLITE_CHANGESET_ABORT
        }
    }
}

/// A story-table row a change touched, by its first primary-key column; for scenes, the tick
/// too when the change carries it (inserts and deletes do).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TouchedRow {
    pub table: String,
    pub id: String,
    pub scene_tick: Option<u32>,
}

/// The story-table rows a change touched: what a move must re-derive passages and rewrite
/// files for.
pub fn touched_rows(conn: &Connection, seq: i64) -> StoreResult<Vec<TouchedRow>> {
    use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator;
    use rusqlite::hooks::Action;
    use rusqlite::types::ValueRef;
    let bytes = changeset_of(conn, seq)?;
    let mut slice = bytes.as_slice();
    let input: &mut dyn Read = &mut slice;
    let mut iter = rusqlite::session::ChangesetIter::start_strm(&input)?;
    let mut out = Vec::new();
    while let Some(item) = iter.next()? {
        let op = item.op()?;
        let table = op.table_name().to_string();
        if DERIVED.contains(&table.as_str()) {
            continue;
        }
        let inserted = op.code() == Action::SQLITE_INSERT;
        let value = |col| {
            if inserted {
                item.new_value(col)
            } else {
                item.old_value(col)
            }
        };
        let ValueRef::Text(key) = value(0)? else {
            continue;
        };
        let scene_tick = match (table.as_str(), op.code()) {
            ("scenes", Action::SQLITE_INSERT | Action::SQLITE_DELETE) => match value(1)? {
                ValueRef::Integer(t) => u32::try_from(t).ok(),
                _ => None,
            },
            _ => None,
        };
        out.push(TouchedRow {
            table,
            id: String::from_utf8_lossy(key).into_owned(),
            scene_tick,
        });
    }
    Ok(out)
}
