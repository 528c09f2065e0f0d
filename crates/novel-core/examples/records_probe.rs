//! Whom the record checks name on published prose. The corpus casts (`tests/prose`) record
//! almost no looks, injuries or ages, so the checks are quiet there by construction; this
//! probe gives every character records that the books are bound to disagree with — violet
//! eyes, white hair, age five, a broken left leg and a broken right arm — and lists every
//! finding with the person it names and its sentence, so a reader can judge whether the
//! sentence really is about that person's eyes, hair, age, running or arms (the attribution
//! the severity rests on). BENCHMARKS.md keeps the last reading.
//!
//! `cargo run -p novel-core --example records_probe`

use std::path::Path;

use novel_core::evaluate::corpus::load_corpus;
use novel_core::evaluate::{Check, EvalInput, Severity, evaluate};
use novel_core::model::Condition;

fn injury(name: &str) -> Condition {
    Condition {
        name: name.into(),
        kind: "injury".into(),
        since_tick: 1,
        until_tick: None,
        note: String::new(),
    }
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prose");
    let books = load_corpus(&dir).expect("the committed corpus loads");
    let (mut violations, mut notes, mut words) = (0, 0, 0);
    for book in &books {
        let mut cast = book.characters.clone();
        for c in &mut cast {
            c.facts.insert("eyes".into(), "violet".into());
            c.facts.insert("hair".into(), "white".into());
            c.facts.insert("age".into(), "5".into());
            c.conditions.push(injury("broken left leg"));
            c.conditions.push(injury("broken right arm"));
        }
        for chunk in &book.chunks {
            words += chunk.text.split_whitespace().count();
            let pov = cast
                .iter()
                .find(|c| c.id == chunk.pov_character)
                .expect("the corpus loader checks every POV character is in the cast");
            let findings = evaluate(&EvalInput {
                prose: &chunk.text,
                pov: book.mode.narration.point_of_view(),
                tense: book.mode.tense,
                pov_character: pov,
                characters: &cast,
                scene_location: None,
                locations: &book.locations,
                lost_items: &[],
                off_page: &[],
                target_words: (1, 1_000_000),
            });
            for f in findings.iter().filter(|f| f.check == Check::Contradiction) {
                // The life-and-death findings are not this probe's: the records it adds say
                // nothing of who is alive.
                if f.message.contains("treats them as") {
                    continue;
                }
                match f.severity {
                    Severity::Violation => violations += 1,
                    _ => notes += 1,
                }
                let who = cast
                    .iter()
                    .find(|c| Some(&c.id) == f.record.as_ref())
                    .map_or("?", |c| c.name.as_str());
                println!(
                    "{} {} [{:?}] {who}: {}",
                    book.id,
                    chunk.file,
                    f.severity,
                    f.sentence.as_deref().unwrap_or("").replace('\n', " ")
                );
            }
        }
    }
    println!("{words} words: {violations} violations, {notes} notes");
}
