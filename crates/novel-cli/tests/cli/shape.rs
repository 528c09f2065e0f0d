//! Shaping the book by hand from the command line, on a novel whose scenes came from real ticks
//! against the test server: a scene added between 2 and 3 from a file, moved, split and merged,
//! a chapter renamed, a scene deleted and brought back by `novel undo` — the scene list, the
//! files and the Markdown export agree after each step.

use crate::common;

use common::story::{Setup, clean_script, setup};
use common::*;

fn titles(s: &Setup) -> Vec<String> {
    let out = stdout_of(s.novel().args(["--json", "list", "scenes"]));
    let scenes: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    scenes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            assert_eq!(s["tick"], i + 1, "scenes are numbered by place");
            s["title"].as_str().unwrap().to_string()
        })
        .collect()
}

fn export(s: &Setup) -> String {
    let out = stdout_of(s.novel().args(["--json", "export", "--format", "md"]));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    std::fs::read_to_string(json["path"].as_str().unwrap()).unwrap()
}

/// The scene headings of the Markdown export, in order.
fn exported_titles(md: &str) -> Vec<String> {
    md.lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_scene_added_between_two_and_three_moves_and_a_deleted_one_comes_back_with_undo() {
    let s = setup(clean_script());
    s.novel().args(["run", "-n", "3"]).assert().success();
    let before = titles(&s);
    assert_eq!(before.len(), 3);

    let file = s.dir.join("tide.md");
    std::fs::write(
        &file,
        "Tamsin read the tide table twice.\n\nThen she went down.",
    )
    .unwrap();
    let out = stdout_of(s.novel().args([
        "scene",
        "add",
        "--title",
        "The Tide Table",
        file.to_str().unwrap(),
        "--after",
        "2",
    ]));
    assert!(out.contains("scene 3 added"), "{out}");
    // The list says who wrote a scene when the agent did not.
    let list = stdout_of(s.novel().args(["list", "scenes"]));
    let marked: Vec<&str> = list.lines().filter(|l| l.ends_with("by hand")).collect();
    assert_eq!(marked.len(), 1, "{list}");
    assert!(marked[0].contains("The Tide Table"), "{list}");
    assert!(out.contains("`novel reread 3`"), "{out}");
    let now = titles(&s);
    assert_eq!(
        now,
        [&before[..2], &["The Tide Table".to_string()], &before[2..]].concat()
    );
    let scene_file = std::fs::read_to_string(s.dir.join("scenes/scene_003.md")).unwrap();
    assert!(scene_file.starts_with("# The Tide Table"), "{scene_file}");
    assert_eq!(exported_titles(&export(&s)), now);

    let out = stdout_of(s.novel().args(["scene", "move", "3", "--before", "1"]));
    assert!(out.contains("scene 3 moved to 1"), "{out}");
    let moved = titles(&s);
    assert_eq!(moved[0], "The Tide Table");

    stdout_of(s.novel().args(["chapter", "rename", "1", "The Salt Road"]));
    let md = export(&s);
    assert!(md.contains("## Chapter 1: The Salt Road"), "{md}");

    stdout_of(s.novel().args(["scene", "delete", "2"]));
    assert_eq!(titles(&s).len(), 3);
    assert!(!s.dir.join("scenes/scene_004.md").exists());
    let out = stdout_of(s.novel().args(["undo"]));
    assert!(out.contains("Undone: scene 2 deleted"), "{out}");
    assert_eq!(titles(&s), moved);
    assert!(s.dir.join("scenes/scene_004.md").exists());
    assert_eq!(exported_titles(&export(&s)), moved);

    // The agent's own scene is not undone this way.
    for _ in 0..3 {
        s.novel().arg("undo").assert().success();
    }
    assert_eq!(titles(&s), before);
    let err = stderr_of_failure(s.novel().arg("undo"));
    assert!(err.contains("Rewind"), "{err}");
}

#[test]
fn split_merge_and_refusals_speak_the_writers_language() {
    let s = setup(clean_script());
    s.novel().args(["run", "-n", "2"]).assert().success();
    let err = stderr_of_failure(s.novel().args(["scene", "merge", "2"]));
    assert!(err.contains("no next scene"), "{err}");
    let err = stderr_of_failure(s.novel().args(["scene", "move", "1"]));
    assert!(err.contains("--after"), "{err}");
    let err = stderr_of_failure(
        s.novel()
            .args(["scene", "split", "1", "--after-paragraph", "99"]),
    );
    assert!(err.contains("paragraph"), "{err}");

    let out = stdout_of(
        s.novel()
            .args(["scene", "split", "1", "--after-paragraph", "1"]),
    );
    assert!(out.contains("scene 1 split"), "{out}");
    assert_eq!(titles(&s).len(), 3);
    stdout_of(s.novel().args(["scene", "merge", "1"]));
    assert_eq!(titles(&s).len(), 2);
    stdout_of(s.novel().args(["scene", "rename", "2", "Low Water"]));
    assert_eq!(titles(&s)[1], "Low Water");
}

#[test]
fn the_agent_writes_a_scene_between_two_and_three_from_a_note_and_undo_takes_it_out() {
    use common::story::{EXTRACTION, PLAN, replies, story_fixture};
    use novel_test_server::{Reply, Rule, Script};
    // The server fails any request carrying the second note; the rest is the clean story.
    let s = setup(
        Script::new()
            .rule(Rule::when("the lamp room burns").reply(Reply::status(500)))
            .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
            .rule(Rule::when(PLAN).replies(replies("plans.json")))
            .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt")))),
    );
    s.novel().args(["run", "-n", "3"]).assert().success();
    let before = titles(&s);

    let out = stdout_of(s.novel().args([
        "scene",
        "write",
        "--after",
        "2",
        "Tamsin finds the tide table in the lamp room.",
    ]));
    assert!(out.contains("scene 3 written from your note"), "{out}");
    assert!(out.contains("novel reread 3"), "{out}");
    let now = titles(&s);
    assert_eq!(now.len(), 4);
    assert_eq!(now[..2], before[..2]);
    assert_eq!(now[2], "Tamsin finds the tide table in the lamp room");
    assert_eq!(now[3], before[2], "the old scene 3 is scene 4 now");
    let file = std::fs::read_to_string(s.dir.join("scenes/scene_003.md")).unwrap();
    assert!(file.contains("# Tamsin finds the tide table"), "{file}");
    assert_eq!(exported_titles(&export(&s))[2], now[2]);

    // A failed call leaves the book exactly as it was.
    let story = s.story_fingerprint();
    let err = stderr_of_failure(s.novel().args([
        "scene",
        "write",
        "--before",
        "2",
        "Then the lamp room burns.",
    ]));
    assert!(err.contains("the book is unchanged"), "{err}");
    assert_eq!(s.story_fingerprint(), story);
    assert_eq!(titles(&s), now);

    let out = stdout_of(s.novel().arg("undo"));
    assert!(
        out.contains("Undone: scene 3 written from your note"),
        "{out}"
    );
    assert_eq!(titles(&s), before);
}
