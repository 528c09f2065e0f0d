//! The writer's lock on a novel: an exclusive OS file lock on `novel.lock`, held for as long as
//! a process may write. A second writer gets a clear "open elsewhere" error instead of two
//! processes interleaving ticks; the OS drops the lock if the holder dies.
//!
//! The lock file is opened without following a symbolic link (`O_NOFOLLOW`) and must be a
//! regular file: a novel folder from someone else holding `novel.lock -> ~/.bashrc` would
//! otherwise have that file truncated and overwritten with our process id.

use crate::layout::LOCK_FILE;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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
    #[error(
        "{path} is {what}, not a regular file, so the novel cannot be locked through it (a \
         folder from someone else may hold it to make Novel Agent overwrite another file). \
         Remove {path} (it only marks that the novel is open) and try again"
    )]
    NotAFile { path: PathBuf, what: &'static str },
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
        let mut file = open_no_follow(&path)?;
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

/// Opens (creating if need be) the lock file at `path` for reading and writing, refusing a
/// symbolic link, a folder or a special file in its place.
fn open_no_follow(path: &Path) -> Result<File, LockError> {
    let not_a_file = |what| LockError::NotAFile {
        path: path.to_path_buf(),
        what,
    };
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .mode(crate::fsutil::PRIVATE_FILE_MODE);
    }
    // Where the flag does not exist, a link is caught before the open (a small race, but
    // only there).
    #[cfg(not(unix))]
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(not_a_file("a symbolic link"));
    }
    let file = options.open(path).map_err(|source| {
        match std::fs::symlink_metadata(path).map(|m| m.file_type()) {
            Ok(kind) if kind.is_symlink() => not_a_file("a symbolic link"),
            Ok(kind) if kind.is_dir() => not_a_file("a folder"),
            _ => LockError::Io {
                path: path.to_path_buf(),
                source,
            },
        }
    })?;
    let kind = file
        .metadata()
        .map_err(|source| LockError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .file_type();
    if !kind.is_file() {
        return Err(not_a_file(if kind.is_dir() {
            "a folder"
        } else {
            "a special file (a device, pipe or socket)"
        }));
    }
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_symlinked_lock_is_refused_and_its_target_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("bashrc");
        std::fs::write(&target, "export PATH=$HOME/bin:$PATH\n").unwrap();
        let novel = dir.path().join("novel");
        std::fs::create_dir(&novel).unwrap();
        std::os::unix::fs::symlink(&target, novel.join(LOCK_FILE)).unwrap();

        let err = NovelLock::acquire(&novel).unwrap_err();
        assert!(matches!(err, LockError::NotAFile { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains("symbolic link") && text.contains("Remove"),
            "{text}"
        );
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "export PATH=$HOME/bin:$PATH\n"
        );

        // A link to a file that does not exist yet is not followed to create it either.
        let missing = dir.path().join("created-elsewhere");
        std::fs::remove_file(novel.join(LOCK_FILE)).unwrap();
        std::os::unix::fs::symlink(&missing, novel.join(LOCK_FILE)).unwrap();
        assert!(NovelLock::acquire(&novel).is_err());
        assert!(!missing.exists());
    }

    #[test]
    fn a_folder_or_a_pipe_in_its_place_is_refused_and_a_plain_file_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(LOCK_FILE)).unwrap();
        let err = NovelLock::acquire(dir.path()).unwrap_err();
        assert!(err.to_string().contains("a folder"), "{err}");

        let other = tempfile::tempdir().unwrap();
        let fifo =
            std::ffi::CString::new(other.path().join(LOCK_FILE).to_str().unwrap().as_bytes())
                .unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let err = NovelLock::acquire(other.path()).unwrap_err();
        assert!(err.to_string().contains("special file"), "{err}");

        let fine = tempfile::tempdir().unwrap();
        let lock = NovelLock::acquire(fine.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(lock.path()).unwrap(),
            std::process::id().to_string()
        );
    }
}
