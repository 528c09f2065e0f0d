//! Per-role models and spending limits through the real `novel` binary and real HTTP: with
//! `[models]` in novel.toml the planner's requests go to one server and the writer's and
//! extractor's to another (each server's log shows it), and the summary names each role's
//! model; a run pauses before the call that would pass `--max-tokens` or `[budget.novel]`,
//! sends nothing more, records the pause as a `budget` failure and leaves the novel as it was,
//! ready to go on with a larger limit.

use crate::common;

use common::story::*;
use common::*;
use novel_test_server::{BlockingTestServer, TestServer};
use regex::Regex;

fn append_to_novel_toml(s: &Setup, text: &str) {
    let path = s.dir.join("novel.toml");
    let toml = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{toml}\n{text}")).unwrap();
}

/// Adds a profile named `name` for `server` to the setup's providers.toml.
fn add_profile(s: &Setup, name: &str, server: &BlockingTestServer, extra: &str) {
    let path = s.config.join("providers.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!(
        "\n[[profile]]\nname = \"{name}\"\nkind = \"openai-compatible\"\nbase_url = \"{}\"\nmodel = \"{name}-model\"\nmax_retries = 0\ntimeout_secs = 20\n{extra}",
        server.base_url()
    ));
    std::fs::write(path, text).unwrap();
}

fn model_of(request: &novel_test_server::RecordedRequest) -> String {
    request.body["model"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_planner_and_the_writer_send_to_their_own_servers() {
    let s = setup(clean_script());
    let planner_server = TestServer::start_blocking(clean_script()).unwrap();
    add_profile(&s, "planning", &planner_server, "");
    append_to_novel_toml(&s, "[models]\nplanner = \"planning\"\n");

    let out = stdout_of(s.novel().arg("tick"));
    let planner_requests = planner_server.requests();
    assert!(
        !planner_requests.is_empty(),
        "the planner's server was asked"
    );
    for r in &planner_requests {
        assert!(r.body.to_string().contains(PLAN), "only plans: {}", r.body);
        assert_eq!(model_of(r), "planning-model");
    }
    let default_requests = s.server.requests();
    assert!(
        default_requests.iter().any(|r| r.is_stream()),
        "the writer streamed from the default profile's server"
    );
    assert!(
        default_requests
            .iter()
            .any(|r| r.body.to_string().contains(EXTRACTION)),
        "the extractor used the default profile"
    );
    for r in &default_requests {
        assert!(
            !r.body.to_string().contains(PLAN),
            "no plan here: {}",
            r.body
        );
    }
    // The summary says which model did what.
    assert!(out.contains("planner: planning-model"), "{out}");
    assert!(out.contains("writer: test-model"), "{out}");

    // An unknown profile name is refused before anything is sent, naming the role.
    append_to_novel_toml(&s, "");
    let toml = std::fs::read_to_string(s.dir.join("novel.toml")).unwrap();
    std::fs::write(
        s.dir.join("novel.toml"),
        toml.replace("planner = \"planning\"", "planner = \"nowhere\""),
    )
    .unwrap();
    let before = planner_server.requests().len() + s.server.requests().len();
    let err = stderr_of_failure(s.novel().arg("tick"));
    assert!(err.contains("nowhere") && err.contains("planner"), "{err}");
    assert_eq!(
        planner_server.requests().len() + s.server.requests().len(),
        before
    );
}

/// Spent, next and limit from the pause's message.
fn pause_numbers(message: &str) -> (u64, u64, u64) {
    let re = Regex::new(r"budget of (\d+) tokens is reached: (\d+) tokens spent, and the next call could take (\d+) tokens").unwrap();
    let c = re
        .captures(message)
        .unwrap_or_else(|| panic!("no budget pause in: {message}"));
    let n = |i: usize| c[i].parse::<u64>().unwrap();
    (n(1), n(2), n(3))
}

#[test]
fn a_run_pauses_before_the_call_that_would_pass_its_token_limit() {
    // What one tick spends, measured on a novel of its own.
    let roomy = setup(clean_script());
    let done: serde_json::Value =
        serde_json::from_str(&stdout_of(roomy.novel().args(["--json", "tick"]))).unwrap();
    let one_tick = done["committed"][0]["tokens"].as_u64().unwrap();

    // Room for one tick and a half: the second tick pauses at the call that would pass it.
    let s = setup(clean_script());
    let limit = one_tick * 3 / 2;
    let err = stderr_of_failure(
        s.novel()
            .args(["run", "--n", "3", "--max-tokens"])
            .arg(limit.to_string()),
    );
    let (limit_said, spent, next) = pause_numbers(&err);
    assert_eq!(limit_said, limit);
    assert!(
        spent <= limit && spent + next > limit,
        "paused at {spent} + {next} against {limit}"
    );
    assert!(err.contains("Raise or remove the limit"), "{err}");
    assert_eq!(s.count("SELECT COUNT(*) FROM ticks"), 1);
    assert_eq!(
        s.count("SELECT COUNT(*) FROM tick_failures WHERE error_type = 'budget'"),
        1
    );
    assert!(
        spent >= one_tick,
        "the first tick is counted: {spent} < {one_tick}"
    );

    // The novel is intact: a run with room goes on from where the pause left it.
    let fingerprint = s.story_fingerprint();
    let requests_at_pause = s.server.requests().len();
    s.novel().arg("tick").assert().success();
    assert_eq!(s.count("SELECT COUNT(*) FROM ticks"), 2);
    assert!(s.server.requests().len() > requests_at_pause);
    assert_ne!(s.story_fingerprint(), fingerprint);
}

#[test]
fn a_novel_cost_limit_already_spent_sends_nothing() {
    let s = setup(clean_script());
    let priced = TestServer::start_blocking(clean_script()).unwrap();
    add_profile(
        &s,
        "priced",
        &priced,
        "[profile.prices]\nprompt_per_million = 1000.0\ncompletion_per_million = 4000.0\n",
    );
    // The first tick on a roomy limit: its cost is shown and recorded.
    let out = stdout_of(s.novel().args(["tick", "--profile", "priced"]));
    let cost: f64 = Regex::new(r"cost (\d+\.\d+)")
        .unwrap()
        .captures(&out)
        .unwrap_or_else(|| panic!("no cost in {out}"))[1]
        .parse()
        .unwrap();
    assert!(cost > 0.0, "{out}");
    // The novel's limit is what it has spent: the next tick's first call would pass it.
    append_to_novel_toml(&s, &format!("[budget.novel]\ncost = {cost}\n"));
    let fingerprint = s.story_fingerprint();
    let sent = priced.requests().len();
    let err = stderr_of_failure(s.novel().args(["tick", "--profile", "priced"]));
    assert!(err.contains("the total budget of"), "{err}");
    assert_eq!(priced.requests().len(), sent, "nothing was sent");
    assert_eq!(s.story_fingerprint(), fingerprint);
    // Status shows what the novel spent against its limit.
    let status = s.status();
    let spent = status["spent"]["cost"].as_f64().unwrap();
    assert!((spent - cost).abs() < 1e-3, "{spent} vs {cost}");
    assert_eq!(status["budget"]["novel"]["cost"].as_f64(), Some(cost));
    let text = stdout_of(s.novel().arg("status"));
    assert!(text.contains(&format!("of {cost:.4}")), "{text}");
}
