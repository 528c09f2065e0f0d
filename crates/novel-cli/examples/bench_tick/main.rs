//! The cost of writing a novel, as the engine sees it: real ticks of the release engine against
//! the local OpenAI-format test server (which answers at once), at scene 10, 100 and 300 of a
//! generated novel. Reports LLM calls and revisions per tick, prompt tokens and characters per
//! tick, the engine's own time per tick (wall time minus the time spent waiting on the model)
//! at p50/p95 and split by step, the wall time of a 100-tick run, and the peak memory of a
//! 300-tick run sampled along the way (it should stay flat).
//!
//! ```sh
//! cargo run --release -p novel-cli --example bench_tick            # the full run (~1 min)
//! cargo run -p novel-cli --example bench_tick -- --ci              # counts only, asserted
//! ```
//!
//! `--ci` runs two ticks at scene 10 and at scene 300 and fails when a clean tick makes more
//! than 3 LLM calls or the scene-300 planner prompt is more than 1.3× the scene-10 one.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use novel_core::clock::SystemClock;
use novel_core::novel::Novel;
use novel_core::run::{RunControl, run_ticks};
use novel_core::synthetic;
use novel_core::tick::{CancelToken, Models, TickOptions, TickOutcome, run_tick};
use novel_llm::{ProviderKind, ProviderProfile};
use novel_test_server::{BlockingTestServer, Reply, Rule, Script, TestServer};
use serde_json::json;

const PROSE: &str = include_str!("../tests/fixtures/story/prose.txt");

/// Plans that use the memory every tick: a search and an update of the protagonist.
fn script() -> Script {
    let plan = json!({"rationale": "Keep her moving.", "scene_intention": "Tamsin slips past the watch at the salt market.",
        "pov_character": "C0", "target_location": "L0",
        "actions": [
            {"id": "recall", "tool": "memory.search", "args": {"query": "the watch and the salt market"}, "reason": "what she knows"},
            {"tool": "character.update", "args": {"id": "C0", "changes": {"emotional_state": "wary"}}, "reason": "her mood"}
        ],
        "expected_outcomes": ["she gets past the watch"]});
    let extraction = json!({"title": "Past the Watch", "summary": ["Tamsin slips past the watch.", "She hears her name.", "Rain sets in."],
        "tension": 5, "character_updates": [{"id": "C0", "changes": {"emotional_state": "shaken"}}],
        "loops_opened": [{"description": "Who called her name?", "category": "mystery"}]});
    Script::new()
        .rule(Rule::when("loops_resolved").reply(Reply::text(extraction.to_string())))
        .rule(Rule::when("expected_outcomes").reply(Reply::text(plan.to_string())))
        .rule(Rule::any().reply(Reply::text(PROSE)))
}

fn models(server: &BlockingTestServer) -> Models {
    models_at(&server.base_url())
}

fn models_at(base_url: &str) -> Models {
    let profile = ProviderProfile::new("bench", ProviderKind::OpenAiCompatible, "bench-model")
        .with_base_url(base_url);
    Models::single(novel_llm::connect(&profile).expect("a profile for the test server"))
}

/// One measured tick.
struct Sample {
    calls: u32,
    revised: bool,
    prompt_tokens: u32,
    prompt_chars: usize,
    planner_chars: usize,
    engine: Duration,
    steps: BTreeMap<String, u64>,
}

fn request_chars(body: &serde_json::Value) -> usize {
    body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|x| x["content"].as_str().map_or(0, str::len))
                .sum()
        })
        .unwrap_or(0)
}

fn measure(
    novel: &mut Novel,
    models: &Models,
    server: &BlockingTestServer,
    runtime: &tokio::runtime::Runtime,
) -> Sample {
    let before = server.request_count();
    let started = Instant::now();
    let done: TickOutcome = runtime
        .block_on(run_tick(
            novel,
            models,
            &TickOptions::default(),
            &(),
            &CancelToken::new(),
            &SystemClock,
        ))
        .expect("a tick against the test server commits");
    let wall = started.elapsed();
    let waited: u64 = done.usage.roles.values().map(|r| r.latency_ms).sum();
    let requests = &server.requests()[before..];
    Sample {
        calls: done.usage.calls(),
        revised: done.revised,
        prompt_tokens: done.usage.roles.values().map(|r| r.prompt_tokens).sum(),
        prompt_chars: requests.iter().map(|r| request_chars(&r.body)).sum(),
        planner_chars: requests
            .iter()
            .find(|r| r.body.to_string().contains("expected_outcomes"))
            .map_or(0, |r| request_chars(&r.body)),
        engine: wall.saturating_sub(Duration::from_millis(waited)),
        steps: done.timings,
    }
}

fn percentile(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// Samples `n` ticks after scene `at - 1` of a generated novel.
fn at_scene(dir: &Path, at: u32, n: usize, server: &BlockingTestServer) -> Vec<Sample> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut novel =
        synthetic::generate(&dir.join(format!("n{at}")), at - 1, &[]).expect("a generated novel");
    let models = models(server);
    (0..n)
        .map(|_| measure(&mut novel, &models, server, &runtime))
        .collect()
}

