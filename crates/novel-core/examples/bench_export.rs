//! How long exporting a long novel takes: Markdown, EPUB and DOCX of a 300-scene generated
//! novel grouped into chapters of ten scenes, each the median of 5 runs after one warm-up.
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_export
//! ```

use std::time::{Duration, Instant};

use novel_core::chapters;
use novel_core::clock::SystemClock;
use novel_core::export::{self, ExportFormat, ExportOptions};
use novel_core::synthetic;

const SCENES: u32 = 300;
const RUNS: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let mut novel = synthetic::generate(&tmp.path().join("novel"), SCENES, &[])?;
    chapters::propose(&mut novel, 10, &SystemClock)?;
    let words: i64 = novel.store().conn().query_row(
        "SELECT COALESCE(SUM(word_count), 0) FROM scenes",
        [],
        |r| r.get(0),
    )?;
    println!(
        "{SCENES} scenes, {words} words, {} chapters",
        chapters::list(&novel)?.len()
    );
    println!("| format | median of {RUNS} | size |");
    println!("|---|---|---|");
    for format in [
        ExportFormat::Markdown,
        ExportFormat::Epub,
        ExportFormat::Docx,
    ] {
        let render = || {
            export::render(
                novel.store().conn(),
                novel.config(),
                format,
                &ExportOptions::default(),
                &SystemClock,
            )
        };
        let bytes = render()?.len();
        let mut runs: Vec<Duration> = (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                render().map(|_| t.elapsed())
            })
            .collect::<Result<_, _>>()?;
        runs.sort();
        println!(
            "| {format:?} | {:.1} ms | {:.1} MB |",
            runs[RUNS / 2].as_secs_f64() * 1000.0,
            bytes as f64 / 1e6
        );
    }
    Ok(())
}
