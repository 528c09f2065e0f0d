//! Moving the story through its recorded history (see `store::changes`): to any earlier or
//! later state, on this branch or another. A move undoes the changes from the current state
//! back to the nearest state both lines share, then redoes the target line's changes from
//! there — exact for every story table — and re-derives the passages of whatever it touched
//! (normally already exact, but a `reindex` since the changes were recorded may have renumbered
//! them). Branches are names for changes; nothing here deletes a change or a scene version.

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::Serialize;

use crate::store::{self, ChangeEntry, ChangeKind, Direction, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum BranchError {
    #[error("there is no branch called \"{0}\"; `novel branch list` shows them")]
    NoSuchBranch(String),
    #[error("a branch called \"{0}\" already exists; choose another name")]
    NameTaken(String),
    #[error("a branch needs a name of 1–80 characters")]
    BadName,
    #[error("\"{0}\" is the branch you are on; switch to another branch before deleting it")]
    DeleteCurrent(String),
    #[error(
        "scene {tick} is not in this branch's recorded history (it begins after scene {baseline}, when this novel started recording its history)"
    )]
    BeforeHistory { tick: u32, baseline: u32 },
    #[error("there is no scene {tick} on this branch (it ends at scene {last})")]
    NoSuchScene { tick: u32, last: u32 },
    #[error(
        "scene {tick} is not the scene the agent wrote last: the book was reshaped since (undo that, or write a new scene with Next scene)"
    )]
    Reshaped { tick: u32 },
    #[error(
        "scene {tick} came from the imported manuscript, not from the agent: edit it by hand, or write a new scene with Next scene"
    )]
    Imported { tick: u32 },
    #[error(
        "scene {tick} was written by hand, not by the agent: edit it, or write a new scene with Next scene"
    )]
    WrittenByHand { tick: u32 },
    #[error(
        "scene {tick} was written from your note at its place in the book, not as the next scene: undo it and ask again, or edit it"
    )]
    WrittenFromNote { tick: u32 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for BranchError {
    fn from(e: rusqlite::Error) -> Self {
        BranchError::Store(StoreError::Sqlite(e))
    }
}

/// What a move did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    pub undone: usize,
    pub redone: usize,
    /// Scenes (by tick) whose text or existence may have changed: their files need rewriting.
    pub ticks: BTreeSet<u32>,
}

/// Moves the database from its current state to the state after change `target` (`None`: the
/// state before any recorded change). Only `story_head.head` moves; branch pointers are the
/// caller's to set.
pub fn move_to(tx: &Transaction<'_>, target: Option<i64>) -> Result<MoveReport, BranchError> {
    let head = store::head(tx)?;
    if head.head == target {
        return Ok(MoveReport::default());
    }
    let from = store::lineage(tx, head.head)?;
    let to = store::lineage(tx, target)?;
    let shared: BTreeSet<i64> = to.iter().map(|c| c.seq).collect();
    let undo: Vec<&ChangeEntry> = from
        .iter()
        .take_while(|c| !shared.contains(&c.seq))
        .collect();
    let fork = from.get(undo.len()).map(|c| c.seq);
    let mut redo: Vec<&ChangeEntry> = to.iter().take_while(|c| Some(c.seq) != fork).collect();
    redo.reverse();
    let mut report = MoveReport::default();
    let mut touched = BTreeSet::new();
    for change in &undo {
        touched.extend(store::touched_rows(tx, change.seq)?);
        store::apply_change(tx, change.seq, Direction::Undo)?;
    }
    for change in &redo {
        store::apply_change(tx, change.seq, Direction::Redo)?;
        touched.extend(store::touched_rows(tx, change.seq)?);
    }
    tx.execute("UPDATE story_head SET head = ?1 WHERE id = 1", [target])?;
    for row in &touched {
        store::reindex_record(tx, &row.table, &row.id)?;
        if row.table == "scenes" {
            let tick = match row.scene_tick {
                Some(tick) => Some(tick),
                None => store::get_scene(tx, &row.id)?.map(|s| s.tick),
            };
            report.ticks.extend(tick);
        }
    }
    report.undone = undo.len();
    report.redone = redo.len();
    Ok(report)
}

/// Returns the story to where an interrupted regeneration started (its old scene), if one was
/// interrupted between undoing the scene and committing its replacement. Returns whether it
/// had to.
pub fn finish_interrupted(tx: &Transaction<'_>) -> Result<bool, BranchError> {
    let Some(target) = store::head(tx)?.restore_to else {
        return Ok(false);
    };
    reset_branch(tx, Some(target))?;
    store::set_restore_to(tx, None)?;
    Ok(true)
}

/// The change that committed scene `tick` on the current line (the seed for tick 0).
/// `Ok(None)` is the state the novel had when it began recording its history (for novels
/// written before recording, the scenes up to then).
pub fn change_of_tick(conn: &Connection, tick: u32) -> Result<Option<i64>, BranchError> {
    let head = store::head(conn)?;
    let line = store::lineage(conn, head.head)?;
    let last = line.first().map_or(head.baseline_tick, |c| c.tick);
    if tick > last {
        return Err(BranchError::NoSuchScene { tick, last });
    }
    let committed = line.iter().find(|c| {
        c.tick == tick && (c.kind == ChangeKind::Tick || (tick == 0 && c.kind == ChangeKind::Seed))
    });
    match committed {
        Some(c) => Ok(Some(c.seq)),
        None if tick == head.baseline_tick && head.baseline_tick > 0 => Ok(None),
        None => Err(BranchError::BeforeHistory {
            tick,
            baseline: head.baseline_tick,
        }),
    }
}

