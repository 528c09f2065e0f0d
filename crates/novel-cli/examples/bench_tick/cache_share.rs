//! How much of each role's prompt a server's prompt cache serves: real ticks against the test
//! server imitating llama.cpp's `llama-server` with three cache slots (`--cache-slots`), which
//! reports `cache_n`/`prompt_n` as llama-server does. The engine finds the slots through
//! `/props`, sends each conversation to its own slot, and reads the cached share back from the
//! answers' usage: what is measured here is what a writer's local server would be spared.

use std::collections::BTreeMap;
use std::path::Path;

use novel_core::clock::SystemClock;
use novel_core::synthetic;
use novel_core::tick::{CancelToken, TickOptions, run_tick};
use novel_test_server::{Imitates, ServerOptions, TestServer};

/// Slots the imitated server runs with (llama-server's `--parallel`).
const SLOTS: usize = 3;

/// Prompt and cached tokens of one role, summed over the measured ticks.
#[derive(Debug, Default, Clone, Copy)]
pub struct Share {
    pub prompt: u64,
    pub cached: u64,
}

impl Share {
    pub fn ratio(&self) -> f64 {
        if self.prompt == 0 {
            0.0
        } else {
            self.cached as f64 / self.prompt as f64
        }
    }
}

/// What `ticks` ticks after scene `at - 1` cost in prompt, per role, from the second tick on
/// (the first fills the empty slots), as the engine's tick records count it.
pub struct CacheRun {
    pub roles: BTreeMap<String, Share>,
    /// The server's own prefill, for comparison: tokens it read anew over all it was sent.
    pub server_prefill: f64,
}

pub fn measure(dir: &Path, at: u32, ticks: usize) -> CacheRun {
    let script = super::script().like(Imitates::LlamaCpp);
    let options = ServerOptions {
        cache_slots: SLOTS,
        ..ServerOptions::default()
    };
    let server = TestServer::start_blocking_with(script, options).expect("the test server starts");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut novel = synthetic::generate(&dir.join(format!("cache{at}")), at - 1, &[])
        .expect("a generated novel");
    let models = super::models(&server);
    let mut roles: BTreeMap<String, Share> = BTreeMap::new();
    let mut first_measured = 0;
    for tick in 0..ticks {
        if tick == 1 {
            first_measured = server.request_count();
        }
        let done = runtime
            .block_on(run_tick(
                &mut novel,
                &models,
                &TickOptions::default(),
                &(),
                &CancelToken::new(),
                &SystemClock,
            ))
            .expect("a tick against the test server commits");
        if tick == 0 {
            continue;
        }
        for (role, usage) in &done.usage.roles {
            let share = roles.entry(role.to_string()).or_default();
            share.prompt += u64::from(usage.prompt_tokens);
            share.cached += u64::from(usage.cached_tokens);
        }
    }
    if let Some(dump) = std::env::var_os("BENCH_DUMP_PROMPTS") {
        // For a look at where consecutive prompts part: one file per request.
        for (i, r) in server.requests().iter().enumerate() {
            let path = Path::new(&dump).join(format!("{i:02}.json"));
            let _ = std::fs::write(
                path,
                serde_json::to_string_pretty(&r.body).unwrap_or_default(),
            );
        }
    }
    let reports: Vec<_> = server.requests()[first_measured..]
        .iter()
        .filter_map(|r| r.cache)
        .collect();
    let sent: u64 = reports.iter().map(|r| r.prompt_tokens()).sum();
    let read: u64 = reports.iter().map(|r| r.prompt_n).sum();
    CacheRun {
        roles,
        server_prefill: read as f64 / sent.max(1) as f64,
    }
}

/// Prints the table of `run` and, for CI, fails when a role's cached share or the prefill is
/// off target.
pub fn report(run: &CacheRun, assert_targets: bool) {
    println!(
        "\n| role (ticks 2–4, llama.cpp imitation, {SLOTS} slots) | prompt tokens | cached | cached share |"
    );
    println!("|---|---|---|---|");
    let mut total = Share::default();
    for (role, share) in &run.roles {
        println!(
            "| {role} | {} | {} | {:.0}% |",
            share.prompt,
            share.cached,
            share.ratio() * 100.0
        );
        total.prompt += share.prompt;
        total.cached += share.cached;
    }
    let prefill = 1.0 - total.ratio();
    println!(
        "\nprefill (prompt tokens read anew) per tick: {:.0}% of prompt tokens (the server's own count: {:.0}%)",
        prefill * 100.0,
        run.server_prefill * 100.0
    );
    if !assert_targets {
        return;
    }
    for (role, floor) in [("planner", 0.45), ("writer", 0.40), ("extractor", 0.25)] {
        let share = run.roles.get(role).copied().unwrap_or_default();
        assert!(
            share.ratio() >= floor,
            "the {role}'s cached share is {:.0}%, under {:.0}%",
            share.ratio() * 100.0,
            floor * 100.0
        );
    }
    assert!(
        prefill <= 0.55,
        "prefill is {:.0}% of prompt tokens, over 55%",
        prefill * 100.0
    );
}
