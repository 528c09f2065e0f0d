//! Opening and creating a novel under hostile conditions: damaged, empty or missing files, an
//! unwritable folder, a full disk, an older schema, and two processes creating one novel.

use std::sync::{Arc, Barrier};

use novel_llm::ScriptedModel;
use serde_json::json;

use super::*;
use crate::layout::{BACKUPS_DIR, CONFIG_FILE, DB_FILE, LOCK_FILE, PLANS_DIR, SCENES_DIR};
use crate::tick::tests::{PROSE, clock, extraction, fingerprint, novel};
use crate::tick::{CancelToken, Models, TickError, TickOptions, TickOutcome, run_tick};

fn seed() -> NovelSeed {
    NovelSeed {
        foundation: Foundation {
            title: "Salt".into(),
            author: String::new(),
            genre: String::new(),
            premise: String::new(),
            setting: String::new(),
            tone: String::new(),
            style: String::new(),
            pov: Default::default(),
            tense: Default::default(),
            language: "English".into(),
            themes: Vec::new(),
            author_note: String::new(),
        },
        generation: GenerationSettings::default(),
        protagonist: NewCharacter {
            name: "Tamsin".into(),
            ..Default::default()
        },
        location: crate::memory::NewLocation {
            name: "Docks".into(),
            ..Default::default()
        },
        goal: "Clear her brother's name".into(),
        lore: Vec::new(),
    }
}

/// A closed novel on disk with one take of its database in `backups/`.
fn closed_novel_with_backup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (tmp, novel) = novel();
    let backup = backup::take(novel.store().conn(), novel.root(), None, &clock())
        .unwrap()
        .path;
    let root = novel.root().to_path_buf();
    drop(novel);
    (tmp, root, backup)
}

#[test]
fn of_two_creators_of_one_folder_the_loser_touches_nothing() {
    for _round in 0..40 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("novel");
        let barrier = Arc::new(Barrier::new(2));
        let creators: Vec<_> = (0..2)
            .map(|_| {
                let (dir, barrier) = (dir.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Novel::create(&dir, seed(), &clock()).map_err(|e| e.to_string())
                })
            })
            .collect();
        let results: Vec<_> = creators.into_iter().map(|h| h.join().unwrap()).collect();
        let (winners, losers): (Vec<_>, Vec<_>) = results.into_iter().partition(Result::is_ok);
        assert_eq!(winners.len(), 1, "losers: {losers:?}");
        let loser = losers[0].as_ref().unwrap_err();
        assert!(
            loser.contains("open elsewhere") || loser.contains("not empty"),
            "{loser}"
        );
        // The winner's novel is whole, both while it is open and after.
        for file in [CONFIG_FILE, DB_FILE, SCENES_DIR, PLANS_DIR] {
            assert!(dir.join(file).exists(), "{file} was deleted by the loser");
        }
        drop(winners);
        let reopened = Novel::open(&dir, Access::Write).unwrap();
        assert_eq!(reopened.state().unwrap().current_tick, 0);
    }
}

#[test]
fn an_empty_database_file_is_refused_and_stays_empty() {
    let (_tmp, root, backup) = closed_novel_with_backup();
    std::fs::write(root.join(DB_FILE), "").unwrap();
    for access in [Access::Write, Access::Read] {
        let err = Novel::open(&root, access).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, NovelError::Damaged { .. }), "{msg}");
        assert!(msg.contains("empty (0 bytes)"), "{msg}");
        assert!(msg.contains("novel restore --latest"), "{msg}");
        assert!(msg.contains(&backup.display().to_string()), "{msg}");
        assert_eq!(std::fs::metadata(root.join(DB_FILE)).unwrap().len(), 0);
    }
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_unchanged() {
    let (_tmp, root, _backup) = closed_novel_with_backup();
    let junk = b"<html>this is a saved web page, not a database</html>".repeat(100);
    std::fs::write(root.join(DB_FILE), &junk).unwrap();
    let msg = Novel::open(&root, Access::Write).unwrap_err().to_string();
    assert!(msg.contains("not an SQLite database"), "{msg}");
    assert_eq!(std::fs::read(root.join(DB_FILE)).unwrap(), junk);
}

