//! How long the writer waits when shaping a long novel by hand: adding a scene near the start
//! (every later scene renumbered, with its records, passages, roll-ups and files), moving the
//! last scene to the front, deleting the first, adding one at the end — and undoing each.
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_shape
//! ```
//!
//! The novel is `novel_core::synthetic` with 300 scenes and its files written; each figure is
//! the median of 5 runs, each change undone before the next run.

use std::time::{Duration, Instant};

use novel_core::clock::SystemClock;
use novel_core::shape::{self, Place};
use novel_core::synthetic;

const SCENES: u32 = 300;
const RUNS: usize = 5;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

type Change = fn(&mut novel_core::novel::Novel) -> Result<shape::Shaped, shape::ShapeError>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let mut novel = synthetic::generate(&tmp.path().join("novel"), SCENES, &[])?;
    novel.reconcile_files()?;
    let changes: [(&str, Change); 4] = [
        ("add a scene after scene 1 (299 renumbered)", |n| {
            let prose = "Tamsin read the tide almanac twice. ".repeat(80);
            shape::add_scene(n, Place::Before(2), "The Almanac", &prose, &SystemClock)
        }),
        ("move scene 300 to the front (300 renumbered)", |n| {
            shape::move_scene(n, SCENES, Place::Before(1), &SystemClock)
        }),
        ("delete scene 1 (299 renumbered)", |n| {
            shape::delete_scene(n, 1, &SystemClock)
        }),
        ("add a scene at the end", |n| {
            let prose = "Tamsin read the tide almanac twice. ".repeat(80);
            shape::add_scene(
                n,
                Place::EndOfChapter(30),
                "The Almanac",
                &prose,
                &SystemClock,
            )
        }),
    ];
    println!("| change at {SCENES} scenes | the change | its undo |");
    println!("|---|---|---|");
    for (name, change) in changes {
        let (mut made, mut undone) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let t = Instant::now();
            change(&mut novel)?;
            made.push(t.elapsed());
            let t = Instant::now();
            shape::undo(&mut novel)?;
            undone.push(t.elapsed());
        }
        println!("| {name} | {} | {} |", ms(median(made)), ms(median(undone)));
    }
    Ok(())
}
