//! The story bible from the command line: the writer edits records, adds lore and loops, sets
//! the author's note, the outline and the pressure — and the next prompt shows them.

use crate::common;

use common::*;
use serde_json::Value;

fn json_of(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout_of(cmd)).unwrap()
}

fn in_novel(dir: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = novel();
    cmd.arg("-C").arg(dir);
    cmd
}

#[test]
fn edits_and_additions_reach_memory_and_the_next_prompt() {
    let (_tmp, dir) = new_novel();
    in_novel(&dir)
        .args([
            "edit",
            "C0",
            "--set",
            "emotional_state=cornered",
            "--set",
            "arc.want=her brother home",
        ])
        .assert()
        .success();
    let c0 = json_of(in_novel(&dir).args(["--json", "inspect", "C0"]));
    assert_eq!(c0["record"]["emotional_state"], "cornered");
    // The codex's history in plain words, the writer's change marked as theirs.
    let in_words = c0["in_words"].as_array().unwrap();
    assert_eq!(in_words[0]["text"], "In the story from the start.");
    assert!(
        in_words
            .iter()
            .any(|l| l["text"] == "Became cornered at the start." && l["yours"] == true),
        "{c0}"
    );
    let text = stdout_of(in_novel(&dir).args(["inspect", "C0"]));
    assert!(
        text.contains("In plain words:\n  In the story from the start."),
        "{text}"
    );
    assert!(
        text.contains("Named in no scene (looked for Tamsin Vale, Tamsin)."),
        "{text}"
    );
    assert!(
        c0["history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["source"] == "writer"),
        "{c0}"
    );
    let added = json_of(in_novel(&dir).args([
        "--json",
        "add",
        "lore",
        "--set",
        "fact=The tide bells ring thirteen times when the harbour court sits.",
        "--set",
        "always_on=true",
    ]));
    let lore_id = added["id"].as_str().unwrap().to_string();
    in_novel(&dir)
        .args(["note", "set", "Never name the sea."])
        .assert()
        .success();
    in_novel(&dir)
        .args(["outline", "add", "Tamsin finds her name on the slate."])
        .assert()
        .success();
    in_novel(&dir)
        .args([
            "pressure",
            "add-clock",
            "--name",
            "The watch",
            "--max",
            "10",
            "--per-tick",
            "1",
            "--threshold",
            "8:the harbor is sealed",
        ])
        .assert()
        .success();
    let prompt = stdout_of(in_novel(&dir).args(["context", "--next", "--show"]));
    for expected in [
        "thirteen times",
        "Never name the sea.",
        "Next beat (B0): Tamsin finds her name",
        "The watch (P0): 0/10",
    ] {
        assert!(
            prompt.contains(expected),
            "{expected} missing from:\n{prompt}"
        );
    }
    in_novel(&dir)
        .args(["forget-lore", &lore_id])
        .assert()
        .success();
    let prompt = stdout_of(in_novel(&dir).args(["context", "--next", "--show"]));
    assert!(!prompt.contains("thirteen times"));
}

#[test]
fn loops_foundation_and_bad_input() {
    let (_tmp, dir) = new_novel();
    in_novel(&dir)
        .args(["loop", "abandon", "O0", "--note", "she gives up"])
        .assert()
        .success();
    let loops = json_of(in_novel(&dir).args(["--json", "list", "loops"]));
    assert!(loops.to_string().contains("abandoned"), "{loops}");
    in_novel(&dir)
        .args(["loop", "reopen", "O0"])
        .assert()
        .success();
    let f = json_of(in_novel(&dir).args([
        "--json",
        "foundation",
        "--themes",
        "loyalty, debt",
        "--goal",
        "Free her brother",
    ]));
    assert_eq!(f["themes"], serde_json::json!(["loyalty", "debt"]));
    let toml = std::fs::read_to_string(dir.join("novel.toml")).unwrap();
    assert!(toml.contains("loyalty"), "{toml}");
    let err = stderr_of_failure(in_novel(&dir).args(["edit", "C0", "--set", "status=undead"]));
    assert!(err.contains("status"), "{err}");
    let err = stderr_of_failure(in_novel(&dir).args(["edit", "C0", "--set", "oops"]));
    assert!(err.contains("field=value"), "{err}");
    let err =
        stderr_of_failure(in_novel(&dir).args(["pressure", "add-event", "--at", "0", "too late"]));
    assert!(err.contains("already written"), "{err}");
}

#[test]
fn an_edited_scene_is_re_read_and_its_memory_follows() {
    use common::story::*;
    let s = setup(clean_script());
    s.novel().args(["run", "--n", "2"]).assert().success();
    let draft = s.tmp.path().join("draft.md");
    std::fs::write(&draft, story_fixture("prose.txt").replace("Rain", "Sleet")).unwrap();
    s.novel()
        .args(["edit-scene", "1"])
        .arg(&draft)
        .assert()
        .success();
    let calls = s.server.request_count();
    let shown = stdout_of(s.novel().args(["reread", "1"]));
    assert!(shown.contains("Nothing applied"), "{shown}");
    let applied = stdout_of(s.novel().args(["reread", "1", "--accept"]));
    assert!(applied.contains("Applied"), "{applied}");
    assert_eq!(
        s.server.request_count(),
        calls + 2,
        "one extraction call per reread"
    );
    let scenes: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "list", "scenes"]))).unwrap();
    assert_eq!(scenes[0]["title"], "Bells Before the Storm", "{scenes}");
    let versions: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "versions", "1"]))).unwrap();
    assert_eq!(versions["versions"].as_array().unwrap().len(), 2);
}

#[test]
fn places_are_connected_and_disconnected_and_a_bad_pair_says_why() {
    let (_tmp, dir) = new_novel();
    let gate =
        json_of(in_novel(&dir).args(["--json", "add", "location", "--set", "name=Salt Gate"]));
    let gate = gate["id"].as_str().unwrap().to_string();
    in_novel(&dir)
        .args(["connect", "L0", &gate, "--way", "a flooded stair"])
        .assert()
        .success();
    let l0 = json_of(in_novel(&dir).args(["--json", "inspect", "L0"]));
    assert_eq!(
        l0["record"]["connections"],
        serde_json::json!([gate]),
        "{l0}"
    );
    let err = stderr_of_failure(in_novel(&dir).args(["connect", &gate, "L0"]));
    assert!(err.contains("already connected"), "{err}");
    let err = stderr_of_failure(in_novel(&dir).args(["connect", "L0", "L0"]));
    assert!(err.contains("cannot connect to itself"), "{err}");
    in_novel(&dir)
        .args(["connect", &gate, "L0", "--remove"])
        .assert()
        .success();
    let l0 = json_of(in_novel(&dir).args(["--json", "inspect", "L0"]));
    assert_eq!(l0["record"]["connections"], serde_json::json!([]), "{l0}");
}
