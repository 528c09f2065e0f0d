//! What the app holds between commands: the config directory, the native dialogs, and the
//! open novel with its review desk (where review mode's answers go). The novel's
//! write handle sits behind an async mutex that a run holds for its whole length, so a second
//! run or an edit during a run is refused (not queued); views read through their own read-only
//! connections (SQLite WAL), so the UI stays live while a scene is written.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use novel_core::run::RunControl;
use novel_core::views::Retrieval;
use novel_core::{Access, Novel};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use crate::dialogs::Dialogs;
use crate::error::{AppError, AppResult};
use crate::review::ReviewDesk;

/// The user's config directory: `$NOVEL_AGENT_CONFIG_DIR` or the XDG one (shared with the CLI,
/// so both see the same provider profiles), else the app's own.
pub fn config_dir(fallback: Option<PathBuf>) -> PathBuf {
    novel_llm::config_dir()
        .ok()
        .or(fallback)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub struct AppState {
    pub config_dir: PathBuf,
    dialogs: Arc<dyn Dialogs>,
    session: Mutex<Option<Arc<Session>>>,
}

/// One open novel.
pub struct Session {
    pub path: PathBuf,
    /// Why search is keyword-only (no local embedding model), said once per open novel.
    pub search_notice: Option<String>,
    writer: Arc<AsyncMutex<Novel>>,
    run: Mutex<Option<RunControl>>,
    /// Where the writer's review answers meet the tick waiting for them.
    pub review: Arc<ReviewDesk>,
}

impl AppState {
    pub fn new(config_dir: PathBuf, dialogs: Arc<dyn Dialogs>) -> AppState {
        AppState {
            config_dir,
            dialogs,
            session: Mutex::new(None),
        }
    }

    /// The dialogs the shell opens itself (export destination, program confirmation).
    pub fn dialogs(&self) -> Arc<dyn Dialogs> {
        self.dialogs.clone()
    }

    pub fn session(&self) -> AppResult<Arc<Session>> {
        lock(&self.session).clone().ok_or_else(AppError::no_novel)
    }

    pub fn current(&self) -> Option<Arc<Session>> {
        lock(&self.session).clone()
    }

    /// Makes `novel` the open one; refused while the current one is busy writing.
    pub fn replace(&self, novel: Option<Novel>) -> AppResult<()> {
        let mut slot = lock(&self.session);
        if let Some(current) = slot.as_ref()
            && current.writer.try_lock().is_err()
        {
            return Err(AppError::busy());
        }
        *slot = novel.map(|mut novel| {
            // Semantic memory when the local model is installed; keyword search otherwise.
            novel.set_retrieval(Retrieval::local());
            Arc::new(Session {
                search_notice: novel.retrieval().notice(),
                path: novel.root().to_path_buf(),
                writer: Arc::new(AsyncMutex::new(novel)),
                run: Mutex::new(None),
                review: Arc::new(ReviewDesk::default()),
            })
        });
        Ok(())
    }
}

impl Session {
    /// A fresh read-only handle for a view.
    pub fn read(&self) -> AppResult<Novel> {
        Ok(Novel::open(&self.path, Access::Read)?)
    }

    /// The write handle, or `Busy` while a run holds it.
    pub fn write(&self) -> AppResult<OwnedMutexGuard<Novel>> {
        self.writer
            .clone()
            .try_lock_owned()
            .map_err(|_| AppError::busy())
    }

    pub fn set_run(&self, control: Option<RunControl>) {
        *lock(&self.run) = control;
    }

    pub fn run_control(&self) -> Option<RunControl> {
        lock(&self.run).clone()
    }

    pub fn path_string(&self) -> String {
        display(&self.path)
    }
}

pub fn display(path: &Path) -> String {
    path.display().to_string()
}

/// A poisoned lock only means another command panicked mid-update of plain data; the data is
/// still usable, and refusing every later command would be worse.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
