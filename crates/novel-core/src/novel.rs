//! A novel is a self-contained directory (seed 004 §4): `novel.toml`, `novel.db`, and the
//! human-readable `scenes/`, `plans/`, `errors/` and `exports/`. This module creates one from
//! a seed, opens one (checking it really is a novel, its config is valid and its schema is not
//! newer than this program), and holds the writer's lock while a process may write.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::clock::{Clock, timestamp};
use crate::config::{CONFIG_FILE, ConfigError, Foundation, GenerationSettings, NovelConfig};
use crate::lock::{LockError, NovelLock};
use crate::memory::NewLore;
use crate::memory::{self, MemoryError, NewCharacter, NewLocation, NewLoop};
use crate::model::{Importance, StoryState};
use crate::retrieval::{ReindexReport, Retrieval, RetrievalError};
use crate::store::{self, DB_FILE, Store, StoreError};

pub const SCENES_DIR: &str = "scenes";
pub const PLANS_DIR: &str = "plans";
pub const ERRORS_DIR: &str = "errors";
pub const EXPORTS_DIR: &str = "exports";

/// Everything needed to start a novel: the foundation, one protagonist, one starting
/// location and a directional goal (seed 004 §1).
#[derive(Debug, Clone, PartialEq)]
pub struct NovelSeed {
    pub foundation: Foundation,
    pub generation: GenerationSettings,
    pub protagonist: NewCharacter,
    pub location: NewLocation,
    pub goal: String,
    /// World facts known from the start (seed 003's world info): always-on entries and
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
    pub fn create(dir: &Path, seed: NovelSeed, clock: &dyn Clock) -> Result<Novel, NovelError> {
        validate_seed(&seed)?;
        let existed = dir.exists();
        if existed
            && std::fs::read_dir(dir)
                .map_err(io_err(dir))?
                .next()
                .is_some()
        {
            return Err(NovelError::NotEmpty {
                path: dir.to_path_buf(),
            });
        }
        let result = Self::create_in(dir, seed, clock);
        if result.is_err() {
            // Leave no half-made novel behind: remove what this call created.
            if existed {
                for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                    let p = entry.path();
                    let _ = if p.is_dir() {
                        std::fs::remove_dir_all(&p)
                    } else {
                        std::fs::remove_file(&p)
                    };
                }
            } else {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
        result
    }

    fn create_in(dir: &Path, seed: NovelSeed, clock: &dyn Clock) -> Result<Novel, NovelError> {
        for sub in [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR] {
            std::fs::create_dir_all(dir.join(sub)).map_err(io_err(dir))?;
        }
        let lock = NovelLock::acquire(dir)?;
        let config = NovelConfig {
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
        })
    }

    /// Opens an existing novel; `Access::Write` takes the writer's lock.
    pub fn open(dir: &Path, access: Access) -> Result<Novel, NovelError> {
        if !dir.exists() {
            return Err(NovelError::Missing {
                path: dir.to_path_buf(),
            });
        }
        let config_path = dir.join(CONFIG_FILE);
        let db_path = dir.join(DB_FILE);
        if !config_path.is_file() || !db_path.is_file() {
            return Err(NovelError::NotANovel {
                path: dir.to_path_buf(),
            });
        }
        let config = NovelConfig::load(&config_path)?;
        let lock = match access {
            Access::Write => Some(NovelLock::acquire(dir)?),
            Access::Read => None,
        };
        let mut store = Store::open(&db_path, false)?;
        for sub in [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR] {
            if access == Access::Write {
                std::fs::create_dir_all(dir.join(sub)).map_err(io_err(dir))?;
            }
        }
        if access == Access::Write {
            let tx = store.transaction()?;
            if crate::branches::finish_interrupted(&tx).map_err(NovelError::Branch)? {
                tx.commit().map_err(StoreError::from)?;
                tracing::warn!("a regeneration was interrupted; the scene it replaced is back");
            }
        }
        Ok(Novel {
            root: dir.to_path_buf(),
            config,
            store,
            lock,
            retrieval: default_retrieval(),
        })
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

fn validate_seed(seed: &NovelSeed) -> Result<(), NovelError> {
    let config = NovelConfig {
        novel: seed.foundation.clone(),
        generation: seed.generation.clone(),
    };
    config.validate().map_err(NovelError::Seed)?;
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
