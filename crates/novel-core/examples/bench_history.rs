//! How long the writer waits for history moves on a long novel: rewinding by 1, 10 and 100
//! scenes at scene 300, switching back to the branch that keeps them, and regenerating the
//! latest scene (its undo, plus a tick against an instant scripted model).
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_history
//! ```
//!
//! The novel is `novel_core::synthetic` (a growing cast and map, 500–700 words a scene), each
//! scene a recorded change as a tick leaves it. Each figure is the median of 5 runs; the novel
//! is moved back between runs, so every run starts from scene 300.

use std::sync::Arc;
use std::time::{Duration, Instant};

use novel_core::clock::SystemClock;
use novel_core::control;
use novel_core::synthetic;
use novel_core::tick::{CancelToken, Models, TickOptions};
use novel_llm::ScriptedModel;
use serde_json::json;

const SCENES: u32 = 300;
const RUNS: usize = 5;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn scripted() -> Models {
    let plan = json!({"rationale": "r", "scene_intention": "Tamsin waits out the tide.",
        "pov_character": "C0", "target_location": "L0", "actions": []});
    let prose = "Rain worked its way under Tamsin's collar while the tide turned. ".repeat(60);
    let extraction = json!({"title": "Slack Water", "summary": ["Tamsin waits.", "The tide turns.", "No one comes."], "tension": 4});
    let model = ScriptedModel::new()
        .reply_json(&plan)
        .reply(prose)
        .reply_json(&extraction);
    Models::single(Arc::new(model))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let started = Instant::now();
    let mut novel = synthetic::generate(&tmp.path().join("novel"), SCENES, &[])?;
    println!(
        "generated {SCENES} scenes in {:.1} s; database {:.1} MB",
        started.elapsed().as_secs_f64(),
        std::fs::metadata(tmp.path().join("novel/novel.db"))?.len() as f64 / 1e6
    );
    println!("| move at scene {SCENES} | median of {RUNS} |");
    println!("|---|---|");
    for back in [1, 10, 100] {
        let (mut rewinds, mut returns) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let t = Instant::now();
            let report = control::rewind(&mut novel, SCENES - back, &SystemClock)?;
            rewinds.push(t.elapsed());
            let kept = report.kept_in.expect("later scenes are kept");
            let t = Instant::now();
            control::switch(&mut novel, &kept)?;
            returns.push(t.elapsed());
            // Back to one branch for the next run.
            control::delete(&mut novel, "main")?;
            control::rename(&mut novel, &kept, "main")?;
        }
        println!("| rewind {back} scene(s) | {} |", ms(median(rewinds)));
        println!(
            "| switch back to the branch holding them | {} |",
            ms(median(returns))
        );
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let mut regenerations = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        runtime.block_on(control::regenerate(
            &mut novel,
            &scripted(),
            &TickOptions::default(),
            &(),
            &CancelToken::new(),
            &SystemClock,
        ))?;
        regenerations.push(t.elapsed());
    }
    println!(
        "| regenerate the latest scene (undo + a tick with an instant model) | {} |",
        ms(median(regenerations))
    );
    Ok(())
}
