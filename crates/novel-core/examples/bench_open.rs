//! Benchmark of what opening a long novel costs now that every open checks it, printed as
//! Markdown (BENCHMARKS.md keeps the results):
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_open
//! ```
//!
//! A generated 300-scene novel (`novel_core::synthetic`, 500–700 words a scene) with a `ticks`
//! row per scene carrying a plan and execution report of realistic size is opened:
//!
//! 1. for writing with every scene and plan file missing (all 600 rewritten);
//! 2. for writing with every file in line (the usual case: compared, none rewritten), and its
//!    parts — `PRAGMA quick_check` and the file comparison on their own;
//! 3. for reading (a read-only connection, no checks beyond the file header);
//!
//! and one backup is taken (SQLite online backup into `backups/`).

use std::time::{Duration, Instant};

use novel_core::backup;
use novel_core::layout::DB_FILE;
use novel_core::model::TickRecord;
use novel_core::novel::{Access, Novel};
use novel_core::reconcile;
use novel_core::store::{self, Check};
use novel_core::synthetic;
use serde_json::json;

const SCENES: u32 = 300;
const RUNS: usize = 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("novel");
    let generated = Instant::now();
    let mut novel = synthetic::generate(&root, SCENES, &[])?;
    add_tick_rows(&mut novel)?;
    drop(novel);
    eprintln!(
        "generated {SCENES} scenes in {:.1} s",
        generated.elapsed().as_secs_f64()
    );
    let db_bytes = std::fs::metadata(root.join(DB_FILE))?.len();

    println!("## Results\n");
    println!(
        "{SCENES} scenes, novel.db {:.1} MB, {RUNS} runs each after one warm-up.\n",
        db_bytes as f64 / 1e6
    );
    println!("| what | p50 ms | max ms |\n|---|---:|---:|");

    let t = Instant::now();
    let novel = Novel::open(&root, Access::Write)?;
    let first = t.elapsed();
    let report = novel.last_reconcile().clone();
    assert_eq!(report.scenes_written.len(), SCENES as usize);
    assert_eq!(report.plans_written.len(), SCENES as usize);
    drop(novel);
    row(
        "open for writing, all 600 scene and plan files missing (rewritten)",
        &[first],
    );

    let times = measure(|| {
        let novel = Novel::open(&root, Access::Write).unwrap();
        assert!(novel.last_reconcile().is_empty());
    });
    row(
        "**open for writing, files in line (checked, none rewritten)**",
        &times,
    );

    let novel = Novel::open(&root, Access::Write)?;
    let times = measure(|| {
        assert!(
            store::integrity_problems(novel.store().conn(), Check::Quick)
                .unwrap()
                .is_empty()
        );
    });
    row("of which `PRAGMA quick_check`", &times);
    let times = measure(|| {
        assert!(
            reconcile::reconcile(&root, novel.store().conn())
                .unwrap()
                .is_empty()
        );
    });
    row("of which comparing 600 files with the database", &times);
    drop(novel);

    let times = measure(|| {
        drop(Novel::open(&root, Access::Read).unwrap());
    });
    row("open for reading", &times);

    let novel = Novel::open(&root, Access::Write)?;
    let mut taken = Vec::new();
    let times = measure(|| {
        taken.push(
            backup::take(
                novel.store().conn(),
                &root,
                None,
                &novel_core::clock::SystemClock,
            )
            .unwrap(),
        );
    });
    row("backup (online copy into backups/, pruned to 10)", &times);
    let backup_bytes = std::fs::metadata(&taken.last().unwrap().path)?.len();
    println!(
        "\nA backup is {:.1} MB (the database, rewritten as one file).",
        backup_bytes as f64 / 1e6
    );
    Ok(())
}

/// One `ticks` row per generated scene, with a plan and report the size a real tick stores.
fn add_tick_rows(novel: &mut Novel) -> Result<(), Box<dyn std::error::Error>> {
    let store = novel.store_mut().expect("created for writing");
    let tx = store.transaction()?;
    for tick in 1..=SCENES {
        let action = |i: u32| {
            json!({"id": format!("a{i}"), "tool": "memory.search",
                   "args": {"query": format!("what Tamsin knows about the harbor watch, part {i}")},
                   "reason": "recall what the story already holds before the scene"})
        };
        let plan = json!({
            "rationale": "Keep the pressure on: the watch closes in while Tamsin tests Bram.",
            "scene_intention": format!("Scene {tick}: Tamsin and Bram cross the flooded market."),
            "pov_character": "C0", "target_location": "L0",
            "actions": (0..3).map(action).collect::<Vec<_>>(),
            "expected_outcomes": ["Tamsin learns who wrote her name", "Bram's loyalty is tested"]
        });
        let result = |i: u32| {
            json!({"id": format!("a{i}"), "tool": "memory.search", "attempts": 1,
                   "output": {"hits": (0..5).map(|h| json!({"id": format!("S{h}"),
                       "snippet": "Rain had found its way under Tamsin's collar again; the tide bells were quiet."}))
                       .collect::<Vec<_>>()}})
        };
        store::insert_tick(
            &tx,
            &TickRecord {
                tick,
                plan: Some(plan),
                execution: Some(json!({"success": true,
                    "results": (0..3).map(result).collect::<Vec<_>>()})),
                findings: json!([]),
                usage: json!({"roles": {"planner": {"calls": 1, "prompt_tokens": 2400, "completion_tokens": 300}}}),
                timings: json!({"planning": 900, "writing": 14000}),
                started_at: format!("2026-11-23T10:{:02}:{:02}Z", tick / 60, tick % 60),
                finished_at: format!("2026-11-23T10:{:02}:{:02}Z", tick / 60, tick % 60),
                notes: Vec::new(),
                context_used: None,
            },
        )?;
    }
    tx.commit()?;
    Ok(())
}

fn measure(mut f: impl FnMut()) -> Vec<Duration> {
    f();
    (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect()
}

fn row(what: &str, times: &[Duration]) {
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    println!(
        "| {what} | {:.1} | {:.1} |",
        ms[ms.len() / 2],
        ms[ms.len() - 1]
    );
}
