//! The novel store: the one type that owns the SQLite connection of `novel.db`. It opens the
//! file with WAL and foreign keys on, applies the versioned migrations in `schema/`, refuses a
//! database written by a newer version of the program, and hands out transactions. The data
//! functions in the submodules take a `&Transaction` (writes) or `&Connection` (reads) so that
//! the caller decides what is atomic — a whole tick commits or nothing does.

mod changes;
mod characters;
mod chunks;
mod history;
mod ids;
mod locations;
mod loops;
mod lore;
mod relationships;
mod rollups;
mod scenes;
mod search;
mod state;
mod ticks;
mod vectors;
mod versions;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, Transaction};
use rusqlite_migration::{M, Migrations, SchemaVersion};

pub use changes::*;
pub use characters::*;
pub use chunks::*;
pub use history::*;
pub use ids::mint_id;
pub use locations::*;
pub use loops::*;
pub use lore::*;
pub use relationships::*;
pub use rollups::*;
pub use scenes::*;
pub use search::*;
pub use state::*;
pub use ticks::*;
pub use vectors::*;
pub use versions::*;

pub const DB_FILE: &str = "novel.db";

const MIGRATION_SQL: [&str; 5] = [
    include_str!("schema/001_core.sql"),
    include_str!("schema/002_search_and_failures.sql"),
    include_str!("schema/003_retrieval.sql"),
    include_str!("schema/004_tick_notes.sql"),
    include_str!("schema/005_history.sql"),
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

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error(
        "{path} was written by a newer version of Novel Agent (schema version {found}, this program knows up to {supported}); update Novel Agent to open it"
    )]
    NewerSchema {
        path: PathBuf,
        found: usize,
        supported: usize,
    },
    #[error("{path}: cannot upgrade the database: {message}")]
    Migration { path: PathBuf, message: String },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("corrupt record {id}: {message}")]
    Corrupt { id: String, message: String },
    #[error("{0} not found")]
    NotFound(String),
    /// The recorded history cannot take the story where it was asked to go.
    #[error("{0}")]
    History(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

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

impl Store {
    /// Opens (creating if `create`) and migrates to the latest schema.
    pub fn open(path: &Path, create: bool) -> StoreResult<Store> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let mut conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        configure(&conn).map_err(open_err)?;
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
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

fn schema_version(conn: &Connection) -> Result<usize, rusqlite_migration::Error> {
    Ok(match migrations().current_version(conn)? {
        SchemaVersion::NoneSet => 0,
        SchemaVersion::Inside(v) | SchemaVersion::Outside(v) => v.get(),
    })
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
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search\\_%' ESCAPE '\\' AND name NOT IN ('sqlite_sequence', 'tick_failures', 'changes', 'branches', 'story_head', 'scene_versions') ORDER BY name")?
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

/// Serializes a value for a JSON column.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt {
        id: "-".into(),
        message: e.to_string(),
    })
}

/// Parses a JSON column, naming the record if it is damaged.
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(id: &str, text: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
