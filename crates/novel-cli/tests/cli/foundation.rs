//! The foundation CLI, end to end through the real binary: `new`, `status`, `list`, `inspect`,
//! `export`, `reindex`, and every bad input the foundation promises a clear error for.

use crate::common;

use common::*;

#[test]
fn new_creates_the_documented_layout() {
    let (_tmp, dir) = new_novel();
    for file in ["novel.toml", "novel.db"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    for sub in ["scenes", "plans", "errors", "exports"] {
        assert!(dir.join(sub).is_dir(), "{sub}/ missing");
    }
    let toml = std::fs::read_to_string(dir.join("novel.toml")).unwrap();
    assert!(toml.contains("title = \"Salt and Iron\""));
    assert!(toml.contains("max_tools_per_tick = 3") && toml.contains("recent_scenes_count = 3"));
    assert!(
        !toml.to_lowercase().contains("key"),
        "no secrets in novel.toml"
    );
}

#[test]
fn status_list_and_inspect_show_the_seeded_story() {
    let (_tmp, dir) = new_novel();
    let status = stdout_of(novel().arg("-C").arg(&dir).arg("status"));
    assert!(
        status.contains("Salt and Iron") && status.contains("tick: 0"),
        "{status}"
    );
    assert!(status.contains("Tamsin Vale (C0)"), "{status}");
    assert!(status.contains("Clear her brother's name"), "{status}");

    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        novel().arg("-C").arg(&dir).args(["--json", "status"]),
    ))
    .unwrap();
    assert_eq!(json["current_tick"], 0);
    assert_eq!(json["active_character"], "C0");

    let chars = stdout_of(novel().arg("-C").arg(&dir).args(["list", "characters"]));
    assert!(
        chars.contains("C0") && chars.contains("Tamsin Vale") && chars.contains("smuggler"),
        "{chars}"
    );
    let locs = stdout_of(novel().arg("-C").arg(&dir).args(["list", "locations"]));
    assert!(
        locs.contains("L0") && locs.contains("Rainmarket Docks"),
        "{locs}"
    );
    let loops = stdout_of(novel().arg("-C").arg(&dir).args(["list", "loops"]));
    assert!(
        loops.contains("O0") && loops.contains("critical"),
        "{loops}"
    );
    let scenes = stdout_of(novel().arg("-C").arg(&dir).args(["list", "scenes"]));
    assert!(scenes.contains("no scenes yet"), "{scenes}");

    let inspect: serde_json::Value = serde_json::from_str(&stdout_of(
        novel()
            .arg("-C")
            .arg(&dir)
            .args(["--json", "inspect", "C0"]),
    ))
    .unwrap();
    assert_eq!(inspect["record"]["last_location"], "L0");
    assert_eq!(inspect["record"]["inventory"][0], "rusted dagger");
    assert_eq!(inspect["history"][0]["change"], "created");
    assert_eq!(inspect["history"][0]["source"], "seed");
}

#[test]
fn export_writes_the_manuscript_with_title_and_scenes_in_order() {
    let (tmp, dir) = new_novel();
    // Scenes arrive with the story tick; insert two directly to check ordering and escaping.
    {
        let conn = rusqlite::Connection::open(dir.join("novel.db")).unwrap();
        for (tick, title, prose) in [
            (2, "The Gate", "Second scene. <script>alert(1)</script>"),
            (1, "Low Tide", "First scene, where a < b."),
        ] {
            conn.execute(
                "INSERT INTO scenes (id, tick, title, prose, word_count, summary, created_at)
                 VALUES (?1, ?2, ?3, ?4, 3, '[]', '2026-01-01T00:00:00Z')",
                rusqlite::params![format!("S{tick}"), tick, title, prose],
            )
            .unwrap();
        }
    }
    let out = tmp.path().join("out/manuscript.md");
    novel()
        .arg("-C")
        .arg(&dir)
        .args(["export", "--format", "md", "-o"])
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        md,
        "# Salt and Iron\n\n## Chapter 1: Low Tide\n\n### Low Tide\n\nFirst scene, where a < b.\n\n### The Gate\n\nSecond scene. &lt;script>alert(1)&lt;/script>\n"
    );
    let default = stdout_of(
        novel()
            .arg("-C")
            .arg(&dir)
            .args(["export", "--format", "md"]),
    );
    assert!(default.contains("exports/salt-and-iron.md"), "{default}");
    assert!(dir.join("exports/salt-and-iron.md").is_file());
}

