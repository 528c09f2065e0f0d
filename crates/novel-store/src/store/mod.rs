//! The novel store: the one type that owns the SQLite connection of `novel.db`. Opened for
//! writing, it checks the file before touching it (an empty or foreign file, or one that fails
//! `PRAGMA quick_check`, is refused, and nothing further is written to it), turns on WAL and
//! foreign keys, and applies the versioned migrations in `schema/` (after a caller-supplied hook,
//! which takes a backup). Opened for reading, it is a read-only SQLite connection that never
//! migrates. A database written by a newer program is refused either way. Every connection is
//! hardened first (defensive mode, `trusted_schema=OFF`: see `hardening`). The data functions in
//! the submodules take a `&Transaction` (writes) or `&Connection` (reads) so that the caller
//! decides what is atomic — a whole tick commits or nothing does.

mod changes;
mod chapters;
mod characters;
mod chunks;
mod error;
mod guidance;
mod hardening;
mod history;
mod ids;
mod imports;
mod json;
mod locations;
mod loops;
mod lore;
mod mentions;
mod names;
mod order;
mod reindex;
mod relationships;
mod rollups;
mod scenes;
mod search;
mod state;
mod ticks;
mod vectors;
mod verdicts;
mod versions;

use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags, Transaction};
use rusqlite_migration::{M, Migrations, SchemaVersion};

pub use changes::*;
pub use chapters::*;
pub use characters::*;
pub use chunks::*;
pub use error::{StoreError, StoreResult, describe_sqlite};
pub use guidance::*;
pub use hardening::harden;
pub use history::*;
pub use ids::mint_id;
pub use imports::*;
pub(crate) use json::to_json;
pub use locations::*;
pub use loops::*;
pub use lore::*;
pub use mentions::*;
pub use names::display_names;
pub use order::*;
pub use reindex::{rebuild_search_index, reindex_record};
pub use relationships::*;
pub use rollups::*;
pub use scenes::*;
pub use search::*;
pub use state::*;
pub use ticks::*;
pub use vectors::*;
pub use verdicts::*;
pub use versions::*;

const MIGRATION_SQL: [&str; 9] = [
    include_str!("schema/001_core.sql"),
    include_str!("schema/002_search_and_failures.sql"),
    include_str!("schema/003_retrieval.sql"),
    include_str!("schema/004_tick_notes.sql"),
    include_str!("schema/005_history.sql"),
    include_str!("schema/006_guidance.sql"),
    include_str!("schema/007_chapters_and_imports.sql"),
    include_str!("schema/008_plan_verdicts.sql"),
    include_str!("schema/009_scene_order.sql"),
];

/// The schema version this build writes and understands.
pub const SCHEMA_VERSION: usize = MIGRATION_SQL.len();

fn migrations() -> Migrations<'static> {
    Migrations::new(
        MIGRATION_SQL
            .iter()
            .enumerate()
            .map(|(i, sql)| match i + 1 {
                3 => M::up_with_hook(sql, refill_derived),
                _ => M::up(sql),
            })
            .collect(),
    )
}

/// Version 3 replaced the search index: an upgraded novel gets its passages and roll-ups back
/// straight away (vectors follow on the next tick or `novel reindex`).
fn refill_derived(tx: &Transaction<'_>) -> rusqlite_migration::HookResult {
    let hook_err = |e: StoreError| rusqlite_migration::HookError::Hook(e.to_string());
    rebuild_search_index(tx).map_err(hook_err)?;
    rebuild_rollups(tx).map_err(hook_err)?;
    Ok(())
}

/// Owns the connection to one `novel.db`.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

impl Store {
    /// Opens for writing (creating the file if `create`) and migrates to the latest schema.
    pub fn open(path: &Path, create: bool) -> StoreResult<Store> {
        Self::open_with(path, create, &mut |_, _| Ok(()))
    }

