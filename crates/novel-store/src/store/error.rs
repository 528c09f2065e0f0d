//! What can go wrong with a novel's database, in words that say what to do: a file that is
//! not a healthy novel database, one written by a newer or older program, a read-only folder,
//! a full disk, a damaged record.

use std::path::PathBuf;

use rusqlite::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("cannot read {path}: {cause}")]
    Io {
        path: PathBuf,
        /// Named so it is not chained again after the message, which already says it.
        cause: std::io::Error,
    },
    /// The file is not a healthy novel database; nothing was written to it.
    #[error("{path} is damaged: {problem}")]
    Damaged { path: PathBuf, problem: String },
    #[error(
        "{path} was written by a newer version of Novel Agent (schema version {found}, this program knows up to {supported}); update Novel Agent to open it"
    )]
    NewerSchema {
        path: PathBuf,
        found: usize,
        supported: usize,
    },
    #[error(
        "{path} was written by an older version of Novel Agent (schema version {found}, this program uses {supported}) and can only be upgraded by a program that may write to it; open the novel for writing once (for example `novel backup`, or open it in the app) to upgrade it"
    )]
    OlderSchema {
        path: PathBuf,
        found: usize,
        supported: usize,
    },
    #[error(
        "{path} cannot be written: the file or its folder is read-only. Make both writable by you (for example `chmod u+w`) and try again"
    )]
    ReadOnly { path: PathBuf },
    #[error("{path}: cannot upgrade the database: {message}")]
    Migration { path: PathBuf, message: String },
    #[error("database error: {}", describe_sqlite(.0))]
    Sqlite(#[from] rusqlite::Error),
    #[error("corrupt record {id}: {message}")]
    Corrupt { id: String, message: String },
    #[error("{0} not found")]
    NotFound(String),
    /// The recorded history cannot take the story where it was asked to go.
    #[error("{0}")]
    History(String),
}

/// SQLite's own words, plus what to do where the cause is the machine rather than the program.
pub fn describe_sqlite(e: &rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => format!(
            "{e}: the disk is full. Free some space and try again; what was being saved was not committed"
        ),
        Some(ErrorCode::ReadOnly) => format!(
            "{e}: the novel's folder or novel.db cannot be written. Check their permissions (the folder and novel.db must be writable by you)"
        ),
        _ => e.to_string(),
    }
}

pub type StoreResult<T> = Result<T, StoreError>;