#[test]
fn a_directory_that_is_not_a_novel_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(tmp.path()).arg("status"));
    assert!(
        err.contains("is not a novel") && err.contains("novel new"),
        "{err}"
    );
    let err = stderr_of_failure(novel().arg("-C").arg(tmp.path().join("nope")).arg("status"));
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn an_invalid_novel_toml_names_the_file_and_the_problem() {
    let (_tmp, dir) = new_novel();
    let path = dir.join("novel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("target_words_min = 500", "target_words_min = 5000"),
    )
    .unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("status"));
    assert!(
        err.contains("novel.toml") && err.contains("target_words_min"),
        "{err}"
    );
    std::fs::write(&path, "[novel\ntitle = ").unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("status"));
    assert!(err.contains("novel.toml is not valid"), "{err}");
}

#[test]
fn a_database_from_a_newer_version_is_refused() {
    let (_tmp, dir) = new_novel();
    rusqlite::Connection::open(dir.join("novel.db"))
        .unwrap()
        .pragma_update(None, "user_version", 42)
        .unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("status"));
    assert!(
        err.contains("novel.db")
            && err.contains("newer version")
            && err.contains("schema version 42"),
        "{err}"
    );
}

#[test]
fn bad_new_inputs_say_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let err = stderr_of_failure(
        novel()
            .arg("new")
            .arg(tmp.path().join("a"))
            .args(["--title", "T"]),
    );
    assert!(
        err.contains("--protagonist") && err.contains("--location") && err.contains("--goal"),
        "{err}"
    );

    std::fs::write(tmp.path().join("taken.txt"), "x").unwrap();
    let err = stderr_of_failure(
        novel()
            .arg("new")
            .arg(tmp.path())
            .arg("--seed")
            .arg(fixture("seed.toml")),
    );
    assert!(err.contains("not empty"), "{err}");

    let bad_seed = tmp.path().join("bad.toml");
    std::fs::write(
        &bad_seed,
        std::fs::read_to_string(fixture("seed.toml"))
            .unwrap()
            .replace("role =", "rol ="),
    )
    .unwrap();
    let err = stderr_of_failure(
        novel()
            .arg("new")
            .arg(tmp.path().join("b"))
            .arg("--seed")
            .arg(&bad_seed),
    );
    assert!(err.contains("bad.toml") && err.contains("rol"), "{err}");
    assert!(
        !tmp.path().join("b").exists(),
        "a failed `new` leaves nothing behind"
    );

    let err = stderr_of_failure(
        novel()
            .arg("new")
            .arg(tmp.path().join("c"))
            .arg("--seed")
            .arg(fixture("seed.toml"))
            .args(["--pov", "second"]),
    );
    assert!(
        err.contains("second") && err.contains("deep-third, first"),
        "clap names the choices: {err}"
    );
}

#[test]
fn inspect_rejects_bad_and_unknown_ids() {
    let (_tmp, dir) = new_novel();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).args(["inspect", "../C0"]));
    assert!(err.contains("not a valid id"), "{err}");
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).args(["inspect", "C7"]));
    assert!(
        err.contains("no character C7") && err.contains("novel list characters"),
        "{err}"
    );
}

#[test]
fn a_second_writer_process_is_refused_while_the_first_holds_the_novel() {
    let (_tmp, dir) = new_novel();
    // This test process is the first writer; the `novel` binary is the second process.
    let held = novel_core::novel::Novel::open(&dir, novel_core::novel::Access::Write).unwrap();
    let err = stderr_of_failure(novel().arg("-C").arg(&dir).arg("reindex"));
    assert!(err.contains("open elsewhere"), "{err}");
    assert!(
        err.contains(&format!("process {}", std::process::id())),
        "{err}"
    );
    // Readers are not blocked by a writer.
    novel().arg("-C").arg(&dir).arg("status").assert().success();
    drop(held);
    let out = stdout_of(novel().arg("-C").arg(&dir).arg("reindex"));
    // A new novel: its protagonist, its place and its goal, one passage each.
    assert!(out.contains("Indexed 3 passages"), "{out}");
}