fn report(at: u32, samples: &[Sample]) {
    let n = samples.len() as f64;
    let engine: Vec<Duration> = samples.iter().map(|s| s.engine).collect();
    let mut steps: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for s in samples {
        for (k, v) in &s.steps {
            steps.entry(k.as_str()).or_default().push(*v);
        }
    }
    let step_p50: Vec<String> = [
        "gather", "validate", "tools", "checks", "apply", "embed", "commit", "files",
    ]
    .iter()
    .map(|k| {
        let mut v = steps.get(k).cloned().unwrap_or_default();
        v.sort_unstable();
        let p50 = v.get(v.len() / 2).copied().unwrap_or(0);
        format!("{k} {:.2}", p50 as f64 / 1000.0)
    })
    .collect();
    println!(
        "| {at} | {:.1} | {}/{} | {:.0} | {:.0} | {} | {} | {} |",
        samples.iter().map(|s| s.calls as f64).sum::<f64>() / n,
        samples.iter().filter(|s| s.revised).count(),
        samples.len(),
        samples.iter().map(|s| s.prompt_tokens as f64).sum::<f64>() / n,
        samples.iter().map(|s| s.prompt_chars as f64).sum::<f64>() / n,
        ms(percentile(engine.clone(), 0.5)),
        ms(percentile(engine, 0.95)),
        step_p50.join(", "),
    );
}

/// Peak and current memory of this process, from the kernel.
fn memory_kb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A 300-tick run in this (fresh) process, sampling its memory. The test server runs in the
/// parent process: it keeps every request it receives, which must not count as the engine's.
fn long_run(dir: &Path, base_url: &str, ticks: u32) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut novel = synthetic::generate(&dir.join("long"), 0, &[]).expect("a new novel");
    let models = models_at(base_url);
    let samples = std::sync::Mutex::new(Vec::new());
    let started = Instant::now();
    let on_event = |e: novel_core::run::RunEvent| {
        if let novel_core::run::RunEvent::TickCommitted { summary } = e
            && [1, 10, 50, 100, 200, 300].contains(&summary.tick)
            && let Ok(mut s) = samples.lock()
        {
            s.push((summary.tick, memory_kb().0, started.elapsed()));
        }
    };
    let report = runtime.block_on(run_ticks(
        &mut novel,
        &models,
        ticks,
        &TickOptions::default(),
        &RunControl::new(),
        &SystemClock,
        &on_event,
    ));
    assert_eq!(report.committed.len() as u32, ticks, "{:?}", report.failure);
    for (tick, rss, elapsed) in samples.into_inner().unwrap_or_default() {
        println!(
            "| after tick {tick} | {:.1} MB | {:.1} s |",
            rss as f64 / 1024.0,
            elapsed.as_secs_f64()
        );
    }
    println!(
        "| peak (VmHWM) | {:.1} MB | |",
        memory_kb().1 as f64 / 1024.0
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ci = args.iter().any(|a| a == "--ci");
    let tmp = tempfile::tempdir().expect("a temp dir");
    if let Some(i) = args.iter().position(|a| a == "--long-run") {
        let ticks = args.get(i + 1).and_then(|t| t.parse().ok()).unwrap_or(300);
        let url = args.get(i + 2).expect("--long-run TICKS URL");
        long_run(tmp.path(), url, ticks);
        return;
    }
    let server = TestServer::start_blocking(script()).expect("the test server starts");
    let (scenes, per): (&[u32], usize) = if ci {
        (&[10, 300], 2)
    } else {
        (&[10, 100, 300], 9)
    };
    println!(
        "| at scene | LLM calls per tick | revised | prompt tokens per tick | prompt chars per tick | engine p50 ms | engine p95 ms | steps p50 ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut planner_chars = BTreeMap::new();
    for &at in scenes {
        let samples = at_scene(tmp.path(), at, per, &server);
        report(at, &samples);
        planner_chars.insert(at, samples[0].planner_chars);
        let clean = samples.iter().filter(|s| !s.revised);
        for s in clean {
            assert!(s.calls <= 3, "a clean tick made {} LLM calls", s.calls);
        }
    }
    let ratio = planner_chars[&300] as f64 / planner_chars[&10] as f64;
    println!(
        "\nplanner prompt at scene 300 / scene 10: {ratio:.2}× ({} / {} characters)",
        planner_chars[&300], planner_chars[&10]
    );
    assert!(
        ratio <= 1.3,
        "the scene-300 planner prompt grew {ratio:.2}× over scene 10"
    );
    if ci {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut novel = synthetic::generate(&tmp.path().join("run100"), 0, &[]).expect("a new novel");
    let started = Instant::now();
    let report = runtime.block_on(run_ticks(
        &mut novel,
        &models(&server),
        100,
        &TickOptions::default(),
        &RunControl::new(),
        &SystemClock,
        &|_| {},
    ));
    assert_eq!(report.committed.len(), 100);
    println!(
        "\n100-tick run from a new novel: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Memory in a fresh process, so the generated novels above do not count.
    let me = std::env::current_exe().expect("the bench binary");
    let status = std::process::Command::new(me)
        .args(["--long-run", "300", &server.base_url()])
        .status()
        .expect("the long run starts");
    assert!(status.success());
}
