//! Backups are whole, verified, rotated and restorable; a restore never deletes the database
//! it replaces and leaves the files in line with what it restored.

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Utc};

use super::*;
use crate::layout::{BACKUPS_DIR, DB_FILE};
use crate::novel::{Access, Novel};
use crate::reconcile::tests::novel_with_ticks;
use crate::backups::restore;

/// A clock that moves one minute on per reading, so every backup has its own time.
struct Ticking(AtomicI64);

impl Ticking {
    fn new() -> Ticking {
        Ticking(AtomicI64::new(1_795_000_000))
    }
}

impl Clock for Ticking {
    fn now(&self) -> DateTime<Utc> {
        let s = self.0.fetch_add(60, Ordering::SeqCst);
        DateTime::from_timestamp(s, 0).unwrap()
    }
}

fn dump(path: &Path) -> String {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    store::dump_story(&conn).unwrap()
}

#[test]
fn a_backup_is_one_verified_file_holding_the_whole_story() {
    let (_tmp, root) = novel_with_ticks(2);
    let novel = Novel::open(&root, Access::Write).unwrap();
    let info = take(novel.store().conn(), &root, None, &Ticking::new()).unwrap();
    let name = info
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(name, format!("novel-tick-0002-{}.db", info.taken_at));
    assert_eq!(info.tick, 2);
    assert_eq!(
        dump(&info.path),
        store::dump_story(novel.store().conn()).unwrap()
    );
    let verified = verify(&info.path, Check::Full).unwrap();
    assert_eq!(
        (verified.tick, verified.schema_version),
        (2, SCHEMA_VERSION)
    );
    assert!(
        !PathBuf::from(format!("{}-wal", info.path.display())).exists(),
        "a backup is a single file, not a WAL pair"
    );
    let leftovers: Vec<_> = std::fs::read_dir(root.join(BACKUPS_DIR))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    assert_eq!(list(&root).unwrap(), vec![info]);
}

#[test]
fn only_the_newest_backups_are_kept() {
    let (_tmp, root) = novel_with_ticks(1);
    let novel = Novel::open(&root, Access::Write).unwrap();
    let clock = Ticking::new();
    let taken: Vec<BackupInfo> = (0..KEEP_BACKUPS + 3)
        .map(|_| take(novel.store().conn(), &root, None, &clock).unwrap())
        .collect();
    let kept = list(&root).unwrap();
    assert_eq!(kept.len(), KEEP_BACKUPS);
    assert_eq!(kept[0], *taken.last().unwrap(), "newest first");
    for old in &taken[..3] {
        assert!(
            !old.path.exists(),
            "{} should be pruned",
            old.path.display()
        );
    }
}

#[test]
fn after_commit_backs_up_every_nth_tick_only() {
    let (_tmp, root) = novel_with_ticks(1);
    let novel = Novel::open(&root, Access::Write).unwrap();
    let clock = Ticking::new();
    assert_eq!(
        after_commit(novel.store().conn(), novel.root(), 1, &clock).unwrap(),
        None
    );
    assert_eq!(
        after_commit(
            novel.store().conn(),
            novel.root(),
            BACKUP_EVERY_TICKS - 1,
            &clock
        )
        .unwrap(),
        None
    );
    assert!(
        after_commit(
            novel.store().conn(),
            novel.root(),
            BACKUP_EVERY_TICKS,
            &clock
        )
        .unwrap()
        .is_some()
    );
    assert!(
        after_commit(
            novel.store().conn(),
            novel.root(),
            2 * BACKUP_EVERY_TICKS,
            &clock
        )
        .unwrap()
        .is_some()
    );
    assert_eq!(list(&root).unwrap().len(), 2);
}

#[test]
fn a_failed_backup_leaves_nothing_that_looks_like_one() {
    let (_tmp, root) = novel_with_ticks(1);
    let novel = Novel::open(&root, Access::Write).unwrap();
    let before = store::dump_story(novel.store().conn()).unwrap();
    // `backups` taken by a file: the folder cannot be made, whoever runs the test.
    std::fs::write(root.join(BACKUPS_DIR), "not a folder").unwrap();
    let err = take(novel.store().conn(), &root, None, &Ticking::new()).unwrap_err();
    assert!(err.to_string().contains("backups"), "{err}");
    assert_eq!(store::dump_story(novel.store().conn()).unwrap(), before);
    std::fs::remove_file(root.join(BACKUPS_DIR)).unwrap();

    // A partial copy a crash left is cleared by the next backup, and never listed.
    std::fs::create_dir_all(root.join(BACKUPS_DIR)).unwrap();
    let partial = root
        .join(BACKUPS_DIR)
        .join(".partial-novel-tick-0001-20270101T000000Z.db");
    std::fs::write(&partial, "SQLite format 3\0half").unwrap();
    assert!(list(&root).unwrap().is_empty());
    take(novel.store().conn(), &root, None, &Ticking::new()).unwrap();
    assert!(!partial.exists());
}

