//! Rolling backups of `novel.db` in the novel's `backups/` folder, and restoring one.
//!
//! A backup is a consistent copy made with SQLite's online backup API (a tick may be reading or
//! writing at the same time), written under a hidden temporary name and renamed into place only
//! when complete, so a crash never leaves a half backup that looks whole. Names carry the tick
//! and the time: `backups/novel-tick-0042-20261123T100000Z.db` (`…-before-upgrade-v3.db` for
//! the one taken before a schema migration). The newest [`KEEP_BACKUPS`] are kept. A backup is
//! a single self-contained file (rollback journal, not WAL) and never holds secrets: the
//! database holds none (provider keys live outside the novel).
//!
//! Putting one back ([`put_back`]) takes the writer's lock, verifies the backup with
//! `PRAGMA integrity_check`, keeps the current database aside as
//! `novel.db.before-restore-<time>` (with its WAL) and puts the copy in place; `restore`
//! then opens the novel on it, which reconciles `scenes/` and `plans/` with it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::clock::Clock;
use crate::layout::{BACKUPS_DIR, CONFIG_FILE, DB_FILE};
use crate::lock::{LockError, NovelLock};
use crate::store::{self, Check, SCHEMA_VERSION, StoreError};

/// How many backups are kept; older ones are deleted as new ones are made.
pub const KEEP_BACKUPS: usize = 10;
/// A tick whose number is a multiple of this is followed by a backup.
pub const BACKUP_EVERY_TICKS: u32 = 10;

const PREFIX: &str = "novel-tick-";
const PARTIAL_PREFIX: &str = ".partial-";

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    // The causes are named so they are not chained again after messages that already say them.
    #[error("{path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: {}", store::describe_sqlite(cause))]
    Sqlite {
        path: PathBuf,
        cause: rusqlite::Error,
    },
    #[error("{path} is not a usable backup: {problem}")]
    Unusable { path: PathBuf, problem: String },
    #[error(
        "there is no usable backup in {dir}; backups are made every {BACKUP_EVERY_TICKS} ticks and by `novel backup`"
    )]
    NoBackup { dir: PathBuf },
    #[error(
        "{dir} is not a novel: it has no novel.toml. Restore into the folder of the novel the backup belongs to"
    )]
    NotANovel { dir: PathBuf },
    #[error(transparent)]
    Lock(#[from] LockError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |cause| BackupError::Io {
        path: path.to_path_buf(),
        cause,
    }
}

fn sql(path: &Path) -> impl FnOnce(rusqlite::Error) -> BackupError + '_ {
    move |cause| BackupError::Sqlite {
        path: path.to_path_buf(),
        cause,
    }
}

/// One backup file, as its name describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BackupInfo {
    pub path: PathBuf,
    /// The story's tick when the backup was taken.
    pub tick: u32,
    /// When it was taken, `YYYYMMDDTHHMMSSZ` (UTC).
    pub taken_at: String,
    /// Why, when it was not a routine one (e.g. `before-upgrade-v3`).
    pub reason: Option<String>,
}

/// Parses `novel-tick-0042-20261123T100000Z[-reason].db`.
fn parse_name(name: &str) -> Option<(u32, String, Option<String>)> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(".db")?;
    let (tick, rest) = rest.split_once('-')?;
    let tick = tick
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| tick.parse().ok())??;
    let (taken_at, reason) = match rest.split_once('-') {
        Some((at, reason)) => (at, Some(reason.to_string())),
        None => (rest, None),
    };
    let valid_time = taken_at.len() == 16
        && taken_at.as_bytes()[8] == b'T'
        && taken_at.ends_with('Z')
        && taken_at[..8].bytes().all(|b| b.is_ascii_digit())
        && taken_at[9..15].bytes().all(|b| b.is_ascii_digit());
    valid_time.then(|| (tick, taken_at.to_string(), reason))
}

/// The backups of the novel at `root`, newest first.
pub fn list(root: &Path) -> Result<Vec<BackupInfo>, BackupError> {
    let dir = root.join(BACKUPS_DIR);
    let read = match std::fs::read_dir(&dir) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(&dir)(e)),
    };
    let mut out = Vec::new();
    for entry in read {
        let entry = entry.map_err(io(&dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some((tick, taken_at, reason)) = parse_name(&name) {
            out.push(BackupInfo {
                path: entry.path(),
                tick,
                taken_at,
                reason,
            });
        }
    }
    out.sort_by(|a, b| (&b.taken_at, b.tick, &b.path).cmp(&(&a.taken_at, a.tick, &a.path)));
    Ok(out)
}

/// What a verified backup holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verified {
    pub path: PathBuf,
    pub tick: u32,
    pub schema_version: usize,
}