/// A branch as the front ends list it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BranchInfo {
    pub name: String,
    /// The scene its latest state ends with.
    pub tick: u32,
    pub current: bool,
    pub created_at: String,
}

pub fn list_branches(conn: &Connection) -> Result<Vec<BranchInfo>, BranchError> {
    let head = store::head(conn)?;
    let mut stmt = conn.prepare(
        "SELECT b.id, b.name, b.created_at, c.tick FROM branches b
         LEFT JOIN changes c ON c.seq = b.head ORDER BY b.id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(BranchInfo {
            current: r.get::<_, i64>(0)? == head.branch,
            name: r.get(1)?,
            created_at: r.get(2)?,
            tick: r.get::<_, Option<u32>>(3)?.unwrap_or(head.baseline_tick),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn branch_id(conn: &Connection, name: &str) -> Result<(i64, Option<i64>), BranchError> {
    conn.query_row(
        "SELECT id, head FROM branches WHERE name = ?1",
        [name],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| BranchError::NoSuchBranch(name.to_string()))
}

fn valid_name(name: &str) -> Result<String, BranchError> {
    let name = crate::text::clean_line(name);
    if name.is_empty() || name.chars().count() > 80 {
        return Err(BranchError::BadName);
    }
    Ok(name)
}

/// A new branch pointing at change `at`, named `name`.
pub fn create_branch(
    tx: &Transaction<'_>,
    name: &str,
    at: Option<i64>,
    now: &str,
) -> Result<String, BranchError> {
    let name = valid_name(name)?;
    if branch_id(tx, &name).is_ok() {
        return Err(BranchError::NameTaken(name));
    }
    tx.execute(
        "INSERT INTO branches (name, head, created_at) VALUES (?1, ?2, ?3)",
        params![name, at, now],
    )?;
    Ok(name)
}

/// A name not yet taken, from `base` ("base", "base 2", "base 3", …).
pub fn unused_name(conn: &Connection, base: &str) -> Result<String, BranchError> {
    let base = valid_name(base)?;
    let mut name = base.clone();
    let mut n = 2;
    while branch_id(conn, &name).is_ok() {
        name = format!("{base} {n}");
        n += 1;
    }
    Ok(name)
}

pub fn rename_branch(tx: &Transaction<'_>, from: &str, to: &str) -> Result<String, BranchError> {
    let (id, _) = branch_id(tx, from)?;
    let to = valid_name(to)?;
    if to != from && branch_id(tx, &to).is_ok() {
        return Err(BranchError::NameTaken(to));
    }
    tx.execute(
        "UPDATE branches SET name = ?1 WHERE id = ?2",
        params![to, id],
    )?;
    Ok(to)
}

/// Deletes the branch pointer; its changes and scene versions stay.
pub fn delete_branch(tx: &Transaction<'_>, name: &str) -> Result<(), BranchError> {
    let (id, _) = branch_id(tx, name)?;
    if id == store::head(tx)?.branch {
        return Err(BranchError::DeleteCurrent(name.to_string()));
    }
    tx.execute("DELETE FROM branches WHERE id = ?1", [id])?;
    Ok(())
}

/// Makes `name` the current branch and moves the story to its latest state.
pub fn switch_branch(tx: &Transaction<'_>, name: &str) -> Result<MoveReport, BranchError> {
    let (id, target) = branch_id(tx, name)?;
    let report = move_to(tx, target)?;
    tx.execute("UPDATE story_head SET branch = ?1 WHERE id = 1", [id])?;
    Ok(report)
}

/// Moves the current branch (and the story) to change `target`.
pub fn reset_branch(tx: &Transaction<'_>, target: Option<i64>) -> Result<MoveReport, BranchError> {
    let report = move_to(tx, target)?;
    store::set_head(tx, target)?;
    Ok(report)
}

/// The scene of `tick` as the branch `name` has it, without switching to it: its prose and
/// title from the versions made current on that branch's line.
pub fn scene_on_branch(
    conn: &Connection,
    name: &str,
    tick: u32,
) -> Result<Option<store::SceneVersion>, BranchError> {
    let (_, head) = branch_id(conn, name)?;
    let line: BTreeSet<i64> = store::lineage(conn, head)?.iter().map(|c| c.seq).collect();
    let versions = store::versions_of(conn, tick)?;
    let on_line = versions
        .iter()
        .rev()
        .find(|v| v.change_seq.is_some_and(|s| line.contains(&s)));
    // Scenes written before history was recorded are shared by every branch.
    let imported = || {
        versions
            .iter()
            .rev()
            .find(|v| v.origin == store::VersionOrigin::Imported)
    };
    Ok(on_line.or_else(imported).cloned())
}