#[test]
fn a_database_failing_quick_check_is_refused_and_not_written_to() {
    let (_tmp, root, backup) = closed_novel_with_backup();
    let db = root.join(DB_FILE);
    let mut bytes = std::fs::read(&db).unwrap();
    // Keep page 1 (the header and schema) and damage the pages after it.
    let page = 4096;
    assert!(bytes.len() > 4 * page);
    for (i, b) in bytes[2 * page..4 * page].iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    std::fs::write(&db, &bytes).unwrap();

    let err = Novel::open(&root, Access::Write).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, NovelError::Damaged { .. }), "{msg}");
    assert!(msg.contains("Nothing more will be written to it"), "{msg}");
    assert!(msg.contains(&backup.display().to_string()), "{msg}");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "not a byte written");
}

#[test]
fn a_damaged_database_without_backups_says_how_to_salvage() {
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    std::fs::write(root.join(DB_FILE), "garbage").unwrap();
    let msg = Novel::open(&root, Access::Write).unwrap_err().to_string();
    assert!(msg.contains("no good backup"), "{msg}");
    assert!(msg.contains(".recover"), "{msg}");
}

#[test]
fn missing_files_are_named_with_what_to_do() {
    let (_tmp, root, backup) = closed_novel_with_backup();
    std::fs::rename(root.join(DB_FILE), root.join("elsewhere.db")).unwrap();
    let msg = Novel::open(&root, Access::Read).unwrap_err().to_string();
    assert!(msg.contains("novel.db is missing"), "{msg}");
    assert!(msg.contains(&backup.display().to_string()), "{msg}");
    std::fs::rename(root.join("elsewhere.db"), root.join(DB_FILE)).unwrap();

    let db_before = std::fs::read(root.join(DB_FILE)).unwrap();
    std::fs::rename(root.join(CONFIG_FILE), root.join("elsewhere.toml")).unwrap();
    let msg = Novel::open(&root, Access::Write).unwrap_err().to_string();
    assert!(msg.contains("novel.toml is missing"), "{msg}");
    assert!(msg.contains("title = "), "the minimal file is shown: {msg}");
    assert_eq!(std::fs::read(root.join(DB_FILE)).unwrap(), db_before);
}

#[test]
fn an_unwritable_folder_is_refused_with_what_to_do() {
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    let scenes = root.join(SCENES_DIR);
    let denied = |p: &Path| {
        if p == scenes {
            Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied))
        } else {
            probe_write(p)
        }
    };
    let msg = check_writable(&root, &denied).unwrap_err().to_string();
    assert!(msg.contains(&scenes.display().to_string()), "{msg}");
    assert!(msg.contains("make it writable by you"), "{msg}");
    assert!(msg.contains("Reading commands"), "{msg}");
    check_writable(&root, &probe_write).unwrap();
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_refused_for_writing_and_still_readable() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    let set_mode = |mode| {
        for p in [root.join(SCENES_DIR), root.clone()] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    };
    set_mode(0o555);
    if probe_write(&root).is_ok() {
        set_mode(0o755);
        eprintln!(
            "skipped: this process writes through read-only permissions (root); \
             an_unwritable_folder_is_refused_with_what_to_do covers the message"
        );
        return;
    }
    let write = Novel::open(&root, Access::Write).map(drop);
    let read = Novel::open(&root, Access::Read).map(drop);
    set_mode(0o755);
    let msg = write.unwrap_err().to_string();
    assert!(msg.contains("cannot write to"), "{msg}");
    read.unwrap();
}

#[tokio::test]
async fn a_full_disk_fails_the_tick_with_what_to_do_and_loses_nothing() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let pages: i64 = novel
        .store()
        .conn()
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    let set_limit = |novel: &Novel, pages: i64| {
        novel
            .store()
            .conn()
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
    };
    set_limit(&novel, pages);
    let plan = json!({"rationale": "Breathe.", "scene_intention": "Tamsin waits.",
                      "pov_character": "C0", "target_location": "L0", "actions": []});
    let model = || {
        ScriptedModel::new()
            .reply_json(&plan)
            .reply(PROSE)
            .reply_json(&extraction())
    };
    async fn tick(novel: &mut Novel, model: ScriptedModel) -> Result<TickOutcome, TickError> {
        let models = Models::single(Arc::new(model));
        run_tick(
            novel,
            &models,
            &TickOptions::default(),
            &|_| {},
            &CancelToken::new(),
            &clock(),
        )
        .await
    }
    let err = tick(&mut novel, model()).await.unwrap_err().to_string();
    assert!(err.contains("the disk is full"), "{err}");
    assert!(err.contains("Free some space"), "{err}");
    assert_eq!(fingerprint(&novel), before);
    assert!(!novel.root().join("scenes/scene_001.md").exists());

    // Space again: the same tick commits.
    assert!(set_limit(&novel, 1 << 30) > pages);
    let done = tick(&mut novel, model()).await.unwrap();
    assert_eq!(done.tick, 1);
}

