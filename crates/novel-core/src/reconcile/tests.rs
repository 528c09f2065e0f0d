//! Files agree with the database: what a kill between commit and file write, a stale copy, a
//! deleted folder, leftovers of a restore and a full disk leave behind is repaired (or clearly
//! refused) the next time the novel is opened for writing — and nothing is deleted.

use std::path::Path;
use std::sync::Arc;

use novel_llm::ScriptedModel;
use serde_json::{Value, json};

use super::*;
use crate::files::write_scene;
use crate::novel::{Access, Novel};
use crate::run::{RunControl, run_ticks};
use crate::tick::tests::{PROSE, clock, extraction, novel};
use crate::tick::{Models, TickOptions};

fn quiet_plan() -> Value {
    json!({"rationale": "Breathe.", "scene_intention": "Tamsin waits out the rain.",
           "pov_character": "C0", "target_location": "L0", "actions": []})
}

/// A novel with `n` committed ticks (files written by the tick itself), closed.
pub(crate) fn novel_with_ticks(n: u32) -> (tempfile::TempDir, PathBuf) {
    let (tmp, mut novel) = novel();
    let mut model = ScriptedModel::new();
    for _ in 0..n {
        model = model
            .reply_json(&quiet_plan())
            .reply(PROSE)
            .reply_json(&extraction());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = runtime.block_on(run_ticks(
        &mut novel,
        &Models::single(Arc::new(model)),
        n,
        &TickOptions::default(),
        &RunControl::new(),
        &clock(),
        &|_| {},
    ));
    assert_eq!(report.committed.len(), n as usize, "{:?}", report.failure);
    let root = novel.root().to_path_buf();
    drop(novel);
    (tmp, root)
}

fn open(root: &Path) -> Novel {
    Novel::open(root, Access::Write).unwrap()
}

fn expected_scene(novel: &Novel, tick: u32) -> String {
    let scene = store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .find(|s| s.tick == tick)
        .unwrap();
    scene_file_text(&scene.title, &scene.summary, &scene.prose)
}

#[test]
fn the_scene_text_is_byte_for_byte_what_the_tick_writes() {
    let dir = tempfile::tempdir().unwrap();
    let title = "  # The   Salt\nGate ";
    let summary = vec!["- Bram  lies.".to_string(), "\n>She knows\n".to_string()];
    let prose = "\n\n  Rain.\n\nMore rain.  \n";
    let path = write_scene(dir.path(), 7, title, &summary, prose).unwrap();
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        scene_file_text(title, &summary, prose)
    );
}

#[test]
fn scene_and_plan_files_lost_after_the_commit_are_rewritten_on_open() {
    let (_tmp, root) = novel_with_ticks(2);
    let scene = root.join("scenes/scene_002.md");
    let plan = root.join("plans/plan_002.json");
    let tick_wrote = std::fs::read_to_string(&scene).unwrap();
    let tick_plan: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    // What a kill between the commit and the file writes leaves.
    std::fs::remove_file(&scene).unwrap();
    std::fs::remove_file(&plan).unwrap();

    let novel = open(&root);
    assert_eq!(std::fs::read_to_string(&scene).unwrap(), tick_wrote);
    let rebuilt: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    for key in [
        "tick",
        "timestamp",
        "plan",
        "execution",
        "findings",
        "usage",
    ] {
        assert_eq!(rebuilt[key], tick_plan[key], "{key}");
    }
    assert_eq!(rebuilt["revised"], tick_plan["revised"]);
    assert!(rebuilt["rebuilt_from_database"].is_string());
    let report = novel.last_reconcile();
    assert_eq!(report.scenes_written, vec![2]);
    assert_eq!(report.plans_written, vec![2]);
    assert!(report.set_aside.is_empty());
}

#[test]
fn deleted_scenes_and_plans_folders_are_rebuilt() {
    let (_tmp, root) = novel_with_ticks(3);
    std::fs::remove_dir_all(root.join("scenes")).unwrap();
    std::fs::remove_dir_all(root.join("plans")).unwrap();
    let novel = open(&root);
    for tick in 1..=3 {
        assert_eq!(
            std::fs::read_to_string(scene_path(&root, tick)).unwrap(),
            expected_scene(&novel, tick)
        );
        assert!(plan_path(&root, tick).is_file());
    }
}

#[test]
fn an_out_of_date_scene_file_is_set_aside_and_rewritten() {
    let (_tmp, root) = novel_with_ticks(1);
    let scene = root.join("scenes/scene_001.md");
    std::fs::write(&scene, "# My own draft\n\nNot what the database holds.\n").unwrap();
    let novel = open(&root);
    assert_eq!(
        std::fs::read_to_string(&scene).unwrap(),
        expected_scene(&novel, 1)
    );
    let kept = root.join("scenes/.orphaned/scene_001.md");
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap(),
        "# My own draft\n\nNot what the database holds.\n",
        "the replaced text is kept, not lost"
    );
    assert_eq!(novel.last_reconcile().set_aside, vec![kept]);
}

