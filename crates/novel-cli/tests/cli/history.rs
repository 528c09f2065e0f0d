//! The writer's history commands through the real `novel` binary against the local
//! OpenAI-format server: rewind (the later scenes become a branch), branches, versions with a
//! diff and a restore, regenerate, `tick --dry-run` and `tick --review` answered on stdin.

use crate::common;

use common::story::*;
use common::*;
use serde_json::Value;

fn json_of(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout_of(cmd)).unwrap()
}

fn scene_file(s: &Setup, tick: u32) -> Option<String> {
    std::fs::read_to_string(s.dir.join(format!("scenes/scene_{tick:03}.md"))).ok()
}

#[test]
fn rewind_then_switch_back_to_the_branch_holding_the_later_scenes() {
    let s = setup(clean_script());
    s.novel().args(["run", "--n", "3"]).assert().success();
    let after_three = s.story_fingerprint();
    let out = stdout_of(s.novel().args(["rewind", "--to", "1"]));
    assert!(out.contains("main (scenes 2–3)"), "{out}");
    assert_eq!(s.status()["current_tick"], 1);
    assert!(
        scene_file(&s, 2).is_none(),
        "the folder mirrors the current branch"
    );
    let branches = json_of(s.novel().args(["--json", "branch", "list"]));
    assert_eq!(branches[0]["name"], "main");
    assert_eq!(branches[0]["current"], true);
    assert_eq!(branches[1]["tick"], 3);
    s.novel()
        .args(["branch", "switch", "main (scenes 2–3)"])
        .assert()
        .success();
    assert_eq!(s.story_fingerprint(), after_three);
    assert!(
        scene_file(&s, 3)
            .unwrap()
            .contains("Bells Before the Storm")
    );
    let compare = json_of(s.novel().args(["--json", "branch", "compare", "2"]));
    assert!(
        compare[0]["scene"].is_null(),
        "main ends at scene 1: {compare}"
    );
    assert_eq!(compare[1]["current"], true);
}

#[test]
fn versions_diff_and_restore() {
    let s = setup(clean_script());
    s.novel().arg("tick").assert().success();
    let mut edit = s.novel();
    edit.args(["--json", "inspect", "S0"]);
    let scene = json_of(&mut edit);
    let original = scene["record"]["prose"].as_str().unwrap().to_string();
    // An edit through the engine (the app and `novel edit` use the same function).
    let dir = s.dir.clone();
    let mut novel = novel_core::novel::Novel::open(&dir, novel_core::novel::Access::Write).unwrap();
    novel_core::edits::edit_scene_prose(
        &mut novel,
        1,
        &original.replace("Rain", "Sleet"),
        &novel_core::clock::SystemClock,
    )
    .unwrap();
    drop(novel);
    let listed = stdout_of(s.novel().args(["versions", "1"]));
    assert!(
        listed.contains("revision") && listed.contains("edit"),
        "{listed}"
    );
    let diff = stdout_of(s.novel().args(["versions", "1", "--diff", "1", "2"]));
    assert!(diff.contains("[-Rain-]{+Sleet+}"), "{diff}");
    s.novel()
        .args(["restore-version", "1", "1"])
        .assert()
        .success();
    assert!(scene_file(&s, 1).unwrap().contains("Rain had found"));
    let versions = json_of(s.novel().args(["--json", "versions", "1"]));
    assert_eq!(versions["versions"].as_array().unwrap().len(), 3);
    assert_eq!(versions["versions"][2]["origin"], "restore");
}

#[test]
fn regenerate_writes_the_latest_scene_again_and_keeps_the_old_one() {
    let s = setup(clean_script());
    s.novel().args(["run", "--n", "2"]).assert().success();
    let calls = s.server.request_count();
    let out = stdout_of(
        s.novel()
            .args(["regenerate", "--note", "Make it rain harder"]),
    );
    assert!(out.contains("Scene 2 written again"), "{out}");
    assert_eq!(s.server.request_count(), calls + 3);
    let plan_request = &s.server.requests()[calls];
    assert!(
        plan_request
            .body
            .to_string()
            .contains("Make it rain harder"),
        "the note reaches the planner"
    );
    assert_eq!(s.status()["current_tick"], 2);
    let versions = json_of(s.novel().args(["--json", "versions", "2"]));
    let origins: Vec<&str> = versions["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["revision", "regeneration"]);
}

#[test]
fn dry_run_prints_the_plan_and_changes_nothing() {
    let s = setup(clean_script());
    let before = s.story_fingerprint();
    let out = stdout_of(s.novel().args(["tick", "--dry-run"]));
    assert!(
        out.contains("Tamsin persuades a dockhand") && out.contains("dry run"),
        "{out}"
    );
    assert_eq!(s.server.request_count(), 1, "the planner only");
    assert_eq!(s.story_fingerprint(), before);
    assert!(scene_file(&s, 1).is_none());
}

#[test]
fn review_on_the_terminal_leaves_out_an_unticked_change() {
    let s = setup(clean_script());
    // Accept the plan, untick the first memory change (C0's new emotional state), accept.
    s.novel()
        .args(["tick", "--review"])
        .write_stdin("a\nu 0\na\n")
        .assert()
        .success();
    let c0 = json_of(s.novel().args(["--json", "inspect", "C0"]));
    assert_ne!(c0["record"]["emotional_state"], "wary", "{c0}");
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn rejecting_in_review_writes_nothing() {
    let s = setup(clean_script());
    let before = s.story_fingerprint();
    let err = stderr_of_failure(s.novel().args(["tick", "--review"]).write_stdin("a\nr\n"));
    assert!(err.contains("rejected"), "{err}");
    assert_eq!(s.story_fingerprint(), before);
}
