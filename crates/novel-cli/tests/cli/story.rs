//! The story tick end to end through the real `novel` binary against a local server speaking
//! the real OpenAI wire format (streaming included): the clean path and every failure path.

use crate::common;

use common::story::*;
use common::*;
use novel_test_server::{Reply, Rule, Script, TestServer};
use serde_json::Value;

#[test]
fn three_ticks_write_a_story_with_three_calls_each() {
    let s = setup(clean_script());
    let out = stdout_of(s.novel().args(["run", "--n", "3"]));
    assert!(
        out.contains("Tick 1: \"Low Tide\"") && out.contains("Tick 3: \"Bells Before the Storm\""),
        "{out}"
    );
    assert_eq!(
        s.server.request_count(),
        9,
        "exactly three LLM calls per tick on the clean path"
    );
    let requests = s.server.requests();
    let streamed = requests.iter().filter(|r| r.is_stream()).count();
    assert_eq!(streamed, 3, "the writer streams");

    for tick in 1..=3 {
        let scene =
            std::fs::read_to_string(s.dir.join(format!("scenes/scene_{tick:03}.md"))).unwrap();
        assert!(
            scene.contains("Rain had found its way under Tamsin's collar"),
            "{scene}"
        );
        let plan: Value = serde_json::from_str(
            &std::fs::read_to_string(s.dir.join(format!("plans/plan_{tick:03}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(plan["tick"], tick);
        assert_eq!(plan["execution"]["success"], true);
    }
    let status = s.status();
    assert_eq!(status["current_tick"], 3);
    assert_eq!(status["scenes"], 3);

    // Entities created by tools and updated by extraction, with history by tick.
    let bram: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "inspect", "C1"]))).unwrap();
    assert_eq!(bram["record"]["name"], "Bram");
    assert_eq!(bram["record"]["inventory"][0], "storm lantern");
    let ticks: Vec<u64> = bram["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["tick"].as_u64().unwrap())
        .collect();
    assert_eq!(ticks.first(), Some(&1));
    assert!(ticks.contains(&2), "{ticks:?}");
    let tamsin: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "inspect", "C0"]))).unwrap();
    assert_eq!(tamsin["record"]["emotional_state"], "wary");
    assert!(
        tamsin["record"]["inventory"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i == "brass key")
    );
    let gate: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "inspect", "L1"]))).unwrap();
    assert_eq!(gate["record"]["tension_level"], 4);
    assert_eq!(gate["record"]["connections"][0], "L0");
    let rel: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "inspect", "R0"]))).unwrap();
    assert_eq!(rel["record"]["status"], "trusting");
    assert!(
        rel["history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["field"] == "event" && h["tick"] == 3)
    );

    // Open loops: opened in tick 1, advanced in 2, resolved in 3.
    let loops: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "list", "loops"]))).unwrap();
    let o1 = loops
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "O1")
        .unwrap();
    assert_eq!(o1["opened_tick"], 1);
    assert_eq!(o1["status"], "resolved");
    assert_eq!(o1["resolved_tick"], 3);
    assert_eq!(s.count("SELECT count(*) FROM lore"), 2);

    // Token usage stored per tick, per role.
    let conn = s.db();
    let mut stmt = conn
        .prepare("SELECT usage FROM ticks ORDER BY tick")
        .unwrap();
    let usages: Vec<Value> = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|u| serde_json::from_str(&u.unwrap()).unwrap())
        .collect();
    assert_eq!(usages.len(), 3);
    for u in usages {
        for role in ["planner", "writer", "extractor"] {
            assert_eq!(u["roles"][role]["calls"], 1, "{u}");
            assert!(
                u["roles"][role]["prompt_tokens"].as_u64().unwrap() > 0,
                "{u}"
            );
        }
    }
    let by_scene = stdout_of(s.novel().args(["summarize", "--by-scene"]));
    assert!(
        by_scene.contains("Scene 2: The Salt Gate") && by_scene.contains("Bram leads Tamsin"),
        "{by_scene}"
    );
    // The synopsis tells the chapter in sentences, the scenes' bullets run together.
    let synopsis = stdout_of(s.novel().arg("summarize"));
    assert!(
        synopsis.contains("(3 scenes")
            && synopsis.contains("Chapter 1: ")
            && synopsis.contains("(scenes 1–3)"),
        "{synopsis}"
    );
    assert!(
        !synopsis.contains("  - ") && synopsis.contains("Bram leads Tamsin"),
        "{synopsis}"
    );
}

