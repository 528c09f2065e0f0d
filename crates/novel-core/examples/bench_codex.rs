//! Benchmark of a codex page on a long novel, printed as Markdown (BENCHMARKS.md keeps the
//! results):
//!
//! ```sh
//! cargo run --release -p novel-core --example bench_codex
//! ```
//!
//! A generated 300-scene novel (`novel_core::synthetic`, 500–700 words a scene) is opened for
//! reading, as the app reads it, and the codex page (`views::codex_entry`: the record's fields,
//! relationships, history in sentences and its mentions across the book from the keyword
//! index) of the protagonist (named in most scenes), another character, a place and a lore
//! entry is built 30 times each after one warm-up.

use std::time::{Duration, Instant};

use novel_core::novel::{Access, Novel};
use novel_core::store;
use novel_core::synthetic;
use novel_core::views;

const SCENES: u32 = 300;
const RUNS: usize = 30;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("novel");
    let generated = Instant::now();
    drop(synthetic::generate(&root, SCENES, &[])?);
    eprintln!(
        "generated {SCENES} scenes in {:.1} s",
        generated.elapsed().as_secs_f64()
    );
    let novel = Novel::open(&root, Access::Read)?;
    let conn = novel.store().conn();
    let characters = store::list_characters(conn)?;
    let places = store::list_locations(conn)?;
    let lore = store::list_lore(conn)?;
    let mut pages: Vec<(String, String)> = vec![(
        format!("protagonist ({})", characters[0].name),
        characters[0].id.clone(),
    )];
    if let Some(c) = characters.get(characters.len() / 2) {
        pages.push((format!("another character ({})", c.name), c.id.clone()));
    }
    pages.push((
        format!("a place ({})", places[0].name),
        places[0].id.clone(),
    ));
    if let Some(f) = lore.first() {
        pages.push(("a lore entry".into(), f.id.clone()));
    }

    println!("## Results\n");
    println!("{SCENES} scenes, {RUNS} runs each after one warm-up.\n");
    println!(
        "| page | passages shown (2 a scene at most) | scenes naming it | p50 ms | max ms |\n|---|---:|---:|---:|---:|"
    );
    for (label, id) in pages {
        let page = views::codex_entry(conn, &id)?.ok_or("the page exists")?;
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let t = Instant::now();
            let again = views::codex_entry(conn, &id)?;
            times.push(t.elapsed());
            assert!(again.is_some());
        }
        times.sort();
        println!(
            "| {label} | {} | {} | {:.1} | {:.1} |",
            page.mentions.len(),
            page.mention_scenes,
            ms(times[RUNS / 2]),
            ms(times[RUNS - 1])
        );
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
