//! A novel's backups as the front ends see them: taking one, listing and verifying them
//! (`backup`, below the novel), and restoring one: the backup put in place of the database
//! (`backup::put_back`), then the novel opened on it, which brings `scenes/` and `plans/` in
//! line with what was restored. Above both `backup` and `novel`, so neither needs the other.

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use crate::backup::{BackupError, BackupInfo, RestoreFrom, list, take, verify};
pub use crate::store::Check;

use crate::backup;
use crate::clock::Clock;
use crate::novel::{Novel, NovelError};
use crate::reconcile::ReconcileReport;

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RestoreReport {
    pub restored_from: PathBuf,
    /// The story's tick after the restore.
    pub tick: u32,
    /// Where the database that was replaced now is (with its `-wal`, if it had one).
    pub previous: Option<PathBuf>,
    /// How `scenes/` and `plans/` were brought in line with the restored database.
    pub files: ReconcileReport,
}

#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(transparent)]
    Backup(#[from] BackupError),
    #[error(transparent)]
    Novel(#[from] Box<NovelError>),
}

/// Replaces the novel's database at `root` with a verified backup and rewrites its files.
/// Works when the current `novel.db` is damaged, empty or missing; it is never deleted.
pub fn restore(
    root: &Path,
    from: RestoreFrom,
    clock: &dyn Clock,
) -> Result<(Novel, RestoreReport), RestoreError> {
    let put = backup::put_back(root, from, clock)?;
    let novel = Novel::open_locked(root, put.lock).map_err(Box::new)?;
    let files = novel.last_reconcile().clone();
    let tick = novel.state().map_err(Box::new)?.current_tick;
    Ok((
        novel,
        RestoreReport {
            restored_from: put.restored_from,
            tick,
            previous: put.previous,
            files,
        },
    ))
}
