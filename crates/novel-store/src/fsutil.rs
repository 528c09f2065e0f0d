//! Small file-system helpers shared by everything that writes into a novel directory. A novel
//! folder may come from someone else (an archive, a shared drive), so nothing here writes
//! through a symbolic link: the folders written into must be real folders ([`ensure_dir`],
//! [`not_a_real_folder`]), and a temporary file is always a new file under a name no one could
//! have prepared ([`create_new_file`]); the rename that puts it in place replaces a link at the
//! destination instead of following it.
//!
//! A novel is private: folders made here are readable by their owner only (0700) and files
//! (written through a temporary file, so scenes, plans, error logs, `novel.toml`, exports)
//! are 0600, whatever the umask would allow.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The mode of folders a novel is made of (owner only).
pub const PRIVATE_DIR_MODE: u32 = 0o700;
/// The mode of files written into a novel (owner only).
pub const PRIVATE_FILE_MODE: u32 = 0o600;

/// Makes the folder `path` (its parent must exist), owner-only where modes exist.
pub fn create_private_dir(path: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(PRIVATE_DIR_MODE);
    }
    builder.create(path)
}

/// Why `path` cannot be a folder the novel writes into, in words ("a symbolic link"), or
/// `None` when it is a real folder or does not exist yet.
pub fn not_a_real_folder(path: &Path) -> Option<&'static str> {
    let kind = std::fs::symlink_metadata(path).ok()?.file_type();
    if kind.is_symlink() {
        Some("a symbolic link")
    } else if kind.is_dir() {
        None
    } else {
        Some("a file")
    }
}

/// The error for a folder of the novel that is not a real folder.
pub fn not_a_folder_error(what: &str) -> std::io::Error {
    std::io::Error::new(
        ErrorKind::InvalidInput,
        format!(
            "it is {what}, not a folder. Novel Agent writes only into the novel's own folders, \
             never through a link (a novel folder from someone else may hold one to make it \
             write elsewhere): move it out of the novel folder and try again, and a real \
             folder is made in its place"
        ),
    )
}

/// Makes `path` a folder if it is missing (its parents too), and refuses it when something
/// other than a real folder is there: a symbolic link to a folder elsewhere would send every
/// write there.
pub fn ensure_dir(path: &Path) -> std::io::Result<()> {
    if let Some(what) = not_a_real_folder(path) {
        return Err(not_a_folder_error(what));
    }
    if path.is_dir() {
        return Ok(());
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match create_private_dir(path) {
        Ok(()) => Ok(()),
        // Made by someone else meanwhile: fine if it is a real folder.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => match not_a_real_folder(path) {
            Some(what) => Err(not_a_folder_error(what)),
            None => Ok(()),
        },
        Err(e) => Err(e),
    }
}

/// Creates a new owner-only file at `path`, failing if anything (a file, a link, even a
/// dangling one) is there already: `O_CREAT | O_EXCL`, plus `O_NOFOLLOW` where it exists.
pub fn create_new_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .custom_flags(libc::O_NOFOLLOW)
            .mode(PRIVATE_FILE_MODE);
    }
    options.open(path)
}

/// A fresh temporary sibling of `path` (`.NAME.tmp-PID-N`, the pattern reconciliation clears
/// after a kill), created new; a name already taken is skipped.
fn create_temp_sibling(path: &Path) -> std::io::Result<(PathBuf, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for _ in 0..16 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.tmp-{}-{nanos:x}{n:x}", std::process::id()));
        match create_new_file(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Writes `bytes` to a temporary sibling and renames it over `path`, so a crash never leaves a
/// half-written file where a whole one used to be; flushed before the rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, true)
}

/// [`write_atomic`], flushing the file first when `sync` (a mirror the database can write
/// again need not be).
pub fn write_atomic_with(path: &Path, bytes: &[u8], sync: bool) -> std::io::Result<()> {
    let (tmp, mut file) = create_temp_sibling(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| if sync { file.sync_all() } else { Ok(()) });
    drop(file);
    written
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_linked_folder_is_refused_and_nothing_is_written_through_it() {
        let outside = tempfile::tempdir().unwrap();
        let novel = tempfile::tempdir().unwrap();
        let scenes = novel.path().join("scenes");
        std::os::unix::fs::symlink(outside.path(), &scenes).unwrap();
        let err = ensure_dir(&scenes).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);

        std::fs::remove_file(&scenes).unwrap();
        std::fs::write(&scenes, "not a folder").unwrap();
        assert!(
            ensure_dir(&scenes)
                .unwrap_err()
                .to_string()
                .contains("a file")
        );

        let fresh = novel.path().join("plans").join(".orphaned");
        ensure_dir(&fresh).unwrap();
        assert!(fresh.is_dir());
        ensure_dir(&fresh).unwrap();
    }

    #[test]
    fn folders_and_files_made_here_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let errors = dir.path().join("errors");
        ensure_dir(&errors).unwrap();
        assert_eq!(mode(&errors), 0o700);
        let log = errors.join("error_001.log");
        write_atomic(&log, b"what failed").unwrap();
        assert_eq!(mode(&log), 0o600);
        write_atomic_with(&log, b"again", false).unwrap();
        assert_eq!(mode(&log), 0o600);
    }

    #[test]
    fn temporary_files_never_follow_a_prepared_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(create_new_file(&link).is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

        // The old, predictable temporary name prepared as a link: not followed, not reused.
        let target = dir.path().join("scene_001.md");
        let old_name = dir
            .path()
            .join(format!(".scene_001.md.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &old_name).unwrap();
        write_atomic(&target, b"the scene").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "the scene");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

        // A link where the file goes is replaced, not written through.
        std::os::unix::fs::symlink(&victim, dir.path().join("plan_001.json")).unwrap();
        write_atomic_with(&dir.path().join("plan_001.json"), b"{}", false).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(
            !std::fs::symlink_metadata(dir.path().join("plan_001.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}