/// Checks that `path` is a healthy novel database this program can open: its header, `check`
/// (`integrity_check` for a restore), its schema version and its story state. Read-only.
pub fn verify(path: &Path, check: Check) -> Result<Verified, BackupError> {
    let unusable = |problem: String| BackupError::Unusable {
        path: path.to_path_buf(),
        problem,
    };
    store::check_header(path).map_err(|e| match e {
        StoreError::Damaged { problem, .. } => unusable(problem),
        StoreError::Io { cause, .. } => io(path)(cause),
        other => unusable(other.to_string()),
    })?;
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sql(path))?;
    store::harden(&conn).map_err(sql(path))?;
    let problems = store::integrity_problems(&conn, check).map_err(|e| unusable(e.to_string()))?;
    if !problems.is_empty() {
        return Err(unusable(format!(
            "{} found: {}",
            match check {
                Check::Quick => "quick_check",
                Check::Full => "integrity_check",
            },
            problems.join("; ")
        )));
    }
    let schema_version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sql(path))?;
    let schema_version = usize::try_from(schema_version).unwrap_or(0);
    if schema_version == 0 || schema_version > SCHEMA_VERSION {
        return Err(unusable(format!(
            "its schema version is {schema_version}; this program reads 1 to {SCHEMA_VERSION}"
        )));
    }
    let tick = store::load_state(&conn)
        .map_err(|e| unusable(format!("it has no story state: {e}")))?
        .current_tick;
    Ok(Verified {
        path: path.to_path_buf(),
        tick,
        schema_version,
    })
}

/// The newest backup that passes `quick_check`, if any: what to restore when `novel.db` is
/// damaged.
pub fn newest_good(root: &Path) -> Option<BackupInfo> {
    list(root)
        .ok()?
        .into_iter()
        .find(|b| verify(&b.path, Check::Quick).is_ok())
}

/// Copies the database behind `conn` into `backups/` now, then deletes all but the newest
/// [`KEEP_BACKUPS`]. `reason` (lowercase words and dashes) marks a non-routine backup.
pub fn take(
    conn: &Connection,
    root: &Path,
    reason: Option<&str>,
    clock: &dyn Clock,
) -> Result<BackupInfo, BackupError> {
    let dir = root.join(BACKUPS_DIR);
    crate::fsutil::ensure_dir(&dir).map_err(io(&dir))?;
    remove_partials(&dir);
    // A database too old to have a story state is backed up as tick 0.
    let tick = store::load_state(conn).map_or(0, |s| s.current_tick);
    let taken_at = clock.now().format("%Y%m%dT%H%M%SZ").to_string();
    let name = match reason {
        Some(reason) => format!("{PREFIX}{tick:04}-{taken_at}-{reason}.db"),
        None => format!("{PREFIX}{tick:04}-{taken_at}.db"),
    };
    let path = dir.join(&name);
    let partial = dir.join(format!("{PARTIAL_PREFIX}{name}"));
    let result = copy_database(conn, &partial).and_then(|()| {
        std::fs::rename(&partial, &path).map_err(io(&path))?;
        sync_dir(&dir);
        Ok(())
    });
    if let Err(e) = result {
        remove_with_journals(&partial);
        return Err(e);
    }
    prune(root, &path)?;
    Ok(BackupInfo {
        path,
        tick,
        taken_at,
        reason: reason.map(str::to_string),
    })
}

/// Called after each committed tick of the novel at `root` (its database open as `conn`): a
/// backup after every [`BACKUP_EVERY_TICKS`]th tick. A failure is for the caller to report;
/// the tick itself is already safe in the database.
pub fn after_commit(
    conn: &Connection,
    root: &Path,
    tick: u32,
    clock: &dyn Clock,
) -> Result<Option<BackupInfo>, BackupError> {
    if tick == 0 || !tick.is_multiple_of(BACKUP_EVERY_TICKS) {
        return Ok(None);
    }
    take(conn, root, None, clock).map(Some)
}

/// Copies `src` into a new file at `dest` (online, page by page), as a self-contained
/// rollback-journal database, flushed to disk.
fn copy_database(src: &Connection, dest: &Path) -> Result<(), BackupError> {
    remove_with_journals(dest);
    // Owner-only, made new (never through a link) before SQLite writes into it.
    crate::fsutil::create_new_file(dest).map_err(io(dest))?;
    let mut out = Connection::open(dest).map_err(sql(dest))?;
    store::harden(&out).map_err(sql(dest))?;
    {
        let backup = Backup::new(src, &mut out).map_err(sql(dest))?;
        backup
            .run_to_completion(1024, Duration::from_millis(5), None)
            .map_err(sql(dest))?;
    }
    // The copy inherits WAL mode from its source; one file is what a backup should be.
    out.pragma_update(None, "journal_mode", "DELETE")
        .map_err(sql(dest))?;
    out.close().map_err(|(_, e)| sql(dest)(e))?;
    std::fs::File::open(dest)
        .and_then(|f| f.sync_all())
        .map_err(io(dest))
}

/// Deletes every backup but the newest [`KEEP_BACKUPS`] (never `keep`, the one just made).
fn prune(root: &Path, keep: &Path) -> Result<(), BackupError> {
    for old in list(root)?.into_iter().skip(KEEP_BACKUPS) {
        if old.path != keep {
            std::fs::remove_file(&old.path).map_err(io(&old.path))?;
        }
    }
    Ok(())
}

