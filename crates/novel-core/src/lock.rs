//! The writer's lock on a novel: an exclusive OS file lock on `novel.lock`, held for as long as
//! a process may write. A second writer gets a clear "open elsewhere" error instead of two
//! processes interleaving ticks; the OS drops the lock if the holder dies.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const LOCK_FILE: &str = "novel.lock";

#[derive(Debug)]
pub struct NovelLock {
    _file: File,
    path: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "the novel at {dir} is open elsewhere ({holder}); close the other Novel Agent window or wait for the running command to finish"
    )]
    Held { dir: PathBuf, holder: String },
    #[error("cannot lock {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl NovelLock {
    pub fn acquire(dir: &Path) -> Result<NovelLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = match holder.trim() {
                    "" => "another process".to_string(),
                    pid => format!("process {pid}"),
                };
                return Err(LockError::Held {
                    dir: dir.to_path_buf(),
                    holder,
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        // Only the holder writes its pid, so the message above can say who holds it.
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        write!(file, "{}", std::process::id()).map_err(io)?;
        Ok(NovelLock { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
