//! A novel is a self-contained directory: `novel.toml`, `novel.db`, the
//! human-readable `scenes/`, `plans/`, `errors/` and `exports/`, and `backups/`. This module
//! creates one from a seed and opens one, and holds the writer's lock while a process may write.
//!
//! Opening checks, in order, with a message that says what to do at each step: that the folder
//! is a novel (a missing `novel.toml` or `novel.db` is named, with the newest backup), that its
//! config is valid, that the folder can be written (for writing), and that the database is
//! healthy (`PRAGMA quick_check` for writing; a damaged one is refused and never written to).
//! Opening for writing then upgrades an older schema (after a backup) and brings `scenes/` and
//! `plans/` in line with the database ([`crate::reconcile`]). Opening for reading changes
//! nothing: an older schema is upgraded only if the writer's lock can be taken for it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::backup;
use crate::clock::{Clock, SystemClock, timestamp};
use crate::config::{ConfigError, Foundation, GenerationSettings, NovelConfig};
use crate::layout::{
    BACKUPS_DIR, CONFIG_FILE, DB_FILE, ERRORS_DIR, EXPORTS_DIR, LOCK_FILE, ORPHANED_DIR, PLANS_DIR,
    SCENES_DIR,
};
use crate::lock::{LockError, NovelLock};
use crate::memory::NewLore;
use crate::memory::{self, MemoryError, NewCharacter, NewLocation, NewLoop};
use crate::model::{Importance, StoryState};
use crate::reconcile::{self, ReconcileError, ReconcileReport};
use crate::retrieval::{ReindexReport, Retrieval, RetrievalError};
use crate::store::{self, Store, StoreError};

/// Everything needed to start a novel: the foundation, one protagonist, one starting
/// location and a directional goal.
#[derive(Debug, Clone, PartialEq)]
pub struct NovelSeed {
    pub foundation: Foundation,
    pub generation: GenerationSettings,
    pub protagonist: NewCharacter,
    pub location: NewLocation,
    pub goal: String,
    /// World facts known from the start (world info): always-on entries and
    /// keyword-triggered ones.
    pub lore: Vec<NewLore>,
}

/// Whether the opener intends to write (and so needs the lock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

