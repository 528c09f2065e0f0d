//! How long the deterministic checks take: every check (`evaluate::evaluate`) over a scene
//! and over texts of growing length, built from the long passages of the check corpus
//! (`tests/corpus/long.toml`), with a small cast in memory. The first call compiles the
//! patterns and is reported on its own; the rest are the median of several runs.
//!
//! `cargo run --release -p novel-core --example bench_checks`

use std::time::{Duration, Instant};

use novel_core::config::{PointOfView, Tense};
use novel_core::evaluate::{EvalInput, evaluate};
use novel_core::model::Character;
use serde_json::json;

fn character(id: &str, name: &str, pronouns: &str) -> Character {
    serde_json::from_value(json!({
        "id": id, "name": name, "first_tick": 1, "last_update_tick": 1,
        "facts": { "pronouns": pronouns }
    }))
    .expect("a valid character")
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/long.toml");
    let corpus: toml::Value =
        toml::from_str(&std::fs::read_to_string(path).expect("the corpus")).expect("TOML");
    let passages: Vec<&str> = corpus["passage"]
        .as_array()
        .expect("passages")
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect();
    let cast = vec![
        character("C1", "Tamsin Reed", "she/her"),
        character("C2", "Bram Hale", "he/him"),
        character("C3", "Maud Fenn", "she/her"),
        character("C4", "Marcus Dole", "he/him"),
        character("C5", "Lena Marsh", "she/her"),
    ];
    let check = |text: &str| {
        evaluate(&EvalInput {
            prose: text,
            pov: PointOfView::DeepThird,
            tense: Tense::Past,
            pov_character: &cast[0],
            characters: &cast,
            scene_location: None,
            locations: &[],
            lost_items: &[],
            off_page: &[],
            target_words: (1, 1_000_000),
        })
        .len()
    };
    let t = Instant::now();
    check(passages[0]);
    println!("first call (patterns compiled): {:?}", t.elapsed());
    println!("{:>9} {:>12} {:>14}", "words", "median", "µs per word");
    for n in [1, 2, 10, 40] {
        let text = passages
            .iter()
            .cycle()
            .take(n)
            .copied()
            .collect::<Vec<_>>()
            .join("\n\n");
        let words = text.split_whitespace().count();
        let runs = (0..5)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(check(&text));
                t.elapsed()
            })
            .collect();
        let m = median(runs);
        println!(
            "{words:>9} {:>12?} {:>14.1}",
            m,
            m.as_secs_f64() * 1e6 / words as f64
        );
    }
}
