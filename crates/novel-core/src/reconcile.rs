//! Files agree with the database. `novel.db` is the source of truth and `scenes/scene_NNN.md`
//! and `plans/plan_NNN.json` are its readable mirror, written after each commit; a crash (or a
//! full disk) between the commit and those writes, a restore, or a deleted folder leaves the
//! mirror behind. Opening a novel for writing calls [`reconcile`]: a scene file that is missing
//! or differs from what the tick would write is rewritten, a missing plan file is rebuilt from
//! the `ticks` row, and a file for a tick the database does not have is moved to
//! `.orphaned/` inside its folder (so is an out-of-date copy before it is replaced): nothing is
//! deleted but the temporary files of interrupted atomic writes. Unchanged files are compared,
//! not rewritten (size first, then bytes), so opening a 300-scene novel stays cheap.

use std::collections::{BTreeMap, BTreeSet};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::files::{plan_file_from_record, plan_path, scene_file_text, scene_path};
use crate::layout::{ORPHANED_DIR, PLANS_DIR, SCENES_DIR};
use crate::model::Scene;
use crate::store::{self, StoreError};

/// What one reconciliation changed on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReconcileReport {
    /// Ticks whose scene file was missing or out of date and was written from the database.
    pub scenes_written: Vec<u32>,
    /// Ticks whose plan file was missing (or not this tick's) and was rebuilt.
    pub plans_written: Vec<u32>,
    /// Files moved into an `.orphaned/` folder, where they now are.
    pub set_aside: Vec<PathBuf>,
    /// Leftovers of atomic writes a crash interrupted (`.scene_NNN.md.tmp-PID`).
    pub temp_files_removed: u32,
}

impl ReconcileReport {
    pub fn is_empty(&self) -> bool {
        self == &ReconcileReport::default()
    }

    /// One line per kind of change, for a warning or a command's output.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let ticks = |v: &[u32]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.scenes_written.is_empty() {
            out.push(format!(
                "rewrote the scene files of tick(s) {} from novel.db",
                ticks(&self.scenes_written)
            ));
        }
        if !self.plans_written.is_empty() {
            out.push(format!(
                "rebuilt the plan files of tick(s) {} from novel.db",
                ticks(&self.plans_written)
            ));
        }
        for path in &self.set_aside {
            out.push(format!(
                "moved {} aside: novel.db has no such scene (or a newer text of it)",
                path.display()
            ));
        }
        out
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    #[error("cannot read the story to check its files: {0}")]
    Store(#[from] StoreError),
    #[error(
        "cannot bring {path} up to date with novel.db: {cause}. {}; novel.db still holds every scene, and the files are checked again each time the novel is opened for writing",
        advice(cause)
    )]
    Io {
        path: PathBuf,
        /// Named so it is not chained again after the message, which already says it.
        cause: std::io::Error,
    },
}

fn advice(e: &std::io::Error) -> &'static str {
    match e.kind() {
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => "The disk is full: free some space",
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
            "The folder is not writable: make the novel's folder writable by you"
        }
        _ => "Check the disk and the folder",
    }
}

/// The few file operations reconciliation performs, so tests can make them fail like a full
/// disk does.
pub trait FileOps {
    /// Replaces `path` with `bytes` atomically, creating its folder if needed.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()>;
    fn rename(&self, from: &Path, to: &Path) -> std::io::Result<()>;
    fn remove(&self, path: &Path) -> std::io::Result<()>;
}

/// The real file system.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealFiles;

impl FileOps for RealFiles {
    /// Atomic (a temporary sibling renamed over the file) but not flushed one by one: a mirror
    /// that power loss leaves empty or stale is found and written again by the next open, while
    /// flushing hundreds of files costs seconds.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        crate::fsutil::ensure_dir(path.parent().unwrap_or_else(|| Path::new(".")))?;
        crate::fsutil::write_atomic_with(path, bytes, false)
    }

    fn rename(&self, from: &Path, to: &Path) -> std::io::Result<()> {
        if let Some(dir) = to.parent() {
            crate::fsutil::ensure_dir(dir)?;
        }
        std::fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> std::io::Result<()> {
        std::fs::remove_file(path)
    }
}

/// Brings `scenes/` and `plans/` of the novel at `root` in line with the database.
pub fn reconcile(root: &Path, conn: &Connection) -> Result<ReconcileReport, ReconcileError> {
    reconcile_with(root, conn, &RealFiles)
}