#[derive(Debug, thiserror::Error)]
pub enum NovelError {
    #[error("{path} does not exist")]
    Missing { path: PathBuf },
    #[error(
        "{path} is not a novel: it has no {CONFIG_FILE}. Create one with `novel new <dir>` or open the folder that contains {CONFIG_FILE}"
    )]
    NotANovel { path: PathBuf },
    #[error("{path} already exists and is not empty; choose a new folder for the novel")]
    NotEmpty { path: PathBuf },
    #[error(
        "{dir} has novel.db but its {CONFIG_FILE} is missing. The story is safe in novel.db; put {CONFIG_FILE} back from a copy, or write a new one with at least:\n[novel]\ntitle = \"Your title\"\n(see `novel new --help` for the other [novel] keys)"
    )]
    ConfigMissing { dir: PathBuf },
    #[error("{}", missing_db_message(.dir, .backup.as_deref()))]
    DatabaseMissing {
        dir: PathBuf,
        backup: Option<PathBuf>,
    },
    #[error("{}", damaged_message(.path, .problem, .backup.as_deref()))]
    Damaged {
        path: PathBuf,
        problem: String,
        backup: Option<PathBuf>,
    },
    #[error(
        "cannot write to {path}: {cause}. A novel's folder must be writable to write scenes: make it writable by you (for example `chmod -R u+w` on the folder) or copy the novel somewhere writable. Reading commands (status, list, inspect, export --output elsewhere) still work"
    )]
    NotWritable {
        path: PathBuf,
        /// Named so it is not chained again after the message, which already says it.
        cause: std::io::Error,
    },
    #[error(
        "{path} is a symbolic link, not a folder. Novel Agent writes only into the novel's own \
         folders, never through a link (a novel folder from someone else may hold one to make \
         it write elsewhere): move the link out of the novel folder and open the novel again, \
         and a real folder is made in its place"
    )]
    LinkedFolder { path: PathBuf },
    #[error(transparent)]
    Files(#[from] ReconcileError),
    #[error("{path} was opened read-only; this change needs it opened for writing")]
    ReadOnly { path: PathBuf },
    #[error("the seed is incomplete: {0}")]
    Seed(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Memory(#[from] MemoryError),
    #[error(transparent)]
    Retrieval(#[from] RetrievalError),
    #[error(transparent)]
    Branch(crate::branches::BranchError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn missing_db_message(dir: &Path, backup: Option<&Path>) -> String {
    let db = dir.join(DB_FILE);
    match backup {
        Some(b) => format!(
            "{} is missing (the story lives in it). Restore the newest backup with `novel restore --latest` ({})",
            db.display(),
            b.display()
        ),
        None => format!(
            "{} is missing (the story lives in it) and {} holds no backup of it. Put novel.db back from a copy of the folder",
            db.display(),
            dir.join(BACKUPS_DIR).display()
        ),
    }
}

fn damaged_message(path: &Path, problem: &str, backup: Option<&Path>) -> String {
    let head = format!(
        "{} is damaged: {problem}. Nothing more will be written to it",
        path.display()
    );
    match backup {
        Some(b) => format!(
            "{head}. Restore the newest good backup with `novel restore --latest` ({}); the restore keeps the damaged file as novel.db.before-restore-<time>",
            b.display()
        ),
        None => format!(
            "{head}, and there is no good backup in backups/. Copy the novel's folder somewhere safe before trying anything, then see whether SQLite can salvage it (`sqlite3 novel.db .recover`)"
        ),
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> NovelError + '_ {
    move |source| NovelError::Io {
        path: path.to_path_buf(),
        source,
    }
}

pub struct Novel {
    root: PathBuf,
    config: NovelConfig,
    store: Store,
    lock: Option<NovelLock>,
    retrieval: Arc<Retrieval>,
    reconciled: ReconcileReport,
}

/// Until a front attaches an embedder ([`Novel::set_retrieval`]), search uses keywords: the
/// engine never loads a model on its own, so tests and tools stay deterministic.
fn default_retrieval() -> Arc<Retrieval> {
    Arc::new(Retrieval::keyword_only(
        "this program did not set up an embedding model",
    ))
}

impl std::fmt::Debug for Novel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Novel")
            .field("root", &self.root)
            .field("locked", &self.lock.is_some())
            .finish()
    }
}

impl Novel {
    /// Creates a new novel in `dir` (which must not exist or be empty) from `seed`.
    ///
    /// The writer's lock is taken before anything but the folder itself is made, and the folder
    /// is checked for emptiness again under it: of two processes creating the same novel, the
    /// one that loses gets an error and touches nothing the other made.
    pub fn create(dir: &Path, seed: NovelSeed, clock: &dyn Clock) -> Result<Novel, NovelError> {
        validate_seed(&seed)?;
        let existed = dir.exists();
        if existed && !is_empty_but_lock(dir)? {
            return Err(NovelError::NotEmpty {
                path: dir.to_path_buf(),
            });
        }
        if !existed {
            // The novel's own folder is private; folders above it are the writer's business.
            if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(io_err(parent))?;
            }
            match crate::fsutil::create_private_dir(dir) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(io_err(dir)(e));
                }
                _ => {}
            }
        }
        let lock = NovelLock::acquire(dir)?;
        if !is_empty_but_lock(dir)? {
            return Err(NovelError::NotEmpty {
                path: dir.to_path_buf(),
            });
        }
        let result = Self::create_in(dir, seed, clock, lock);
        if result.is_err() {
            // Leave no half-made novel behind. The lock was held from the moment the folder was
            // seen empty, so everything in it is this call's.
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = entry.path();
                let _ = if p.is_dir() {
                    std::fs::remove_dir_all(&p)
                } else {
                    std::fs::remove_file(&p)
                };
            }
            if !existed {
                let _ = std::fs::remove_dir(dir);
            }
        }
        result
    }

    fn create_in(
        dir: &Path,
        seed: NovelSeed,
        clock: &dyn Clock,
        lock: NovelLock,
    ) -> Result<Novel, NovelError> {
        for sub in [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR] {
            let path = dir.join(sub);
            crate::fsutil::ensure_dir(&path).map_err(|source| NovelError::Io { path, source })?;
        }
        let config = NovelConfig {
            models: Default::default(),
            budget: Default::default(),
            novel: seed.foundation,
            generation: seed.generation,
        };
        config.save(&dir.join(CONFIG_FILE))?;
        let mut store = Store::open(&dir.join(DB_FILE), true)?;
        {
            let now = timestamp(clock.now());
            let tx = store.transaction()?;
            store::init_head(&tx)?;
            // The seed is the first change of the story's recorded history.
            let mut recorder = store::Recorder::start(&tx)?;
            store::init_state(&tx, &now)?;
            store::put_foundation(&tx, &config.novel)?;
            let location = memory::create_location(&tx, seed.location, 0, "seed")?;
            let mut protagonist = seed.protagonist;
            protagonist.location = Some(location.id.clone());
            let protagonist = memory::create_character(&tx, protagonist, 0, "seed")?;
            memory::open_loop(
                &tx,
                NewLoop {
                    description: seed.goal.trim().to_string(),
                    category: "goal".into(),
                    importance: Importance::Critical,
                },
                0,
                "seed",
            )?;
            for lore in seed.lore {
                memory::add_lore(&tx, lore, 0, None, "seed")?;
            }
            store::save_state(
                &tx,
                &StoryState {
                    current_tick: 0,
                    active_character: Some(protagonist.id),
                    created_at: now.clone(),
                    updated_at: now.clone(),
                },
            )?;
            let changeset = recorder.changeset()?;
            drop(recorder);
            store::append_change(
                &tx,
                store::ChangeKind::Seed,
                0,
                "the seed",
                &changeset,
                &now,
            )?;
            tx.commit().map_err(StoreError::from)?;
        }
        Ok(Novel {
            root: dir.to_path_buf(),
            config,
            store,
            lock: Some(lock),
            retrieval: default_retrieval(),
            reconciled: ReconcileReport::default(),
        })
    }

    /// Opens an existing novel; `Access::Write` takes the writer's lock.
    pub fn open(dir: &Path, access: Access) -> Result<Novel, NovelError> {
        let config = Self::check_folder(dir)?;
        match access {
            Access::Write => {
                refuse_linked_folders(dir)?;
                check_writable(dir, &|p| probe_write(p))?;
                let lock = NovelLock::acquire(dir)?;
                Self::open_writer(dir, config, lock)
            }
            Access::Read => Self::open_reader(dir, config),
        }
    }

    /// Opens for writing with the lock this process already holds (a restore keeps it from
    /// putting the database in place until the files agree with it).
    pub(crate) fn open_locked(dir: &Path, lock: NovelLock) -> Result<Novel, NovelError> {
        let config = Self::check_folder(dir)?;
        refuse_linked_folders(dir)?;
        Self::open_writer(dir, config, lock)
    }

    /// That `dir` is a novel with a valid config: its config.
    fn check_folder(dir: &Path) -> Result<NovelConfig, NovelError> {
        if !dir.exists() {
            return Err(NovelError::Missing {
                path: dir.to_path_buf(),
            });
        }
        let config_path = dir.join(CONFIG_FILE);
        let db_path = dir.join(DB_FILE);
        match (config_path.is_file(), db_path.is_file()) {
            (true, true) => {}
            (false, true) => {
                return Err(NovelError::ConfigMissing {
                    dir: dir.to_path_buf(),
                });
            }
            (true, false) => {
                return Err(NovelError::DatabaseMissing {
                    dir: dir.to_path_buf(),
                    backup: backup::newest_good(dir).map(|b| b.path),
                });
            }
            (false, false) => {
                return Err(NovelError::NotANovel {
                    path: dir.to_path_buf(),
                });
            }
        }
        Ok(NovelConfig::load(&config_path)?)
    }

    fn open_writer(dir: &Path, config: NovelConfig, lock: NovelLock) -> Result<Novel, NovelError> {
        let mut store = open_store_for_writing(dir)?;
        for sub in [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR] {
            let path = dir.join(sub);
            crate::fsutil::ensure_dir(&path).map_err(|source| NovelError::Io { path, source })?;
        }
        // A regeneration interrupted between undoing its scene and writing the new one: the
        // old scene comes back (the file step below brings the folder in line).
        let tx = store.transaction()?;
        let moved = crate::branches::finish_interrupted(&tx).map_err(NovelError::Branch)?;
        if moved {
            tx.commit().map_err(StoreError::from)?;
            tracing::warn!("a regeneration was interrupted; the scene it replaced is back");
        } else {
            drop(tx);
        }
        let config = sync_foundation(dir, &mut store, config, moved)?;
        let reconciled = reconcile::reconcile(dir, store.conn())?;
        for line in reconciled.lines() {
            tracing::warn!("{}: {line}", dir.display());
        }
        Ok(Novel {
            root: dir.to_path_buf(),
            config,
            store,
            lock: Some(lock),
            retrieval: default_retrieval(),
            reconciled,
        })
    }

    fn open_reader(dir: &Path, config: NovelConfig) -> Result<Novel, NovelError> {
        let db_path = dir.join(DB_FILE);
        let store = match Store::open_read_only(&db_path) {
            // Upgrading is a write: only with the writer's lock, and only if it is free. If it is
            // held, say so rather than wait.
            Err(older @ StoreError::OlderSchema { .. }) => {
                let Ok(lock) = NovelLock::acquire(dir) else {
                    return Err(older.into());
                };
                drop(open_store_for_writing(dir)?);
                drop(lock);
                Store::open_read_only(&db_path)
            }
            other => other,
        }
        .map_err(|e| damaged_or(dir, e))?;
        Ok(Novel {
            root: dir.to_path_buf(),
            config,
            store,
            lock: None,
            retrieval: default_retrieval(),
            reconciled: ReconcileReport::default(),
        })
    }

    /// How `scenes/` and `plans/` were brought in line with the database when this handle was
    /// opened for writing (empty for a read-only handle, or when nothing was out of line).
    pub fn last_reconcile(&self) -> &ReconcileReport {
        &self.reconciled
    }

    /// Brings `scenes/` and `plans/` in line with the database now (opening for writing does
    /// this already).
    pub fn reconcile_files(&mut self) -> Result<ReconcileReport, NovelError> {
        if self.lock.is_none() {
            return Err(NovelError::ReadOnly {
                path: self.root.clone(),
            });
        }
        let report = reconcile::reconcile(&self.root, self.store.conn())?;
        self.reconciled = report.clone();
        Ok(report)
    }

    /// Rewrites `novel.toml`'s foundation from the database after the story moved through its
    /// history (the database's foundation is part of every recorded state).
    pub fn write_foundation_file(&mut self) -> Result<bool, NovelError> {
        let Some(recorded) = store::get_foundation(self.store.conn())? else {
            return Ok(false);
        };
        if recorded == self.config.novel {
            return Ok(false);
        }
        let config = NovelConfig {
            novel: recorded,
            ..self.config.clone()
        };
        config.save(&self.root.join(CONFIG_FILE))?;
        self.config = config;
        Ok(true)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &NovelConfig {
        &self.config
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Writing needs the lock; a read-only handle cannot hand out its store mutably.
    pub fn store_mut(&mut self) -> Option<&mut Store> {
        self.lock.as_ref().map(|_| &mut self.store)
    }

    pub fn is_writable(&self) -> bool {
        self.lock.is_some()
    }

    pub fn dir(&self, sub: &str) -> PathBuf {
        self.root.join(sub)
    }

    /// The novel's retrieval: keyword search, plus semantic search once an embedder is set.
    pub fn retrieval(&self) -> Arc<Retrieval> {
        self.retrieval.clone()
    }

    /// Sets how the novel's memory is searched (e.g. `Retrieval::local()` for the machine's
    /// model).
    pub fn set_retrieval(&mut self, retrieval: Retrieval) {
        self.retrieval = Arc::new(retrieval);
    }

    /// Rebuilds all derived data — passages and their keyword index, chapter and arc
    /// summaries, and (with an embedder) every vector — from the source tables, in one
    /// transaction. Embedding runs on tokio's blocking pool: call it inside a tokio runtime.
    pub async fn reindex(&mut self) -> Result<ReindexReport, NovelError> {
        if self.lock.is_none() {
            return Err(NovelError::ReadOnly {
                path: self.root.clone(),
            });
        }
        let retrieval = self.retrieval.clone();
        let tx = self.store.transaction()?;
        let report = retrieval.rebuild(&tx).await?;
        tx.commit().map_err(StoreError::from)?;
        Ok(report)
    }

    /// Re-reads `novel.toml` after it was changed on disk.
    pub fn reload_config(&mut self) -> Result<(), NovelError> {
        self.config = NovelConfig::load(&self.root.join(CONFIG_FILE))?;
        Ok(())
    }

    pub fn state(&self) -> Result<StoryState, NovelError> {
        Ok(store::load_state(self.store.conn())?)
    }
}

/// Opens `novel.db` for writing; an older schema is backed up before it is upgraded.
fn open_store_for_writing(dir: &Path) -> Result<Store, NovelError> {
    let mut backup_first = |conn: &rusqlite::Connection, from: usize| {
        let reason = format!("before-upgrade-v{from}");
        backup::take(conn, dir, Some(&reason), &SystemClock)
            .map(drop)
            .map_err(|e| e.to_string())
    };
    Store::open_with(&dir.join(DB_FILE), false, &mut backup_first).map_err(|e| damaged_or(dir, e))
}

/// A damaged database becomes [`NovelError::Damaged`], naming the newest good backup.
fn damaged_or(dir: &Path, e: StoreError) -> NovelError {
    match e {
        StoreError::Damaged { path, problem } => NovelError::Damaged {
            path,
            problem,
            backup: backup::newest_good(dir).map(|b| b.path),
        },
        other => other.into(),
    }
}

/// Whether `dir` holds nothing, or nothing but the writer's lock file.
fn is_empty_but_lock(dir: &Path) -> Result<bool, NovelError> {
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        if entry.file_name() != LOCK_FILE {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Refuses a novel whose folders (`scenes/`, `plans/`, `errors/`, `exports/`, `backups/` and
/// the `.orphaned/` folders) include a symbolic link: every write into it would land wherever
/// it points. Checked before anything is written, the write probe included.
fn refuse_linked_folders(dir: &Path) -> Result<(), NovelError> {
    let folders = [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR, BACKUPS_DIR];
    let orphaned = [SCENES_DIR, PLANS_DIR].map(|sub| Path::new(sub).join(ORPHANED_DIR));
    for path in folders
        .iter()
        .map(|sub| dir.join(sub))
        .chain(orphaned.iter().map(|sub| dir.join(sub)))
    {
        if crate::fsutil::not_a_real_folder(&path) == Some("a symbolic link") {
            return Err(NovelError::LinkedFolder { path });
        }
    }
    Ok(())
}

/// Creates and removes a probe file in `dir`, and opens `novel.db` for writing without
/// changing it: the honest test of writability (permission bits say nothing for root, nor on
/// a read-only mount).
fn probe_write(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        let probe = path.join(format!(".novel-write-probe-{}", std::process::id()));
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)?;
        std::fs::remove_file(&probe)
    } else {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
    }
}

/// Refuses, with a message that says what to do, a novel whose folder (or `scenes/`, `plans/`,
/// `novel.db`) cannot be written. `probe` is the test; tests inject failures through it.
pub(crate) fn check_writable(
    dir: &Path,
    probe: &dyn Fn(&Path) -> std::io::Result<()>,
) -> Result<(), NovelError> {
    let targets = [
        dir.to_path_buf(),
        dir.join(SCENES_DIR),
        dir.join(PLANS_DIR),
        dir.join(DB_FILE),
    ];
    for path in targets {
        if path != dir && !path.exists() {
            continue; // made later, inside the folder just found writable
        }
        if let Err(cause) = probe(&path) {
            return Err(NovelError::NotWritable { path, cause });
        }
    }
    Ok(())
}

fn validate_seed(seed: &NovelSeed) -> Result<(), NovelError> {
    let config = NovelConfig {
        models: Default::default(),
        budget: Default::default(),
        novel: seed.foundation.clone(),
        generation: seed.generation.clone(),
    };
    config
        .validate()
        .map_err(|e| NovelError::Seed(e.to_string()))?;
    for (what, value) in [
        ("the protagonist's name", &seed.protagonist.name),
        ("the starting location's name", &seed.location.name),
        ("the goal", &seed.goal),
    ] {
        if value.trim().is_empty() {
            return Err(NovelError::Seed(format!("{what} must not be empty")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
#[cfg(all(test, unix))]
mod tests_links;
#[cfg(all(test, unix))]
mod tests_modes;

/// Keeps the foundation in `novel.toml` and in the database in step when a novel is opened for
/// writing. After a move through history the database's is the story's and is written to the
/// file; otherwise a file that differs was edited by hand, and its foundation is recorded as a
/// change (so the hand edit is part of the story's history and can be undone like any other).
fn sync_foundation(
    dir: &Path,
    store: &mut Store,
    config: NovelConfig,
    moved: bool,
) -> Result<NovelConfig, NovelError> {
    let recorded = store::get_foundation(store.conn())?;
    if recorded.as_ref() == Some(&config.novel) {
        return Ok(config);
    }
    if moved && let Some(recorded) = recorded {
        let config = NovelConfig {
            novel: recorded,
            ..config
        };
        config.save(&dir.join(CONFIG_FILE))?;
        return Ok(config);
    }
    let tick = store::load_state(store.conn())?.current_tick;
    let label = if recorded.is_some() {
        "the foundation as novel.toml now has it (edited by hand)"
    } else {
        "the foundation recorded"
    };
    let now = crate::clock::timestamp(crate::clock::SystemClock.now());
    store.recorded(
        store::ChangeKind::Edit,
        tick,
        label,
        &now,
        |tx| store::put_foundation(tx, &config.novel).map_err(NovelError::from),
        |_, _, _| Ok(()),
    )?;
    Ok(config)
}
