//! `novel audit` through the real binary: three real ticks against the test server whose
//! extractor judges each scene's plan (realized, not, partly), then the report as text and as
//! JSON, for the book and for a range; a range that runs backwards is refused in words.

use novel_test_server::{Reply, Rule, Script};
use serde_json::Value;

use crate::common::story::*;
use crate::common::*;

/// The extractor judges scene 1 realized, scene 2 not and scene 3 partly; each request is
/// told apart by the plan the extraction prompt shows (a revised scene is judged again alike).
fn judged_script() -> Script {
    let extractions: Vec<Value> = serde_json::from_str(&story_fixture("extractions.json")).unwrap();
    let judged = |i: usize, verdict: Value| {
        let mut e = extractions[i].clone();
        e["plan_verdict"] = verdict;
        Reply::text(e.to_string())
    };
    Script::new()
        .rule(
            Rule::when("The scene's plan\\nBram shows Tamsin").reply(judged(
                1,
                serde_json::json!({"verdict": "not", "missed": ["they never reach the Salt Gate"]}),
            )),
        )
        .rule(
            Rule::when("The scene's plan\\nThe tide bells warn").reply(judged(
                2,
                serde_json::json!({"verdict": "partial", "missed": "no storm bells"}),
            )),
        )
        .rule(Rule::when(EXTRACTION).reply(judged(0, serde_json::json!({"verdict": "realized"}))))
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))))
}

#[test]
fn the_audit_reports_each_scenes_plan_as_the_extractor_judged_it() {
    let s = setup(judged_script());
    s.novel().args(["run", "--n", "3"]).assert().success();

    let report: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "audit"]))).unwrap();
    assert_eq!(
        (report["from"].as_u64(), report["to"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(report["used_model"], false);
    let plans: Vec<&str> = report["scene_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["plan"].as_str().unwrap())
        .collect();
    assert_eq!(plans, ["realized", "not", "partly"]);
    let plan = &report["criteria"][0];
    assert_eq!(plan["key"], "plan");
    let failures = plan["failures"].as_array().unwrap();
    let not = failures
        .iter()
        .find(|f| f["kind"] == "plan_not_realized")
        .unwrap();
    assert_eq!(not["scenes"][0]["scene"], 2);
    assert!(
        not["why"]
            .as_str()
            .unwrap()
            .contains("they never reach the Salt Gate"),
        "{not}"
    );
    let keys: Vec<&str> = report["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "plan",
            "beats",
            "loops",
            "stalls",
            "entities",
            "contradictions",
            "pov",
            "voice",
            "tension",
            "repetition",
            "cost"
        ]
    );
    let calls: u64 = report["scene_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["calls"].as_u64().unwrap())
        .sum();
    let cost = report["criteria"][10]["measure"].as_str().unwrap();
    assert!(
        calls >= 9 && cost.starts_with(&format!("{calls} calls")),
        "{cost}"
    );

    let text = stdout_of(s.novel().args(["audit", "--from", "2", "--to", "2"]));
    assert!(text.contains("audit of scenes 2–2"), "{text}");
    assert!(text.contains("Scenes do what they set out to do"), "{text}");
    assert!(text.contains("scene 2 “"), "{text}");
    assert!(!text.contains("tick"), "writer's words only:\n{text}");

    let refused = stderr_of_failure(s.novel().args(["audit", "--from", "3", "--to", "1"]));
    assert!(refused.contains("scene 3 comes after scene 1"), "{refused}");
}

#[test]
fn audit_judge_asks_the_extractor_about_scenes_written_before_verdicts_were_kept() {
    let s = setup(judged_script());
    s.novel().args(["run", "--n", "3"]).assert().success();
    // As a book written before the tick recorded verdicts: none kept.
    s.db().execute("DELETE FROM plan_verdicts", []).unwrap();
    let unjudged: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "audit"]))).unwrap();
    assert!(
        unjudged["scene_rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["plan"] == "not_judged"),
        "{}",
        unjudged["scene_rows"]
    );

    let said = stdout_of(s.novel().args(["audit", "--judge"]));
    assert!(
        said.contains("Judged 3 scene(s) against their plans (3 model call(s))"),
        "{said}"
    );
    let judged: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "audit"]))).unwrap();
    let plans: Vec<&str> = judged["scene_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["plan"].as_str().unwrap())
        .collect();
    assert_eq!(plans, ["realized", "not", "partly"]);
    let by: Vec<String> = s
        .db()
        .prepare("SELECT judged_by FROM plan_verdicts ORDER BY tick")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(by, ["audit", "audit", "audit"]);

    // Judged once: a second pass asks nothing.
    let again = stdout_of(s.novel().args(["audit", "--judge"]));
    assert!(again.contains("Judged 0 scene(s)"), "{again}");
}
