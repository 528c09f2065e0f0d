//! Durability through the real `novel` binary: `novel backup` and `novel restore`, a damaged
//! database refused by every command with the newest good backup named, a broken `novel.toml`
//! named with its line, files lost after a commit rewritten by the next command, and backups
//! that hold no secret.

use crate::common;

use common::story::*;
use common::*;
use serde_json::Value;

fn backups(s: &Setup) -> Vec<Value> {
    let out = stdout_of(s.novel().args(["--json", "backup", "--list"]));
    serde_json::from_str::<Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn backup_then_restore_brings_the_story_and_its_files_back() {
    let s = setup(clean_script());
    stdout_of(s.novel().args(["run", "--n", "2"]));
    let out = stdout_of(s.novel().args(["backup", "--verify"]));
    assert!(out.contains("Backed up tick 2 to"), "{out}");
    assert!(out.contains("integrity_check: ok"), "{out}");
    let listed = backups(&s);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["tick"], 2);
    let at_two = s.story_fingerprint();

    stdout_of(s.novel().args(["run", "--n", "1"]));
    assert_eq!(s.status()["current_tick"], 3);
    let out = stdout_of(s.novel().args(["restore", "--latest"]));
    assert!(out.contains("Restored tick 2 from"), "{out}");
    assert!(out.contains("novel.db.before-restore-"), "{out}");
    assert!(
        out.contains("moved"),
        "the later scene is moved aside: {out}"
    );
    assert_eq!(s.status()["current_tick"], 2);
    assert_eq!(s.story_fingerprint(), at_two);
    assert!(!s.dir.join("scenes/scene_003.md").exists());
    assert!(s.dir.join("scenes/.orphaned/scene_003.md").is_file());

    // The story goes on from the restored tick.
    let out = stdout_of(s.novel().args(["run", "--n", "1"]));
    assert!(out.contains("Tick 3:"), "{out}");
    assert!(s.dir.join("scenes/scene_003.md").is_file());
}

#[test]
fn restore_needs_a_file_or_latest() {
    let (_tmp, dir) = new_novel();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("restore"));
    assert!(err.contains("--latest"), "{err}");
}

#[test]
fn a_damaged_database_is_refused_by_every_command_and_names_the_backup() {
    let s = setup(clean_script());
    stdout_of(s.novel().args(["run", "--n", "1"]));
    stdout_of(s.novel().arg("backup"));
    let backup = backups(&s)[0]["path"].as_str().unwrap().to_string();
    let db = s.dir.join("novel.db");
    let mut bytes = std::fs::read(&db).unwrap();
    for b in &mut bytes[4096 * 2..4096 * 4] {
        *b = 0x5A;
    }
    std::fs::write(&db, &bytes).unwrap();

    for args in [vec!["run", "--n", "1"], vec!["backup"], vec!["reindex"]] {
        let err = stderr_of_failure(s.novel().args(&args));
        assert!(err.contains("is damaged"), "{args:?}: {err}");
        assert!(err.contains("novel restore --latest"), "{args:?}: {err}");
        assert!(err.contains(&backup), "{args:?}: {err}");
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        bytes,
        "nothing was written to it"
    );
    assert_eq!(s.server.request_count(), 3, "no tick was attempted");

    let out = stdout_of(s.novel().args(["restore", "--latest"]));
    assert!(out.contains("Restored tick 1"), "{out}");
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn an_empty_database_file_does_not_become_an_empty_novel() {
    let (_tmp, dir) = new_novel();
    std::fs::write(dir.join("novel.db"), "").unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("status"));
    assert!(err.contains("empty (0 bytes)"), "{err}");
    assert_eq!(std::fs::metadata(dir.join("novel.db")).unwrap().len(), 0);
}

#[test]
fn a_broken_novel_toml_is_named_with_its_line_and_what_to_do() {
    let (_tmp, dir) = new_novel();
    let config = dir.join("novel.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replacen("title = ", "title = = ", 1)).unwrap();
    let db_before = std::fs::read(dir.join("novel.db")).unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("status"));
    assert!(err.contains(&config.display().to_string()), "{err}");
    assert!(err.contains("line "), "{err}");
    assert!(err.contains("Edit"), "{err}");
    assert_eq!(std::fs::read(dir.join("novel.db")).unwrap(), db_before);
}

#[test]
fn missing_novel_toml_and_scenes_are_handled() {
    let s = setup(clean_script());
    stdout_of(s.novel().args(["run", "--n", "2"]));
    let scene_1 = std::fs::read_to_string(s.dir.join("scenes/scene_001.md")).unwrap();

    // scenes/ and plans/ gone: the next command that opens for writing writes them again.
    std::fs::remove_dir_all(s.dir.join("scenes")).unwrap();
    std::fs::remove_dir_all(s.dir.join("plans")).unwrap();
    let out = s.novel().arg("backup").output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("rewrote the scene files of tick(s) 1, 2 from novel.db"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(s.dir.join("scenes/scene_001.md")).unwrap(),
        scene_1
    );
    assert!(s.dir.join("plans/plan_002.json").is_file());

    // novel.toml gone: named, with the minimal text to write, the story untouched.
    let before = s.story_fingerprint();
    std::fs::rename(s.dir.join("novel.toml"), s.tmp.path().join("saved.toml")).unwrap();
    let err = stderr_of_failure(s.novel().args(["run", "--n", "1"]));
    assert!(err.contains("novel.toml is missing"), "{err}");
    assert!(err.contains("[novel]"), "{err}");
    assert_eq!(s.story_fingerprint(), before);
}

#[test]
fn backups_and_the_novel_folder_hold_no_secret() {
    const KEY_VAR: &str = "NOVEL_DURABILITY_TEST_API_KEY";
    const KEY: &str = "sk-durability-test-9f8e7d6c5b4a";
    let s = setup(clean_script());
    let providers = s.config.join("providers.toml");
    let text = std::fs::read_to_string(&providers).unwrap();
    std::fs::write(
        &providers,
        text.replace(
            "model = \"test-model\"\n",
            &format!("model = \"test-model\"\napi_key_env = \"{KEY_VAR}\"\n"),
        ),
    )
    .unwrap();
    stdout_of(s.novel().env(KEY_VAR, KEY).args(["run", "--n", "2"]));
    let sent = s.server.requests()[0]
        .header("authorization")
        .unwrap_or_default()
        .to_string();
    assert!(sent.contains(KEY), "the key was really used: {sent}");
    stdout_of(s.novel().env(KEY_VAR, KEY).args(["backup", "--verify"]));

    // Every environment value that looks like a credential, plus the key the run used.
    let mut secrets: Vec<String> = std::env::vars()
        .filter(|(name, value)| {
            let name = name.to_ascii_uppercase();
            ["KEY", "TOKEN", "SECRET", "PASSWORD"]
                .iter()
                .any(|w| name.contains(w))
                && value.len() >= 8
        })
        .map(|(_, value)| value)
        .collect();
    secrets.push(KEY.to_string());
    let mut checked = 0;
    for file in walk(&s.dir) {
        let bytes = std::fs::read(&file).unwrap();
        for secret in &secrets {
            assert!(
                !contains(&bytes, secret.as_bytes()),
                "{} holds a secret",
                file.display()
            );
        }
        checked += 1;
    }
    assert!(
        walk(&s.dir)
            .iter()
            .any(|f| f.starts_with(s.dir.join("backups"))),
        "a backup was among the files checked"
    );
    assert!(checked > 5, "{checked}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
