//! What the local embedding model costs in memory and time: the process's resident set at
//! start, with the model loaded (the ONNX Runtime library and the session for its graph), and
//! after embedding 1, 10 and 50 rounds of a tick's worth of passages (13 a round, of 12 to 240
//! words, or 12 to 36 with `--short`), with the time the 50 rounds took. `--batch N` runs N
//! passages per inference call instead of the model's one, to show what batching costs.
//! Needs the model (`scripts/fetch-embedding-model.sh`).
//!
//! ```sh
//! cargo run --release -p novel-embed --example model_memory
//! cargo run --release -p novel-embed --example model_memory -- --batch 13
//! ```

use std::time::Instant;

use novel_embed::locate::SearchPaths;
use novel_embed::{Embedder, MiniLm};

/// This process's resident set and its peak so far (VmRSS, VmHWM), in MB.
fn memory_mb() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A table row: what, resident MB, peak MB.
fn row(what: &str) {
    let (rss, peak) = memory_mb();
    println!("| {what} | {rss:.1} MB | {peak:.1} MB |");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let batch: Option<usize> = match args.iter().position(|a| a == "--batch") {
        Some(i) => Some(args.get(i + 1).ok_or("--batch needs a number")?.parse()?),
        None => None,
    };
    let longest = if args.iter().any(|a| a == "--short") {
        3
    } else {
        20
    };
    let files = SearchPaths::from_process()
        .find()
        .map_err(|missing| format!("{missing} (run scripts/fetch-embedding-model.sh)"))?;
    println!("| when | resident | peak so far |\n|---|---|---|");
    row("at start");
    let mut model = MiniLm::load(&files)?;
    if let Some(n) = batch {
        model = model.with_batch(n);
    }
    row("model loaded (runtime library and session)");
    let words = "the tide came in over the salt flats and the bells rang";
    let started = Instant::now();
    for round in 1..=50usize {
        let texts: Vec<String> = (0..13)
            .map(|i| vec![words; 1 + (round * 31 + i * 17) % longest].join(" "))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        model.embed(&refs)?;
        if [1, 10, 50].contains(&round) {
            row(&format!("after {round} rounds"));
        }
    }
    println!(
        "\n50 rounds of 13 passages, {} per call: {:.1} s",
        batch.unwrap_or(1),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