/// Leftovers of backups a crash interrupted. Backups are only made under the writer's lock,
/// so no other process is writing one.
fn remove_partials(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(PARTIAL_PREFIX)
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn remove_with_journals(path: &Path) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Makes a rename durable (best effort: not every platform can open a directory).
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Which backup to restore.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestoreFrom {
    /// This file (inside `backups/` or anywhere).
    File(PathBuf),
    /// The newest backup in `backups/` that passes `integrity_check`.
    Latest,
}

/// A backup put in place of the novel's database, the writer's lock still held.
#[derive(Debug)]
pub struct PutBack {
    pub lock: NovelLock,
    pub restored_from: PathBuf,
    /// Where the database that was replaced now is (with its `-wal`, if it had one).
    pub previous: Option<PathBuf>,
}

/// Replaces the database of the novel at `root` with a verified backup, keeping the lock for
/// the caller to open the novel with. Works when the current `novel.db` is damaged, empty or
/// missing; it is never deleted.
pub fn put_back(root: &Path, from: RestoreFrom, clock: &dyn Clock) -> Result<PutBack, BackupError> {
    if !root.join(CONFIG_FILE).is_file() {
        return Err(BackupError::NotANovel {
            dir: root.to_path_buf(),
        });
    }
    let lock = NovelLock::acquire(root)?;
    let source = match from {
        RestoreFrom::File(path) => verify(&path, Check::Full)?,
        RestoreFrom::Latest => list(root)?
            .into_iter()
            .find_map(|b| verify(&b.path, Check::Full).ok())
            .ok_or_else(|| BackupError::NoBackup {
                dir: root.join(BACKUPS_DIR),
            })?,
    };

    let db = root.join(DB_FILE);
    let incoming = root.join(format!("{DB_FILE}.restoring"));
    {
        let src = Connection::open_with_flags(
            &source.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sql(&source.path))?;
        store::harden(&src).map_err(sql(&source.path))?;
        if let Err(e) = copy_database(&src, &incoming) {
            remove_with_journals(&incoming);
            return Err(e);
        }
    }
    let previous = set_aside_database(&db, clock)?;
    std::fs::rename(&incoming, &db).map_err(io(&db))?;
    sync_dir(root);

    Ok(PutBack {
        lock,
        restored_from: source.path,
        previous,
    })
}

/// Moves `novel.db` aside as `novel.db.before-restore-<time>`, never deleting it. A healthy
/// one is checkpointed first so it is one file; a damaged one is not written to, and its
/// `-wal`/`-shm` follow it under names with which SQLite still pairs them. A WAL left behind by
/// an interrupted restore must not meet the restored database: it goes with the set-aside copy
/// that lacks one.
fn set_aside_database(db: &Path, clock: &dyn Clock) -> Result<Option<PathBuf>, BackupError> {
    let with_suffix = |p: &Path, suffix: &str| {
        let mut s = p.as_os_str().to_owned();
        s.push(suffix);
        PathBuf::from(s)
    };
    let stamp = clock.now().format("%Y%m%dT%H%M%SZ").to_string();
    let mut target = with_suffix(db, &format!(".before-restore-{stamp}"));
    let mut n = 1;
    while target.exists() {
        target = with_suffix(db, &format!(".before-restore-{stamp}-{n}"));
        n += 1;
    }
    let had_db = db.exists();
    if had_db {
        if verify(db, Check::Quick).is_ok()
            && let Ok(conn) = Connection::open(db)
            && store::harden(&conn).is_ok()
        {
            let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        std::fs::rename(db, &target).map_err(io(db))?;
    }
    let strays: Vec<PathBuf> = ["-wal", "-shm"]
        .iter()
        .map(|s| with_suffix(db, s))
        .filter(|p| p.exists())
        .collect();
    if !strays.is_empty() {
        let owner = if had_db {
            target.clone()
        } else {
            interrupted_set_aside(db).unwrap_or_else(|| target.clone())
        };
        for stray in strays {
            let suffix = if stray.to_string_lossy().ends_with("-wal") {
                "-wal"
            } else {
                "-shm"
            };
            let to = with_suffix(&owner, suffix);
            std::fs::rename(&stray, &to).map_err(io(&stray))?;
        }
    }
    Ok(had_db.then_some(target))
}

/// The newest `novel.db.before-restore-*` without its `-wal`: what an interrupted restore
/// left its WAL behind for.
fn interrupted_set_aside(db: &Path) -> Option<PathBuf> {
    let dir = db.parent()?;
    let prefix = format!("{DB_FILE}.before-restore-");
    let mut candidates: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| {
                n.starts_with(&prefix) && !n.ends_with("-wal") && !n.ends_with("-shm")
            })
        })
        .filter(|p| !PathBuf::from(format!("{}-wal", p.display())).exists())
        .collect();
    candidates.sort();
    candidates.pop()
}

#[cfg(test)]
mod tests;
