//! A novel is private to its owner, whatever the umask: a new novel's folder and every folder
//! in it 0700; `novel.db` (and so its WAL), `novel.toml`, the lock, scene files, backups and
//! error logs 0600.

use std::cell::RefCell;
use std::os::unix::fs::PermissionsExt;

use novel_llm::ScriptedModel;
use serde_json::json;

use super::*;
use crate::layout::{
    BACKUPS_DIR, CONFIG_FILE, DB_FILE, ERRORS_DIR, EXPORTS_DIR, LOCK_FILE, PLANS_DIR, SCENES_DIR,
};
use crate::tick::tests::{PROSE, clock, novel, tick};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn a_new_novel_its_backups_and_its_error_logs_are_owner_only() {
    let (_tmp, mut novel) = novel();
    let root = novel.root().to_path_buf();
    assert_eq!(mode(&root), 0o700, "the novel's folder");
    for sub in [SCENES_DIR, PLANS_DIR, ERRORS_DIR, EXPORTS_DIR] {
        assert_eq!(mode(&root.join(sub)), 0o700, "{sub}");
    }
    for file in [DB_FILE, CONFIG_FILE, LOCK_FILE] {
        assert_eq!(mode(&root.join(file)), 0o600, "{file}");
    }
    let wal = root.join(format!("{DB_FILE}-wal"));
    if wal.exists() {
        assert_eq!(mode(&wal), 0o600, "the WAL");
    }

    let taken = backup::take(novel.store().conn(), &root, None, &clock()).unwrap();
    assert_eq!(mode(&root.join(BACKUPS_DIR)), 0o700);
    assert_eq!(mode(&taken.path), 0o600, "the backup");

    // A failed tick's error files.
    let plan = json!({"rationale": "Breathe.", "scene_intention": "Tamsin waits out the rain.",
                      "pov_character": "C0", "target_location": "L0", "actions": []});
    let model = ScriptedModel::new().reply_json(&plan).reply("").reply("");
    let events = RefCell::new(Vec::new());
    tick(&mut novel, &model, &events).await.unwrap_err();
    for file in ["error_001.json", "error_001.log"] {
        assert_eq!(mode(&root.join(ERRORS_DIR).join(file)), 0o600, "{file}");
    }
    // A scene file.
    crate::files::write_scene(&root, 1, "Low Tide", &[], PROSE).unwrap();
    assert_eq!(mode(&crate::files::scene_path(&root, 1)), 0o600);
}
