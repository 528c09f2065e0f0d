//! A weak local model through the real `novel` command and the OpenAI-format test server: a
//! draft wrapped in assistant chatter is never kept (the run tries fresh drafts, then stops
//! with the draft and its findings in the error file), a plan naming what does not exist is
//! salvaged, a place given by name is resolved, and a server that refuses the prompt-cache
//! hints is still written with.

use crate::common;

use common::story::*;
use common::*;
use novel_test_server::{Imitates, Reply, Rule, Script, ServerOptions, TestServer};
use serde_json::{Value, json};

/// The scene as a chatty small model answers every time, revision included.
fn chatter() -> String {
    format!(
        "Sure! Here is the revised scene you asked for:\n\n{}\n\nI hope this helps! Let me know if \
         you would like any changes to the tone or the pacing.",
        story_fixture("prose.txt").trim()
    )
}

#[test]
fn a_draft_wrapped_in_chatter_is_never_kept_and_the_run_stops_after_fresh_drafts() {
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::text(chatter())));
    let s = setup(script);
    let before = s.story_fingerprint();

    let err = stderr_of_failure(s.novel().args(["run", "--n", "2"]));
    assert!(err.contains("Trying a fresh draft (1 of 2)"), "{err}");
    assert!(err.contains("Trying a fresh draft (2 of 2)"), "{err}");
    assert!(
        err.contains("still commentary instead of story") && err.contains("I hope this helps"),
        "{err}"
    );
    assert!(err.contains("The story is unchanged"), "{err}");
    assert_eq!(s.story_fingerprint(), before, "no scene was kept");
    assert!(!s.dir.join("scenes/scene_001.md").exists());

    // The error file keeps the draft and what the checks said of it.
    let newest = std::fs::read_dir(s.dir.join("errors"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .max()
        .unwrap();
    let record: Value = serde_json::from_str(&std::fs::read_to_string(newest).unwrap()).unwrap();
    assert!(
        record["prose"]
            .as_str()
            .unwrap()
            .contains("I hope this helps"),
        "{record}"
    );
    let findings = record["findings"]
        .as_array()
        .expect("the findings are kept");
    assert!(
        findings
            .iter()
            .any(|f| f["check"] == "meta_text" && f["severity"] == "violation"),
        "{findings:?}"
    );

    // --retries 0 stops at the first draft.
    let err = stderr_of_failure(s.novel().args(["run", "--n", "1", "--retries", "0"]));
    assert!(!err.contains("fresh draft"), "{err}");

    // The writer may keep the draft anyway: committed as drafted, the override on record.
    let out: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "tick", "--keep"]))).unwrap();
    let kept = &out["committed"][0];
    assert_eq!(kept["tick"], 1, "{out}");
    assert!(
        kept["notes"]
            .to_string()
            .contains("kept this draft over the checks"),
        "{kept}"
    );
    assert!(
        kept["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["check"] == "meta_text"),
        "{kept}"
    );
    assert!(s.dir.join("scenes/scene_001.md").exists());
    assert_eq!(
        s.count("SELECT count(*) FROM tick_failures WHERE resolved = 0"),
        0
    );
    // Nothing is left to keep.
    let err = stderr_of_failure(s.novel().args(["tick", "--keep"]));
    assert!(err.contains("no failed tick to keep"), "{err}");
}

#[test]
fn a_plan_naming_nothing_is_salvaged_and_a_place_named_is_resolved() {
    let fixture_plans: Vec<Value> = serde_json::from_str(&story_fixture("plans.json")).unwrap();
    let mut nowhere = fixture_plans[0].clone();
    nowhere["target_location"] = json!("L7");
    nowhere["beat"] = json!("the meeting on the docks at midnight");
    let mut named = fixture_plans[1].clone();
    named["target_location"] = json!("Rainmarket Docks");
    // Every plan of the first tick names nothing (repairs included); the second names a place.
    let plans: Vec<Reply> = std::iter::repeat_n(Reply::text(nowhere.to_string()), 5)
        .chain([Reply::text(named.to_string())])
        .map(Reply::from)
        .collect();
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(plans))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);

    let out: Value =
        serde_json::from_str(&stdout_of(s.novel().args(["--json", "run", "--n", "2"]))).unwrap();
    let committed = out["committed"].as_array().unwrap();
    assert_eq!(committed.len(), 2, "{out}");
    let notes = committed[0]["notes"].to_string();
    assert!(notes.contains("no place in the story"), "{notes}");
    assert!(!notes.contains("L7"), "no raw id in a note: {notes}");
    assert!(notes.contains("the meeting on the docks"), "{notes}");
    let plan: Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.join("plans/plan_001.json")).unwrap())
            .unwrap();
    let plan = plan.get("plan").unwrap_or(&plan);
    assert_eq!(plan["target_location"], Value::Null, "{plan}");
    assert_eq!(plan["beat"], Value::Null, "{plan}");
    assert!(
        committed[1]["notes"]
            .to_string()
            .contains("taken to be Rainmarket Docks"),
        "{}",
        committed[1]["notes"]
    );
}

#[test]
fn a_llama_server_gets_a_slot_per_conversation_and_one_refusing_the_hint_still_works() {
    for refuses in [false, true] {
        let mut script = clean_script().like(Imitates::LlamaCpp);
        if refuses {
            script = script.rejecting("id_slot");
        }
        let options = ServerOptions {
            cache_slots: 3,
            ..ServerOptions::default()
        };
        let server = TestServer::start_blocking_with(script, options).unwrap();
        let (tmp, dir) = new_novel();
        let config = provider_config(tmp.path(), &server.base_url());
        let mut cmd = novel();
        cmd.env("NOVEL_AGENT_CONFIG_DIR", &config)
            .arg("-C")
            .arg(&dir);
        let output = cmd
            .env("RUST_LOG", "novel_llm=info")
            .args(["--json", "run", "--n", "2"])
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&output.stderr).to_string();
        let out: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(out["committed"].as_array().unwrap().len(), 2, "{out}");
        let chats: Vec<Value> = server
            .requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .map(|r| r.body)
            .collect();
        let last = chats.last().unwrap();
        let flags: Vec<String> = chats
            .iter()
            .map(|c| format!("{}/{}", c["cache_prompt"], c["id_slot"]))
            .collect();
        assert_eq!(last["cache_prompt"], true, "{flags:?}\n{log}");
        if refuses {
            // Refused once, then never sent again; the other hint still goes.
            assert!(last.get("id_slot").is_none(), "{last}");
            let with_slot = chats.iter().filter(|c| c.get("id_slot").is_some()).count();
            assert_eq!(with_slot, 1, "only the refused request carried it");
        } else {
            let slots: std::collections::BTreeSet<u64> =
                chats.iter().filter_map(|c| c["id_slot"].as_u64()).collect();
            assert!(
                slots.len() >= 2,
                "the roles take their own slots: {slots:?}"
            );
            // The cache the server reported reaches the tick's usage.
            let cached: u64 = out["committed"][1]["usage"]["roles"]
                .as_object()
                .unwrap()
                .values()
                .filter_map(|r| r["cached_tokens"].as_u64())
                .sum();
            assert!(cached > 0, "{}", out["committed"][1]["usage"]);
            // And `novel status` adds it up.
            let mut status = novel();
            status
                .env("NOVEL_AGENT_CONFIG_DIR", &config)
                .arg("-C")
                .arg(&dir)
                .arg("status");
            let text = stdout_of(&mut status);
            assert!(text.contains("read from the servers' caches"), "{text}");
        }
    }
}