fn assert_failed_cleanly(s: &Setup, before: &str, err: &str) {
    assert!(
        err.contains("The story is unchanged") && err.contains("errors/error_001.json"),
        "{err}"
    );
    assert_eq!(
        s.story_fingerprint(),
        before,
        "a failed tick must leave the story exactly as it was"
    );
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(s.dir.join("errors/error_001.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["tick"], 1);
    assert!(
        record["instructions"]
            .as_str()
            .unwrap()
            .contains("novel tick --retry")
    );
    assert!(s.dir.join("errors/error_001.log").is_file());
    assert_eq!(
        s.count("SELECT count(*) FROM tick_failures WHERE resolved = 0"),
        1
    );
    assert!(!s.dir.join("scenes/scene_001.md").exists());
}

#[test]
fn a_429_is_retried_honouring_retry_after() {
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(
            Rule::when(PLAN)
                .reply(Reply::status(429).retry_after("1"))
                .no_repeat(),
        )
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    let started = std::time::Instant::now();
    s.novel().arg("tick").assert().success();
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(950),
        "Retry-After: 1 was not honoured"
    );
    assert_eq!(s.server.request_count(), 4);
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn a_server_that_keeps_failing_leaves_the_story_unchanged_and_says_where_to_look() {
    let s = setup(Script::new().rule(Rule::any().reply(Reply::status(500))));
    let before = s.story_fingerprint();
    let err = stderr_of_failure(s.novel().arg("tick"));
    assert_eq!(s.server.request_count(), 3, "first try plus two retries");
    assert_failed_cleanly(&s, &before, &err);
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(s.dir.join("errors/error_001.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["error"]["type"], "llm.server");
    // The failure shows in status, and --retry works once the server is back.
    let status = s.status();
    assert_eq!(status["unresolved_failures"][0]["tick"], 1);
}

#[test]
fn retry_after_a_failure_commits_the_same_tick_and_clears_the_failure() {
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    let err = stderr_of_failure(s.novel().arg("tick"));
    assert!(err.contains("error_001.json"), "{err}");
    s.novel().args(["tick", "--retry"]).assert().success();
    assert_eq!(s.status()["current_tick"], 1);
    assert_eq!(
        s.count("SELECT count(*) FROM tick_failures WHERE resolved = 0"),
        0
    );
    let err = stderr_of_failure(s.novel().args(["tick", "--retry"]));
    assert!(err.contains("no failed tick to retry"), "{err}");
}

#[test]
fn skip_gives_up_on_a_failed_tick_without_writing() {
    let script = Script::new()
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::when(PLAN).reply(Reply::status(503)).no_repeat())
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    let before = s.story_fingerprint();
    stderr_of_failure(s.novel().arg("tick"));
    let calls = s.server.request_count();
    let out = s.novel().args(["tick", "--skip"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("Gave up on the failed tick 1"), "{text}");
    assert_eq!(s.server.request_count(), calls, "skipping calls no model");
    assert_eq!(s.story_fingerprint(), before, "the story is unchanged");
    assert_eq!(
        s.count("SELECT count(*) FROM tick_failures WHERE resolved = 0"),
        0
    );
    let err = stderr_of_failure(s.novel().args(["tick", "--skip"]));
    assert!(err.contains("no failed tick to skip"), "{err}");
}

#[test]
fn a_server_rejecting_json_schema_gets_a_fallback_and_the_tick_succeeds() {
    let plans = replies("plans.json");
    let script = Script::new()
        .rule(
            Rule::when(EXTRACTION).replies(
                replies("extractions.json")
                    .into_iter()
                    .map(Reply::reject_json_schema),
            ),
        )
        .rule(Rule::when(PLAN).replies(plans.into_iter().map(Reply::reject_json_schema)))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    s.novel().arg("tick").assert().success();
    let formats: Vec<String> = s
        .server
        .requests()
        .iter()
        .filter_map(|r| {
            r.body["response_format"]["type"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert_eq!(
        formats,
        vec!["json_schema", "json_object", "json_object"],
        "fallback remembered for the provider"
    );
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn invalid_plan_json_is_repaired_once() {
    let mut plans = vec![Reply::from(Reply::text(
        "Sure! Here is my plan: {rationale: oops",
    ))];
    plans.extend(replies("plans.json"));
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(plans))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    s.novel().arg("tick").assert().success();
    assert_eq!(s.server.request_count(), 4, "one repair call");
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn a_plan_naming_an_unknown_tool_is_replanned_with_the_tool_list() {
    let mut bad: Value =
        serde_json::from_str::<Vec<Value>>(&story_fixture("plans.json")).unwrap()[0].clone();
    bad["actions"][0]["tool"] = Value::from("weather.forecast");
    let mut plans = vec![Reply::from(Reply::text(bad.to_string()))];
    plans.extend(replies("plans.json"));
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(plans))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);
    s.novel().arg("tick").assert().success();
    let second_plan_request = s.server.requests()[1].body.to_string();
    assert!(
        second_plan_request.contains("weather.forecast")
            && second_plan_request.contains("memory.search")
    );
    assert_eq!(s.status()["current_tick"], 1);
}

#[test]
fn a_stream_cut_mid_scene_fails_cleanly() {
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::cut_stream(story_fixture("prose.txt"), 400)));
    let s = setup(script);
    let before = s.story_fingerprint();
    let err = stderr_of_failure(s.novel().arg("tick"));
    assert!(err.contains("writing"), "{err}");
    assert_failed_cleanly(&s, &before, &err);
    // What streamed before the cut is the draft in the error file: nothing seen is lost.
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(s.dir.join("errors/error_001.json")).unwrap(),
    )
    .unwrap();
    let draft = record["prose"]
        .as_str()
        .expect("the streamed prose is kept");
    assert!(
        draft.len() > 100 && draft.len() <= 400,
        "{} bytes",
        draft.len()
    );
    assert!(story_fixture("prose.txt").trim_start().starts_with(draft));
}

#[test]
fn a_401_says_which_setting_to_fix_and_never_leaks_the_key() {
    let s = setup(Script::new().rule(Rule::any().reply(Reply::status(401))));
    let config = s.config.join("providers.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace(
            "model = \"test-model\"",
            "model = \"test-model\"\napi_key_env = \"NOVEL_TEST_KEY\"",
        ),
    )
    .unwrap();
    let before = s.story_fingerprint();
    let err = stderr_of_failure(s.novel().env("NOVEL_TEST_KEY", "sk-secret-123").arg("tick"));
    assert!(err.contains("NOVEL_TEST_KEY"), "{err}");
    assert_eq!(s.server.request_count(), 1, "401 is not retried");
    assert_failed_cleanly(&s, &before, &err);
    for entry in std::fs::read_dir(s.dir.join("errors")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !text.contains("sk-secret-123"),
            "the key leaked into an error file"
        );
    }
    assert!(!err.contains("sk-secret-123"));
}

#[test]
fn without_a_provider_the_error_says_how_to_configure_one() {
    let (tmp, dir) = new_novel();
    let err = stderr_of_failure(
        novel()
            .env("NOVEL_AGENT_CONFIG_DIR", tmp.path().join("empty-config"))
            .arg("-C")
            .arg(&dir)
            .arg("tick"),
    );
    assert!(
        err.contains("no LLM provider is configured") && err.contains("novel providers add"),
        "{err}"
    );
}

#[test]
fn providers_add_then_test_reports_model_and_structured_output() {
    let server = TestServer::start_blocking(
        Script::new().rule(Rule::any().reply(Reply::text("{\"ok\": true}"))),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("cfg");
    novel()
        .env("NOVEL_AGENT_CONFIG_DIR", &cfg)
        .args([
            "providers",
            "add",
            "--name",
            "local",
            "--base-url",
            &server.base_url(),
            "--model",
            "test-model",
        ])
        .assert()
        .success();
    let out = stdout_of(
        novel()
            .env("NOVEL_AGENT_CONFIG_DIR", &cfg)
            .args(["providers", "test"]),
    );
    assert!(
        out.contains("OK: local")
            && out.contains("test-model")
            && out.contains("structured output: works"),
        "{out}"
    );
    let list = stdout_of(
        novel()
            .env("NOVEL_AGENT_CONFIG_DIR", &cfg)
            .args(["providers", "list"]),
    );
    assert!(list.contains("local (default)"), "{list}");
}

#[test]
fn a_planted_head_hop_and_a_dead_man_speaking_are_found_and_revised_once() {
    let prose = story_fixture("prose.txt");
    let plan_one = serde_json::json!({"rationale": "Allies and a loss.", "scene_intention": "Tamsin meets Bram and loses Osk.",
    "pov_character": "C0", "target_location": "L0",
    "actions": [
        {"tool": "character.generate", "args": {"name": "Bram", "role": "dockhand"}},
        {"tool": "character.generate", "args": {"name": "Osk", "role": "ferryman"}}
    ]});
    let extraction_one = serde_json::json!({"title": "The Ferryman Drowns", "summary": ["Osk drowns.", "Bram stays."], "tension": 6,
        "character_updates": [{"id": "C2", "changes": {"status": "dead"}}]});
    let plan_two = serde_json::json!({"rationale": "Grief.", "scene_intention": "Tamsin and Bram wait out the watch.",
        "pov_character": "C0", "target_location": "L0", "actions": []});
    let extraction_two =
        serde_json::json!({"title": "After the River", "summary": ["They wait."], "tension": 5});
    let broken = format!(
        "{prose}\n\nBram felt a cold surge of fear as the lanterns of the watch came closer.\n\n\"Keep your head down,\" Osk said from the stern."
    );
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies([
            Reply::text(extraction_one.to_string()),
            Reply::text(extraction_two.to_string()),
        ]))
        .rule(Rule::when(PLAN).replies([
            Reply::text(plan_one.to_string()),
            Reply::text(plan_two.to_string()),
        ]))
        .rule(Rule::when("You revise one scene").reply(Reply::text(prose.clone())))
        .rule(Rule::any().replies([Reply::text(prose.clone()), Reply::text(broken)]));
    let s = setup(script);
    s.novel().arg("tick").assert().success();
    let calls = s.server.request_count();
    s.novel().arg("tick").assert().success();
    assert_eq!(
        s.server.request_count(),
        calls + 4,
        "plan, write, one revision, extraction"
    );
    let plan: Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.join("plans/plan_002.json")).unwrap())
            .unwrap();
    let notes = plan["notes"].to_string();
    assert!(
        notes.contains("revised once for") && notes.contains("another character's mind"),
        "{notes}"
    );
    assert!(notes.contains("dead character"), "{notes}");
    let revision = &s.server.requests()[calls + 2];
    let brief = revision.body.to_string();
    assert!(
        brief.contains("Bram") && brief.contains("Osk"),
        "the reviser is told both"
    );
    let timeline: String = s
        .db()
        .query_row("SELECT notes FROM ticks WHERE tick = 2", [], |r| r.get(0))
        .unwrap();
    assert!(timeline.contains("revised once for"), "{timeline}");
}
