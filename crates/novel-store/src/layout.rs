//! The names inside a novel's directory, in one place at the bottom of the engine: the
//! store, the settings, the lock, the readable files and the backups all find each other
//! through these, so none of them needs to know the module that creates the directory.

/// The novel's settings (foundation in older novels, generation, models): never secrets.
pub const CONFIG_FILE: &str = "novel.toml";
/// Held by the one process that may write.
pub const LOCK_FILE: &str = "novel.lock";
/// The database: the source of truth.
pub const DB_FILE: &str = "novel.db";
/// Each committed scene as Markdown, the database's readable mirror.
pub const SCENES_DIR: &str = "scenes";
/// Each tick's plan as JSON.
pub const PLANS_DIR: &str = "plans";
/// What a failed tick left: `error_NNN.json` and `.log`.
pub const ERRORS_DIR: &str = "errors";
/// Manuscript exports.
pub const EXPORTS_DIR: &str = "exports";
/// Online backups of the database.
pub const BACKUPS_DIR: &str = "backups";
/// Inside `scenes/` and `plans/`: files the database does not back, moved aside.
pub const ORPHANED_DIR: &str = ".orphaned";