    /// Opens for writing like [`Store::open`]; `before_migration(conn, from_version)` runs
    /// before an existing database is upgraded (it takes a backup), and an error from it
    /// cancels the upgrade.
    pub fn open_with(
        path: &Path,
        create: bool,
        before_migration: &mut dyn FnMut(&Connection, usize) -> Result<(), String>,
    ) -> StoreResult<Store> {
        let existed = path.exists();
        // A 0-byte or foreign file would otherwise become an empty novel without a word. Only
        // a caller creating a new novel may start from nothing.
        if existed && !(create && file_len(path)? == 0) {
            check_header(path)?;
        }
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let open_err = |source| classify_open_error(path, source);
        if create && !existed {
            // Made owner-only before SQLite opens it: its WAL and shared-memory files take
            // the database file's mode.
            crate::fsutil::create_new_file(path).map_err(|cause| StoreError::Io {
                path: path.to_path_buf(),
                cause,
            })?;
        }
        let mut conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        harden(&conn).map_err(open_err)?;
        if existed {
            // Until the file is known to be healthy, closing must not checkpoint the WAL into it.
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
                .map_err(open_err)?;
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .map_err(open_err)?;
            let problems = integrity_problems(&conn, Check::Quick).map_err(open_err)?;
            if !problems.is_empty() {
                return Err(StoreError::Damaged {
                    path: path.to_path_buf(),
                    problem: format!("PRAGMA quick_check found: {}", problems.join("; ")),
                });
            }
            // Nor may a newer program's database or another program's be touched.
            let version = schema_version(&conn).map_err(|e| StoreError::Migration {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
            if version > SCHEMA_VERSION {
                return Err(StoreError::NewerSchema {
                    path: path.to_path_buf(),
                    found: version,
                    supported: SCHEMA_VERSION,
                });
            }
            if version == 0 && has_tables(&conn).map_err(open_err)? {
                return Err(StoreError::Damaged {
                    path: path.to_path_buf(),
                    problem:
                        "it is an SQLite database but not a novel's (it has no schema version)"
                            .into(),
                });
            }
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)
                .map_err(open_err)?;
        }
        configure(&conn).map_err(open_err)?;
        if conn.is_readonly(rusqlite::MAIN_DB).map_err(open_err)? {
            return Err(StoreError::ReadOnly {
                path: path.to_path_buf(),
            });
        }
        let version = schema_version(&conn).map_err(|e| StoreError::Migration {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        if version > 0 && version < SCHEMA_VERSION {
            before_migration(&conn, version).map_err(|e| StoreError::Migration {
                path: path.to_path_buf(),
                message: format!(
                    "the backup taken before upgrading failed, so nothing was changed: {e}"
                ),
            })?;
        }
        migrations()
            .to_latest(&mut conn)
            .map_err(|e| StoreError::Migration {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing database read-only: no migration, no schema, no WAL switch. A schema
    /// older than this program's is [`StoreError::OlderSchema`] (upgrading is a write).
    pub fn open_read_only(path: &Path) -> StoreResult<Store> {
        check_header(path)?;
        let open_err = |source| classify_open_error(path, source);
        let conn = match read_only_connection(path, false) {
            Ok(conn) => conn,
            // In a folder this user cannot write, SQLite cannot make the shared-memory index a
            // WAL reader needs. No writer can be at work there either, so unless a WAL holds
            // changes not yet merged, the file is read as the unchanging file it is.
            Err(e)
                if cfg!(unix)
                    && matches!(
                        e.sqlite_error_code(),
                        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen)
                    )
                    && !with_suffix(path, "-wal").exists() =>
            {
                read_only_connection(path, true).map_err(open_err)?
            }
            Err(e) => return Err(open_err(e)),
        };
        let version = schema_version(&conn).map_err(|e| StoreError::Migration {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        match version {
            v if v > SCHEMA_VERSION => Err(StoreError::NewerSchema {
                path: path.to_path_buf(),
                found: v,
                supported: SCHEMA_VERSION,
            }),
            0 => Err(StoreError::Damaged {
                path: path.to_path_buf(),
                problem: "it holds no novel (no schema version)".into(),
            }),
            v if v < SCHEMA_VERSION => Err(StoreError::OlderSchema {
                path: path.to_path_buf(),
                found: v,
                supported: SCHEMA_VERSION,
            }),
            _ => Ok(Store {
                conn,
                path: path.to_path_buf(),
            }),
        }
    }

    /// `PRAGMA integrity_check` (every page, index and constraint): the problems found, or none.
    pub fn integrity_check(&self) -> StoreResult<Vec<String>> {
        Ok(integrity_problems(&self.conn, Check::Full)?)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads outside a transaction see one consistent snapshot per statement.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// An IMMEDIATE transaction: takes SQLite's write lock up front so a tick never discovers
    /// halfway through that another writer got there first.
    pub fn transaction(&mut self) -> StoreResult<Transaction<'_>> {
        Ok(self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
    }
}

impl Store {
    /// Runs `change` in one transaction and records what it changed as one change of the
    /// story's history (kind `kind`, the story at tick `tick` afterwards); then, in the same
    /// transaction, `after` — unrecorded bookkeeping such as scene versions — gets the change's
    /// number (`None` when nothing changed). Returns `change`'s value.
    pub fn recorded<T, E: From<StoreError>>(
        &mut self,
        kind: ChangeKind,
        tick: u32,
        label: &str,
        at: &str,
        change: impl FnOnce(&Transaction<'_>) -> Result<T, E>,
        after: impl FnOnce(&Transaction<'_>, &T, Option<i64>) -> Result<(), E>,
    ) -> Result<T, E> {
        let tx = self.transaction()?;
        let mut recorder = Recorder::start(&tx)?;
        let value = change(&tx)?;
        let changeset = recorder.changeset()?;
        drop(recorder);
        let seq = append_change(&tx, kind, tick, label, &changeset, at)?;
        after(&tx, &value, seq)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(value)
    }

    /// Like `transaction`, from a shared borrow: the tick reads through `conn()` while deciding
    /// whether to keep or drop the transaction a plan ran in. Callers must not nest two.
    pub fn begin(&self) -> StoreResult<Transaction<'_>> {
        Ok(Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?)
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

fn schema_version(conn: &Connection) -> Result<usize, rusqlite_migration::Error> {
    Ok(match migrations().current_version(conn)? {
        SchemaVersion::NoneSet => 0,
        SchemaVersion::Inside(v) | SchemaVersion::Outside(v) => v.get(),
    })
}

/// A read-only connection, checked by a first read (where SQLite discovers whether it can
/// read the WAL); `immutable` tells SQLite the file cannot change while it is open.
fn read_only_connection(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = if immutable {
        // A URI filename: `%`, `?` and `#` in the path must be escaped.
        let escaped = path
            .to_string_lossy()
            .replace('%', "%25")
            .replace('?', "%3f")
            .replace('#', "%23");
        Connection::open_with_flags(
            format!("file:{escaped}?immutable=1"),
            flags | OpenFlags::SQLITE_OPEN_URI,
        )?
    } else {
        Connection::open_with_flags(path, flags)?
    };
    harden(&conn)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.query_row("PRAGMA user_version", [], |_| Ok(()))?;
    Ok(conn)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn has_tables(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table')",
        [],
        |r| r.get(0),
    )
}

/// How thoroughly to check a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// `PRAGMA quick_check`: every page and record, without cross-checking indexes (fast).
    Quick,
    /// `PRAGMA integrity_check`: everything, indexes and constraints included.
    Full,
}

/// The problems `PRAGMA quick_check`/`integrity_check` report on `conn`; empty when healthy.
pub fn integrity_problems(conn: &Connection, check: Check) -> rusqlite::Result<Vec<String>> {
    let pragma = match check {
        Check::Quick => "PRAGMA quick_check",
        Check::Full => "PRAGMA integrity_check",
    };
    let mut stmt = conn.prepare(pragma)?;
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(if rows.len() == 1 && rows[0] == "ok" {
        Vec::new()
    } else {
        rows
    })
}

fn file_len(path: &Path) -> StoreResult<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|cause| StoreError::Io {
            path: path.to_path_buf(),
            cause,
        })
}

/// Refuses, by reading its first bytes, a file SQLite would otherwise treat as an empty
/// database (0 bytes) or reject only later (not SQLite at all).
pub fn check_header(path: &Path) -> StoreResult<()> {
    use std::io::Read;
    let io = |cause| StoreError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let mut head = Vec::with_capacity(SQLITE_HEADER.len());
    std::fs::File::open(path)
        .map_err(io)?
        .take(SQLITE_HEADER.len() as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    let problem = if head.is_empty() {
        "it is empty (0 bytes)"
    } else if head != SQLITE_HEADER {
        "it is not an SQLite database (it does not start with the SQLite header)"
    } else {
        return Ok(());
    };
    Err(StoreError::Damaged {
        path: path.to_path_buf(),
        problem: problem.into(),
    })
}

/// SQLite's "not a database" and "corrupt" become [`StoreError::Damaged`]; the rest stays an
/// open error naming the file.
fn classify_open_error(path: &Path, source: rusqlite::Error) -> StoreError {
    match source.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.to_path_buf(),
            problem: source.to_string(),
        },
        _ => StoreError::Open {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// Runs `f` inside a SQL savepoint: its writes stay if it succeeds and vanish if it fails, while
/// the surrounding transaction goes on. This is what makes a failing tool call change nothing.
pub fn with_savepoint<T, E>(tx: &Transaction<'_>, f: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    E: From<rusqlite::Error>,
{
    tx.execute_batch("SAVEPOINT tool_call")?;
    match f() {
        Ok(value) => {
            tx.execute_batch("RELEASE tool_call")?;
            Ok(value)
        }
        Err(err) => {
            tx.execute_batch("ROLLBACK TO tool_call; RELEASE tool_call")?;
            Err(err)
        }
    }
}

/// Every row of every source table (derived search tables excluded), as text. Two equal dumps
/// mean an unchanged story: this is how tests prove a failed tick or tool call left no trace.
pub fn dump_story(conn: &Connection) -> StoreResult<String> {
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search\\_%' ESCAPE '\\' AND name NOT IN ('sqlite_sequence', 'tick_failures', 'changes', 'branches', 'story_head', 'scene_versions', 'import_job', 'import_scenes') ORDER BY name")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    tables.sort();
    let mut out = String::new();
    for table in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\""))?;
        let n = stmt.column_count();
        let rows = stmt.query_map([], |r| {
            (0..n)
                .map(|i| r.get_ref(i).map(|v| format!("{v:?}")))
                .collect::<Result<Vec<_>, _>>()
        })?;
        for row in rows {
            out.push_str(&format!("{table}: {}\n", row?.join("|")));
        }
    }
    Ok(out)
}

/// A database at an older schema `version`, as an older program left it: for upgrade tests.
#[cfg(any(test, feature = "test-support"))]
pub fn create_at_version(path: &Path, version: usize) -> Connection {
    let mut conn = Connection::open(path).unwrap();
    configure(&conn).unwrap();
    Migrations::new(
        MIGRATION_SQL[..version]
            .iter()
            .map(|sql| M::up(sql))
            .collect(),
    )
    .to_latest(&mut conn)
    .unwrap();
    conn
}

#[cfg(test)]
mod tests;