#[test]
fn files_of_ticks_the_database_does_not_have_are_moved_aside_not_deleted() {
    let (_tmp, root) = novel_with_ticks(1);
    std::fs::write(root.join("scenes/scene_002.md"), "# Ghost\n").unwrap();
    std::fs::write(root.join("scenes/scene_002.md.notes"), "mine").unwrap();
    std::fs::write(root.join("plans/plan_002.json"), "{}").unwrap();
    // A second ghost of the same name goes beside the first, not over it.
    std::fs::create_dir_all(root.join("scenes/.orphaned")).unwrap();
    std::fs::write(
        root.join("scenes/.orphaned/scene_002.md"),
        "# Older ghost\n",
    )
    .unwrap();

    let novel = open(&root);
    assert!(!root.join("scenes/scene_002.md").exists());
    assert!(!root.join("plans/plan_002.json").exists());
    assert_eq!(
        std::fs::read_to_string(root.join("scenes/.orphaned/scene_002.md")).unwrap(),
        "# Older ghost\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("scenes/.orphaned/scene_002.1.md")).unwrap(),
        "# Ghost\n"
    );
    assert!(root.join("plans/.orphaned/plan_002.json").is_file());
    assert!(
        root.join("scenes/scene_002.md.notes").is_file(),
        "files that are not scene files are left alone"
    );
    assert!(root.join("scenes/scene_001.md").is_file());
    assert_eq!(novel.last_reconcile().set_aside.len(), 2);
}

#[test]
fn a_plan_file_from_another_run_of_the_same_tick_is_replaced() {
    let (_tmp, root) = novel_with_ticks(1);
    let plan = root.join("plans/plan_001.json");
    std::fs::write(
        &plan,
        r#"{"tick": 1, "timestamp": "1999-01-01T00:00:00Z", "plan": {}}"#,
    )
    .unwrap();
    let novel = open(&root);
    let rebuilt: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let record = store::get_tick(novel.store().conn(), 1).unwrap().unwrap();
    assert_eq!(rebuilt["timestamp"], record.started_at.as_str());
    assert!(root.join("plans/.orphaned/plan_001.json").is_file());
}

#[cfg(unix)]
#[test]
fn files_that_agree_are_left_untouched() {
    use std::os::unix::fs::MetadataExt;
    let (_tmp, root) = novel_with_ticks(2);
    let inode = |p: &str| std::fs::metadata(root.join(p)).unwrap().ino();
    let before = [
        inode("scenes/scene_001.md"),
        inode("scenes/scene_002.md"),
        inode("plans/plan_001.json"),
    ];
    let novel = open(&root);
    assert!(
        novel.last_reconcile().is_empty(),
        "{:?}",
        novel.last_reconcile()
    );
    let after = [
        inode("scenes/scene_001.md"),
        inode("scenes/scene_002.md"),
        inode("plans/plan_001.json"),
    ];
    assert_eq!(before, after, "an atomic rewrite would have made new files");
}

#[test]
fn temporary_files_of_interrupted_writes_are_removed() {
    let (_tmp, root) = novel_with_ticks(1);
    std::fs::write(root.join("scenes/.scene_002.md.tmp-4242"), "half a sce").unwrap();
    std::fs::write(root.join("plans/.plan_002.json.tmp-4242"), "{\"ti").unwrap();
    let novel = open(&root);
    assert!(!root.join("scenes/.scene_002.md.tmp-4242").exists());
    assert!(!root.join("plans/.plan_002.json.tmp-4242").exists());
    assert_eq!(novel.last_reconcile().temp_files_removed, 2);
}

/// Writes fail as on a full disk; renames and removals work.
struct FullDisk;

impl FileOps for FullDisk {
    fn write(&self, _: &Path, _: &[u8]) -> std::io::Result<()> {
        Err(std::io::Error::from(ErrorKind::StorageFull))
    }
    fn rename(&self, from: &Path, to: &Path) -> std::io::Result<()> {
        RealFiles.rename(from, to)
    }
    fn remove(&self, path: &Path) -> std::io::Result<()> {
        RealFiles.remove(path)
    }
}

#[test]
fn a_full_disk_while_rewriting_is_a_clear_error_and_loses_nothing() {
    let (_tmp, root) = novel_with_ticks(2);
    std::fs::remove_file(root.join("scenes/scene_002.md")).unwrap();
    let scene_1 = std::fs::read(root.join("scenes/scene_001.md")).unwrap();
    let novel = Novel::open(&root, Access::Read).unwrap();
    let before = store::dump_story(novel.store().conn()).unwrap();

    let err = reconcile_with(&root, novel.store().conn(), &FullDisk).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("scene_002.md"), "{msg}");
    assert!(msg.contains("The disk is full: free some space"), "{msg}");
    assert!(msg.contains("novel.db still holds every scene"), "{msg}");
    assert_eq!(
        std::fs::read(root.join("scenes/scene_001.md")).unwrap(),
        scene_1
    );
    assert_eq!(store::dump_story(novel.store().conn()).unwrap(), before);

    // Space again: the next open writes the missing file.
    drop(novel);
    let novel = open(&root);
    assert_eq!(novel.last_reconcile().scenes_written, vec![2]);
}