/// [`reconcile`] through `files`.
pub fn reconcile_with(
    root: &Path,
    conn: &Connection,
    files: &dyn FileOps,
) -> Result<ReconcileReport, ReconcileError> {
    let mut report = ReconcileReport::default();
    let scenes: BTreeMap<u32, Scene> = store::list_scenes(conn)?
        .into_iter()
        .map(|s| (s.tick, s))
        .collect();
    let ticks: BTreeMap<u32, String> = store::tick_starts(conn)?.into_iter().collect();

    let scenes_dir = root.join(SCENES_DIR);
    let plans_dir = root.join(PLANS_DIR);
    report.temp_files_removed += remove_temp_files(&scenes_dir, files)?;
    report.temp_files_removed += remove_temp_files(&plans_dir, files)?;
    set_aside_unbacked(
        &scenes_dir,
        "scene_",
        ".md",
        &scenes.keys().copied().collect(),
        files,
        &mut report,
    )?;
    set_aside_unbacked(
        &plans_dir,
        "plan_",
        ".json",
        &ticks.keys().copied().collect(),
        files,
        &mut report,
    )?;

    for (tick, scene) in &scenes {
        let path = scene_path(root, *tick);
        let text = scene_file_text(&scene.title, &scene.summary, &scene.prose);
        match file_matches(&path, text.as_bytes()) {
            Ok(true) => continue,
            Ok(false) => set_aside(&path, files, &mut report)?,
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(cause) => return Err(ReconcileError::Io { path, cause }),
        }
        files
            .write(&path, text.as_bytes())
            .map_err(|cause| ReconcileError::Io {
                path: path.clone(),
                cause,
            })?;
        report.scenes_written.push(*tick);
    }

    for (tick, started_at) in &ticks {
        let path = plan_path(root, *tick);
        match plan_file_belongs(&path, *tick, started_at) {
            Ok(true) => continue,
            Ok(false) => set_aside(&path, files, &mut report)?,
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(cause) => return Err(ReconcileError::Io { path, cause }),
        }
        let Some(record) = store::get_tick(conn, *tick)? else {
            continue;
        };
        let text = serde_json::to_string_pretty(&plan_file_from_record(&record))
            .expect("a JSON value always serializes");
        files
            .write(&path, text.as_bytes())
            .map_err(|cause| ReconcileError::Io {
                path: path.clone(),
                cause,
            })?;
        report.plans_written.push(*tick);
    }
    Ok(report)
}

/// Whether the file at `path` holds exactly `expected`; the size is compared before any byte
/// is read.
fn file_matches(path: &Path, expected: &[u8]) -> std::io::Result<bool> {
    let len = std::fs::metadata(path)?.len();
    if len != expected.len() as u64 {
        return Ok(false);
    }
    Ok(std::fs::read(path)? == expected)
}

/// The fields that say which tick a plan file was written for.
#[derive(Deserialize)]
struct PlanFileHead {
    tick: u32,
    timestamp: String,
}

/// A plan file belongs to a tick when it names that tick and its start time: a file left from
/// before a restore names another run's tick. An unreadable file does not belong.
fn plan_file_belongs(path: &Path, tick: u32, started_at: &str) -> std::io::Result<bool> {
    let text = std::fs::read(path)?;
    Ok(serde_json::from_slice::<PlanFileHead>(&text)
        .is_ok_and(|head| head.tick == tick && head.timestamp == started_at))
}

/// The tick a mirror file is named for (`scene_012.md` → 12), if it is one.
fn tick_of(name: &str, prefix: &str, suffix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, ReconcileError> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(cause) => {
            return Err(ReconcileError::Io {
                path: dir.to_path_buf(),
                cause,
            });
        }
    };
    let mut out = Vec::new();
    for entry in read {
        let entry = entry.map_err(|cause| ReconcileError::Io {
            path: dir.to_path_buf(),
            cause,
        })?;
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            out.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            ));
        }
    }
    out.sort();
    Ok(out)
}

/// Moves every `{prefix}NNN{suffix}` in `dir` whose tick is not in `backed` into `.orphaned/`.
fn set_aside_unbacked(
    dir: &Path,
    prefix: &str,
    suffix: &str,
    backed: &BTreeSet<u32>,
    files: &dyn FileOps,
    report: &mut ReconcileReport,
) -> Result<(), ReconcileError> {
    for (name, path) in entries(dir)? {
        if tick_of(&name, prefix, suffix).is_some_and(|tick| !backed.contains(&tick)) {
            set_aside(&path, files, report)?;
        }
    }
    Ok(())
}

/// Moves `path` into `.orphaned/` next to it, under a name not yet taken there.
fn set_aside(
    path: &Path,
    files: &dyn FileOps,
    report: &mut ReconcileReport,
) -> Result<(), ReconcileError> {
    let dir = path
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(ORPHANED_DIR);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, ""));
    let mut target = dir.join(&name);
    let mut n = 1;
    while target.exists() {
        target = dir.join(format!("{stem}.{n}.{ext}"));
        n += 1;
    }
    files
        .rename(path, &target)
        .map_err(|cause| ReconcileError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
    report.set_aside.push(target);
    Ok(())
}

/// Deletes the `.NAME.tmp-PID` files `fsutil::write_atomic` leaves when killed mid-write: each
/// is an incomplete copy of a file the database can write again.
fn remove_temp_files(dir: &Path, files: &dyn FileOps) -> Result<u32, ReconcileError> {
    let mut removed = 0;
    for (name, path) in entries(dir)? {
        if name.starts_with('.') && name.contains(".tmp-") {
            files.remove(&path).map_err(|cause| ReconcileError::Io {
                path: path.clone(),
                cause,
            })?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
pub(crate) mod tests;
