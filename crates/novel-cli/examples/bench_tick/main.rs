//! The cost of writing a novel, as the engine sees it: real ticks of the release engine against
//! the local OpenAI-format test server (which answers at once), at scene 10, 100 and 300 of a
//! generated novel. Reports LLM calls and revisions per tick, prompt tokens and characters per
//! tick, and the engine's own time per tick (wall time minus the time spent waiting on the
//! model) at p50/p95 and split by step. Then the real `novel` command against the same server
//! ([`cli_run`]): the wall time of `novel run --n 100`, the memory of `novel run --n 300`
//! sampled along the way (it should stay flat), and what embedding each tick's new passages
//! costs — with the local embedding model and without it.
//!
//! ```sh
//! cargo build --release -p novel-cli                                # the `novel` measured
//! cargo run --release -p novel-cli --example bench_tick            # the full run (~2 min)
//! cargo run -p novel-cli --example bench_tick -- --ci              # counts only, asserted
//! ```
//!
//! Then the share of each role's prompt a llama.cpp-like server's prompt cache serves
//! ([`cache_share`]).
//!
//! `--ci` runs two ticks at scene 10 and at scene 300 and fails when a clean tick makes more
//! than 3 LLM calls or the scene-300 planner prompt is more than 1.3× the scene-10 one; and
//! four ticks against the caching server, failing when from the second tick the cached share
//! is under 45% (planner), 40% (writer) or 25% (extractor), or prefill is over 55% of the
//! prompt tokens.

mod cache_share;
mod cli_run;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use cli_run::Embedding;
use novel_core::clock::SystemClock;
use novel_core::novel::Novel;
use novel_core::synthetic;
use novel_core::tick::{CancelToken, Models, TickOptions, TickOutcome, run_tick};
use novel_llm::{ProviderKind, ProviderProfile};
use novel_test_server::{BlockingTestServer, Reply, Rule, Script, TestServer};
use serde_json::json;

/// The tick's steps as `TickOutcome.timings` names them, in the order they run.
const STEPS: [&str; 8] = [
    "gather", "validate", "tools", "checks", "apply", "embed", "commit", "files",
];

const PROSE: &str = include_str!("../../tests/fixtures/story/prose.txt");

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
    steps: novel_core::model::Timings,
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
    let step_p50: Vec<String> = STEPS
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ci = args.iter().any(|a| a == "--ci");
    let tmp = tempfile::tempdir().expect("a temp dir");
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
    let cached = cache_share::measure(tmp.path(), 10, 4);
    cache_share::report(&cached, ci);
    if ci {
        return;
    }
    // The real command, as a writer runs it.
    let binary = match cli_run::novel_binary() {
        Ok(binary) => binary,
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(2);
        }
    };
    let cli = cli_run::Cli::new(binary, tmp.path(), &server.base_url());
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seed.toml");
    println!(
        "\n| `novel run` | --n 100 wall time | --n 300 wall time | RSS (MB) after scene … | peak RSS |"
    );
    println!("|---|---|---|---|---|");
    let keywords = cli_run::measure(&cli, tmp.path(), &seed, Embedding::KeywordsOnly);
    let model = novel_embed::locate::SearchPaths::from_process()
        .find()
        .is_ok()
        .then(|| cli_run::measure(&cli, tmp.path(), &seed, Embedding::LocalModel));
    println!(
        "\nSteps of the `novel run --n 300` ticks, p50 / p95 ms, from the novel's tick records:\n"
    );
    // The commit and the files are timed after the tick's record is written: the records
    // hold the steps before them only.
    let recorded: Vec<&str> = STEPS
        .into_iter()
        .filter(|k| keywords.steps.contains_key(*k))
        .collect();
    println!("| `novel run --n 300` | {} |", recorded.join(" | "));
    println!("|---|{}", "---|".repeat(recorded.len()));
    for (label, run) in [
        (Embedding::KeywordsOnly, Some(&keywords)),
        (Embedding::LocalModel, model.as_ref()),
    ] {
        let Some(run) = run else { continue };
        let cells: Vec<String> = recorded
            .iter()
            .map(|k| {
                run.steps
                    .get(*k)
                    .map_or("–".into(), |(p50, p95)| format!("{p50:.1} / {p95:.1}"))
            })
            .collect();
        println!("| {} | {} |", label.label(), cells.join(" | "));
    }
    match model {
        Some(run) => println!(
            "\nWith the model: {:.1} passages embedded per tick, {} left without a vector.",
            run.passages_per_tick, run.pending
        ),
        None => println!(
            "\nThe local embedding model is not installed (scripts/fetch-embedding-model.sh): the runs with it were not measured."
        ),
    }
}