#[test]
fn restore_puts_the_backup_back_keeps_the_replaced_database_and_fixes_the_files() {
    let (_tmp, root) = novel_with_ticks(2);
    let clock = Ticking::new();
    let at_two = {
        let novel = Novel::open(&root, Access::Write).unwrap();
        let info = take(novel.store().conn(), &root, None, &clock).unwrap();
        (info, store::dump_story(novel.store().conn()).unwrap())
    };
    // The story moves on by a tick the backup does not have.
    let (_tmp3, root3) = novel_with_ticks(3);
    std::fs::copy(root3.join(DB_FILE), root.join(DB_FILE)).unwrap();
    for sub in ["scenes/scene_003.md", "plans/plan_003.json"] {
        std::fs::copy(root3.join(sub), root.join(sub)).unwrap();
    }
    let at_three = dump(&root.join(DB_FILE));

    let (novel, report) = restore(&root, RestoreFrom::Latest, &clock).unwrap();
    assert_eq!(report.tick, 2);
    assert_eq!(report.restored_from, at_two.0.path);
    assert_eq!(store::dump_story(novel.store().conn()).unwrap(), at_two.1);
    let previous = report.previous.clone().unwrap();
    assert!(
        previous
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("novel.db.before-restore-")
    );
    assert_eq!(
        dump(&previous),
        at_three,
        "the replaced story is kept whole"
    );
    assert!(!root.join("scenes/scene_003.md").exists());
    assert!(root.join("scenes/.orphaned/scene_003.md").is_file());
    assert!(root.join("plans/.orphaned/plan_003.json").is_file());
    assert_eq!(report.files.set_aside.len(), 2);
}

#[test]
fn restore_replaces_a_damaged_database_and_keeps_it() {
    let (_tmp, root) = novel_with_ticks(1);
    let clock = Ticking::new();
    let good = {
        let novel = Novel::open(&root, Access::Write).unwrap();
        take(novel.store().conn(), &root, None, &clock).unwrap()
    };
    std::fs::write(root.join(DB_FILE), "this is not a database").unwrap();
    let err = Novel::open(&root, Access::Write).unwrap_err().to_string();
    assert!(
        err.contains("is damaged") && err.contains(&good.path.display().to_string()),
        "the newest good backup is named: {err}"
    );

    let (_novel, report) = restore(&root, RestoreFrom::Latest, &clock).unwrap();
    assert_eq!(report.tick, 1);
    assert_eq!(
        std::fs::read_to_string(report.previous.unwrap()).unwrap(),
        "this is not a database"
    );
}

#[test]
fn a_damaged_backup_is_refused_and_nothing_changes() {
    let (_tmp, root) = novel_with_ticks(1);
    let clock = Ticking::new();
    let info = {
        let novel = Novel::open(&root, Access::Write).unwrap();
        take(novel.store().conn(), &root, None, &clock).unwrap()
    };
    let mut bytes = std::fs::read(&info.path).unwrap();
    let page = 4096;
    assert!(bytes.len() > 3 * page);
    for b in &mut bytes[page..3 * page] {
        *b = 0xA5;
    }
    std::fs::write(&info.path, &bytes).unwrap();
    let before = std::fs::read(root.join(DB_FILE)).unwrap();

    let err = restore(&root, RestoreFrom::File(info.path.clone()), &clock)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("is not a usable backup"), "{err}");
    let err = restore(&root, RestoreFrom::Latest, &clock)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no usable backup"), "{err}");
    assert_eq!(std::fs::read(root.join(DB_FILE)).unwrap(), before);
    assert!(
        std::fs::read_dir(&root)
            .unwrap()
            .flatten()
            .all(|e| !e.file_name().to_string_lossy().contains("before-restore")),
        "nothing was set aside"
    );
}

#[test]
fn a_wal_left_by_an_interrupted_restore_never_meets_the_restored_database() {
    let (_tmp, root) = novel_with_ticks(1);
    let clock = Ticking::new();
    {
        let novel = Novel::open(&root, Access::Write).unwrap();
        take(novel.store().conn(), &root, None, &clock).unwrap();
    }
    // An earlier restore was killed after moving novel.db aside but before its WAL.
    let aside = root.join("novel.db.before-restore-20270101T000000Z");
    std::fs::rename(root.join(DB_FILE), &aside).unwrap();
    std::fs::write(root.join("novel.db-wal"), "frames of the old database").unwrap();

    let (_novel, report) = restore(&root, RestoreFrom::Latest, &clock).unwrap();
    assert_eq!(report.previous, None);
    assert_eq!(
        std::fs::read_to_string(root.join("novel.db.before-restore-20270101T000000Z-wal")).unwrap(),
        "frames of the old database",
        "the stray WAL went with the copy it belongs to"
    );
}
