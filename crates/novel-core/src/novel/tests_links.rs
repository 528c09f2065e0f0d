//! A novel folder from someone else holding symbolic links where its folders should be:
//! opening it for writing is refused before anything is written (the write probe included),
//! naming the link and what to do, and nothing lands where the link points; a backup into a
//! linked `backups/` is refused the same way.

use super::*;
use crate::layout::{BACKUPS_DIR, ERRORS_DIR, EXPORTS_DIR, ORPHANED_DIR, PLANS_DIR, SCENES_DIR};
use crate::tick::tests::{clock, novel};

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn a_linked_folder_is_refused_and_nothing_is_written_where_it_points() {
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    let outside = tempfile::tempdir().unwrap();
    let orphaned = |sub: &str| format!("{sub}/{}", ORPHANED_DIR);
    for folder in [
        SCENES_DIR.to_string(),
        PLANS_DIR.to_string(),
        ERRORS_DIR.to_string(),
        EXPORTS_DIR.to_string(),
        BACKUPS_DIR.to_string(),
        orphaned(SCENES_DIR),
        orphaned(PLANS_DIR),
    ] {
        let path = root.join(&folder);
        let kept = root.join(format!("{folder}.kept"));
        let existed = path.exists();
        if existed {
            std::fs::rename(&path, &kept).unwrap();
        }
        std::os::unix::fs::symlink(outside.path(), &path).unwrap();

        let err = Novel::open(&root, Access::Write).err().unwrap();
        assert!(
            matches!(err, NovelError::LinkedFolder { .. }),
            "{folder}: {err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&folder)
                && text.contains("symbolic link")
                && text.contains("move the link"),
            "{text}"
        );
        assert_eq!(
            files_in(outside.path()),
            0,
            "{folder}: written through the link"
        );

        std::fs::remove_file(&path).unwrap();
        if existed {
            std::fs::rename(&kept, &path).unwrap();
        }
    }
    // Back to real folders, the novel opens.
    Novel::open(&root, Access::Write).unwrap();
}

#[test]
fn a_backup_into_a_linked_backups_folder_is_refused() {
    let (_tmp, novel) = novel();
    let outside = tempfile::tempdir().unwrap();
    let backups = novel.root().join(BACKUPS_DIR);
    let _ = std::fs::remove_dir_all(&backups);
    std::os::unix::fs::symlink(outside.path(), &backups).unwrap();
    let err = backup::take(novel.store().conn(), novel.root(), None, &clock()).unwrap_err();
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(files_in(outside.path()), 0);
}