/// A novel whose database an older program (schema version 2) wrote.
fn old_novel() -> (tempfile::TempDir, PathBuf) {
    let (tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    for f in [DB_FILE, "novel.db-wal", "novel.db-shm"] {
        let _ = std::fs::remove_file(root.join(f));
    }
    let conn = store::create_at_version(&root.join(DB_FILE), 2);
    conn.execute_batch(
        "INSERT INTO story_state (id, current_tick, created_at, updated_at)
         VALUES (1, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
    )
    .unwrap();
    drop(conn);
    (tmp, root)
}

fn user_version(path: &Path) -> i64 {
    rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_read_only_open_never_migrates_without_the_lock() {
    let (_tmp, root) = old_novel();
    let holder = NovelLock::acquire(&root).unwrap();
    let err = Novel::open(&root, Access::Read).unwrap_err().to_string();
    assert!(err.contains("older version"), "{err}");
    assert!(err.contains("open the novel for writing once"), "{err}");
    assert_eq!(user_version(&root.join(DB_FILE)), 2);
    assert!(!root.join(BACKUPS_DIR).exists());
    drop(holder);
}

#[test]
fn a_read_only_open_upgrades_under_the_lock_after_a_backup() {
    let (_tmp, root) = old_novel();
    let novel = Novel::open(&root, Access::Read).unwrap();
    assert!(!novel.is_writable());
    assert_eq!(novel.state().unwrap().current_tick, 0);
    assert_eq!(
        user_version(&root.join(DB_FILE)),
        store::SCHEMA_VERSION as i64
    );
    let backups = backup::list(&root).unwrap();
    assert_eq!(backups.len(), 1);
    assert_eq!(backups[0].reason.as_deref(), Some("before-upgrade-v2"));
    assert_eq!(
        user_version(&backups[0].path),
        2,
        "the backup is the old one"
    );
}

#[test]
fn opening_for_writing_backs_up_before_it_upgrades() {
    let (_tmp, root) = old_novel();
    drop(Novel::open(&root, Access::Write).unwrap());
    let backups = backup::list(&root).unwrap();
    assert_eq!(backups.len(), 1);
    assert_eq!(user_version(&backups[0].path), 2);
    assert_eq!(
        user_version(&root.join(DB_FILE)),
        store::SCHEMA_VERSION as i64
    );
}

#[test]
fn a_read_only_open_creates_and_changes_nothing() {
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    std::fs::remove_dir_all(root.join(SCENES_DIR)).unwrap();
    std::fs::remove_file(root.join(LOCK_FILE)).unwrap();
    let db_before = std::fs::read(root.join(DB_FILE)).unwrap();
    let novel = Novel::open(&root, Access::Read).unwrap();
    assert_eq!(novel.state().unwrap().current_tick, 0);
    let write = novel
        .store()
        .conn()
        .execute("UPDATE story_state SET current_tick = 7", []);
    assert!(write.is_err(), "the connection is read-only");
    drop(novel);
    assert!(!root.join(SCENES_DIR).exists());
    assert!(!root.join(LOCK_FILE).exists());
    assert_eq!(std::fs::read(root.join(DB_FILE)).unwrap(), db_before);
}

#[test]
fn no_upgrade_happens_without_its_backup() {
    let (_tmp, root) = old_novel();
    // `backups` taken by a file: the backup cannot be written, whoever runs the test.
    std::fs::write(root.join(BACKUPS_DIR), "not a folder").unwrap();
    let err = Novel::open(&root, Access::Write).unwrap_err().to_string();
    assert!(
        err.contains("the backup taken before upgrading failed, so nothing was changed"),
        "{err}"
    );
    assert_eq!(user_version(&root.join(DB_FILE)), 2);
}
