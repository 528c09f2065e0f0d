use std::path::Path;

use super::*;
use crate::novel::Access;
use crate::synthetic;
use crate::tick::tests::clock;

pub(super) fn book(scenes: u32) -> (tempfile::TempDir, Novel) {
    let tmp = tempfile::tempdir().unwrap();
    let mut novel = synthetic::generate(&tmp.path().join("n"), scenes, &[]).unwrap();
    // Generated novels have no tick records (plans) and no files yet: give every scene a plan
    // record, then let the mirror write the files as a real novel has them.
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    for tick in 1..=scenes {
        tx.execute(
            "INSERT OR IGNORE INTO ticks (tick, plan, started_at, finished_at)
             VALUES (?1, json_object('scene_intention', 'plan ' || ?1), 'started ' || ?1, '')",
            [tick],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    novel.reconcile_files().unwrap();
    (tmp, novel)
}

pub(super) fn ids(novel: &Novel) -> Vec<String> {
    store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect()
}

fn ticks(novel: &Novel) -> Vec<u32> {
    store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|s| s.tick)
        .collect()
}

fn chapters(novel: &Novel) -> Vec<(u32, u32)> {
    crate::chapters::list(novel)
        .unwrap()
        .iter()
        .map(|c| (c.first_tick, c.last_tick))
        .collect()
}

/// Every scene and plan file, by name, with its text.
pub(super) fn files_of(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["scenes", "plans"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().unwrap().is_file() {
                out.push((
                    format!("{dir}/{}", entry.file_name().to_string_lossy()),
                    std::fs::read_to_string(entry.path()).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

pub(super) fn story(novel: &Novel) -> String {
    store::dump_story(novel.store().conn()).unwrap()
}

/// Compares two story dumps as sets of rows (a deleted row that undo brings back may come back
/// under another rowid, so in another place of an unordered dump), naming the first that differs.
pub(super) fn assert_same_story(now: &str, before: &str) {
    let (mut a, mut b): (Vec<&str>, Vec<&str>) = (now.lines().collect(), before.lines().collect());
    a.sort_unstable();
    b.sort_unstable();
    for (x, y) in a.iter().zip(&b) {
        let cut = |s: &str| s.chars().take(160).collect::<String>();
        assert_eq!(cut(x), cut(y), "the first differing row");
        assert_eq!(x, y);
    }
    assert_eq!(a.len(), b.len());
}

fn scene_text(novel: &Novel, tick: u32) -> String {
    std::fs::read_to_string(crate::files::scene_path(novel.root(), tick)).unwrap()
}

#[test]
fn a_scene_added_between_two_and_three_renumbers_the_rest_and_undo_restores_everything() {
    let (_tmp, mut novel) = book(12);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let before_ids = ids(&novel);
    let old_three = scene_text(&novel, 3);

    let place = after(&novel, 2).unwrap();
    assert_eq!(place, Place::Before(3));
    let shaped = add_scene(
        &mut novel,
        place,
        "The Tide Table",
        "Tamsin read the tide table twice.\n\nThen she went down to the water.",
        &clock(),
    )
    .unwrap();
    assert_eq!(shaped.scene, Some(3));
    assert_eq!(
        shaped.reread,
        vec![3],
        "the new scene is proposed for a re-read"
    );
    assert_eq!(shaped.label, "scene 3 added");
    assert_eq!(shaped.scenes, 13);
    assert_eq!(ticks(&novel), (1..=13).collect::<Vec<_>>());
    let now = ids(&novel);
    assert_eq!(now[..2], before_ids[..2]);
    assert_eq!(now[3..], before_ids[2..], "the old scene 3 is scene 4 now");
    assert_eq!(novel.state().unwrap().current_tick, 13);
    // Chapter 1 grows by one; the proposals after it follow.
    assert_eq!(chapters(&novel), vec![(1, 11), (12, 13)]);
    // The files follow: scene 3 is the new one, the old scene 3 is scene_004.md, and the plan
    // at number 3 (the old scene's) is gone.
    assert!(scene_text(&novel, 3).contains("tide table twice"));
    assert_eq!(scene_text(&novel, 4), old_three);
    assert!(!crate::files::plan_path(novel.root(), 3).exists());
    assert!(crate::files::plan_path(novel.root(), 13).exists());
    // The new text is searchable, and the versions of the old scene 3 followed it.
    let hits = store::search(novel.store().conn(), "tide table", &[], 5).unwrap();
    assert_eq!(hits[0].entity_id, now[2]);
    let versions = store::versions_of(novel.store().conn(), 4).unwrap();
    assert!(versions.iter().all(|v| v.tick == 3), "{versions:?}");
    assert_eq!(
        store::versions_of(novel.store().conn(), 3).unwrap().len(),
        1
    );

    let undone = undo(&mut novel).unwrap();
    assert_eq!(undone.label, "scene 3 added");
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
}

#[test]
fn a_moved_scene_takes_its_facts_and_plan_with_it_and_undo_is_exact() {
    let (_tmp, mut novel) = book(12);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let before = ids(&novel);
    let conn = novel.store().conn();
    let plan_of_seven = store::get_tick(conn, 7).unwrap().unwrap().plan;
    let history_at_seven = conn
        .query_row("SELECT count(*) FROM history WHERE tick = 7", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();

    let shaped = move_scene(&mut novel, 7, Place::Before(2), &clock()).unwrap();
    assert_eq!(shaped.scene, Some(2));
    assert_eq!(shaped.label, "scene 7 moved to 2");
    assert!(shaped.reread.is_empty());
    let now = ids(&novel);
    assert_eq!(now[1], before[6]);
    assert_eq!(now[2..7], before[1..6]);
    let conn = novel.store().conn();
    assert_eq!(
        store::get_tick(conn, 2).unwrap().unwrap().plan,
        plan_of_seven
    );
    let history_at_two = conn
        .query_row("SELECT count(*) FROM history WHERE tick = 2", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();
    assert!(
        history_at_two >= history_at_seven,
        "what scene 7 changed is dated scene 2 now"
    );
    assert_eq!(chapters(&novel), vec![(1, 10), (11, 12)]);

    // To the end of the last chapter, then undo both.
    move_scene(&mut novel, 1, Place::EndOfChapter(2), &clock()).unwrap();
    assert_eq!(ids(&novel).last(), Some(&before[0]));
    assert!(matches!(
        move_scene(&mut novel, 12, Place::EndOfChapter(2), &clock()),
        Err(ShapeError::SamePlace)
    ));
    undo(&mut novel).unwrap();
    undo(&mut novel).unwrap();
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
}

#[test]
fn split_and_merge_keep_every_word_and_propose_re_reads() {
    let (_tmp, mut novel) = book(4);
    let before_story = story(&novel);
    let scene = store::list_scenes(novel.store().conn()).unwrap()[1].clone();
    let paras = paragraphs(&scene.prose);
    assert!(paras.len() >= 2, "{:?}", scene.prose);

    let split = split_scene(&mut novel, 2, 1, None, &clock()).unwrap();
    assert_eq!(split.reread, vec![2, 3]);
    let scenes = store::list_scenes(novel.store().conn()).unwrap();
    assert_eq!(scenes.len(), 5);
    assert_eq!(scenes[1].prose, paras[0]);
    assert_eq!(scenes[2].prose, paras[1..].join("\n\n"));
    assert_eq!(scenes[2].title, format!("{} (continued)", scene.title));
    assert_eq!(
        scenes[1].word_count + scenes[2].word_count,
        scene.word_count
    );
    assert!(matches!(
        split_scene(&mut novel, 2, 1, None, &clock()),
        Err(ShapeError::BadSplit { .. })
    ));

    let merged = merge_scenes(&mut novel, 2, &clock()).unwrap();
    assert_eq!(merged.reread, vec![2]);
    let scenes = store::list_scenes(novel.store().conn()).unwrap();
    assert_eq!(scenes.len(), 4);
    assert_eq!(paragraphs(&scenes[1].prose), paras);
    assert!(matches!(
        merge_scenes(&mut novel, 4, &clock()),
        Err(ShapeError::NothingToMerge { tick: 4 })
    ));
    undo(&mut novel).unwrap();
    undo(&mut novel).unwrap();
    assert_same_story(&story(&novel), &before_story);
}

#[test]
fn rename_delete_and_chapter_changes_are_each_one_undoable_change() {
    let (_tmp, mut novel) = book(14);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let before = ids(&novel);

    rename_scene(&mut novel, 4, "  The\nHarbour ", &clock()).unwrap();
    assert_eq!(
        store::list_scenes(novel.store().conn()).unwrap()[3].title,
        "The Harbour"
    );
    assert!(scene_text(&novel, 4).starts_with("# The Harbour"));

    let deleted = delete_scene(&mut novel, 5, &clock()).unwrap();
    assert_eq!((deleted.scene, deleted.scenes), (Some(5), 13));
    assert_eq!(ids(&novel)[4], before[5]);
    assert!(!crate::files::scene_path(novel.root(), 14).exists());
    assert_eq!(chapters(&novel), vec![(1, 9), (10, 13)]);

    crate::chapters::rename(&mut novel, 2, "Iron", &clock()).unwrap();
    let moved = move_chapter(&mut novel, 2, Some(1), &clock()).unwrap();
    assert_eq!(moved.scene, Some(1));
    let list = crate::chapters::list(&novel).unwrap();
    assert_eq!(list[0].title, "Iron");
    assert_eq!(chapters(&novel), vec![(1, 4), (5, 13)]);
    assert_eq!(ids(&novel)[0], before[10]);

    delete_chapter(&mut novel, 1, &clock()).unwrap();
    assert_eq!(ticks(&novel), (1..=9).collect::<Vec<_>>());
    assert_eq!(novel.state().unwrap().current_tick, 9);

    for _ in 0..5 {
        undo(&mut novel).unwrap();
    }
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
    assert!(matches!(undo(&mut novel), Err(ShapeError::NotYours { .. })));
}

#[test]
fn the_first_scene_of_an_empty_book_can_be_written_by_hand() {
    let (_tmp, mut novel) = book(0);
    let place = after(&novel, 0).unwrap();
    let shaped = add_scene(&mut novel, place, "Fog", "The fog came in.", &clock()).unwrap();
    assert_eq!((shaped.scene, shaped.scenes), (Some(1), 1));
    assert_eq!(chapters(&novel), vec![(1, 1)]);
    assert_eq!(novel.state().unwrap().current_tick, 1);
    undo(&mut novel).unwrap();
    assert!(ids(&novel).is_empty());
}

#[test]
fn bad_requests_change_nothing() {
    let (_tmp, mut novel) = book(3);
    let before = story(&novel);
    assert!(matches!(
        add_scene(&mut novel, Place::Before(9), "T", "Text.", &clock()),
        Err(ShapeError::NoSuchScene { tick: 9, count: 3 })
    ));
    assert!(matches!(
        add_scene(&mut novel, Place::Before(1), "T", "  \n ", &clock()),
        Err(ShapeError::EmptyProse)
    ));
    assert!(matches!(
        add_scene(&mut novel, Place::EndOfChapter(4), "T", "Text.", &clock()),
        Err(ShapeError::NoSuchChapter { number: 4, .. })
    ));
    assert!(matches!(
        rename_scene(&mut novel, 1, "\u{1b}[2J", &clock()),
        Err(ShapeError::EmptyTitle)
    ));
    assert!(matches!(
        move_scene(&mut novel, 2, Place::Before(3), &clock()),
        Err(ShapeError::SamePlace)
    ));
    assert_eq!(story(&novel), before);
}

#[test]
fn files_left_behind_by_a_crash_after_the_commit_are_repaired_on_open() {
    let (tmp, mut novel) = book(6);
    let root = novel.root().to_path_buf();
    let stale = tmp.path().join("stale");
    copy_dir(&root.join("scenes"), &stale.join("scenes"));
    copy_dir(&root.join("plans"), &stale.join("plans"));
    add_scene(
        &mut novel,
        Place::Before(2),
        "Fog",
        "The fog came in.",
        &clock(),
    )
    .unwrap();
    let expected = files_of(&root);
    drop(novel);
    // As if the process died between the commit and the file writes.
    for dir in ["scenes", "plans"] {
        std::fs::remove_dir_all(root.join(dir)).unwrap();
        copy_dir(&stale.join(dir), &root.join(dir));
    }
    let novel = Novel::open(&root, Access::Write).unwrap();
    assert!(!novel.last_reconcile().is_empty());
    let now = files_of(&root);
    let names = |f: &[(String, String)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&now), names(&expected));
    for ((name, text), (_, want)) in now.iter().zip(&expected) {
        assert_eq!(text, want, "{name}");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[tokio::test]
async fn writing_the_last_scene_again_is_refused_once_the_book_was_reshaped() {
    use std::sync::Arc;

    use crate::tick::{CancelToken, Models, TickOptions};

    let (_tmp, mut novel) = book(4);
    move_scene(&mut novel, 4, Place::Before(1), &clock()).unwrap();
    let before = story(&novel);
    // No model call is made: the scripted model has nothing to say.
    let models = Models::single(Arc::new(novel_llm::ScriptedModel::new()));
    let err = crate::control::regenerate(
        &mut novel,
        &models,
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().contains("reshaped"),
        "the agent's scene 4 is scene 1 now: {err}"
    );
    assert_same_story(&story(&novel), &before);
}
