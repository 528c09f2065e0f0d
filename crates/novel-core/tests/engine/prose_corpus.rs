//! The checks on published prose (`tests/prose`, see its FORMAT.md): public-domain books in every
//! mode a novel can be set to, each with the cast a user would enter, and sentences from them
//! labelled with what must fire. Asserts the targets a writer can trust — on the published
//! prose at most 0.1 violations and 0.5 warnings per 1,000 words in every mode (notes at most
//! 1.0); on the labelled sentences precision (of violations, what spends the revision) and
//! recall (of any finding, what the writer is shown) of at least 0.9 per check family — and,
//! where a figure is not there yet, that no change makes it worse than today.
//!
//! `cargo test -p novel-core --test engine prose_corpus:: -- --nocapture` prints the figures;
//! `novel check --corpus crates/novel-core/tests/prose --show all` lists every finding.

use std::path::Path;

use novel_core::evaluate::corpus::{Family, Part, load_corpus, score_corpus};
use novel_core::evaluate::trained_items;

/// The targets a writer can trust (issue: trusted checks).
const MAX_VIOLATIONS_PER_1000: f64 = 0.1;
const MAX_WARNINGS_PER_1000: f64 = 0.5;
/// Notes are the uncertain cases, shown to the writer and never acted on; they are held to a
/// bound of their own so that uncertainty does not become the place false alarms go.
const MAX_NOTES_PER_1000: f64 = 1.0;
const MIN_PRECISION: f64 = 0.9;
const MIN_RECALL: f64 = 0.9;
/// Where a family's recall is not at the target yet, the floor is today's figure on the whole
/// labelled set, less its rounding, so a change can only raise it; each entry goes when its
/// family meets the target. Every family is also read by the learned reading
/// (`evaluate/learned`), which is trained on the tuning items, so these whole-set figures
/// (1.00 to 0.97 on 12,249 items, 2026-11-28) say little more than that the shipped
/// models are loaded and used; what the checks find in prose they have not seen is measured
/// on the held-out part and part by part left out of training (BENCHMARKS.md).
const RECALL_FLOORS: &[(Family, f64)] = &[
    (Family::Leak, 0.95),
    (Family::Mind, 0.95),
    (Family::Tense, 0.95),
    (Family::Person, 0.95),
];
/// The corpus the issue asks for: at least this many words of published prose.
const MIN_WORDS: usize = 100_000;
const MIN_ITEMS: usize = 300;

#[test]
fn the_checks_raise_no_false_alarms_on_published_prose_and_catch_the_labelled_breaks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prose");
    let books = load_corpus(&dir).expect("the committed corpus loads");
    let report = score_corpus(&books);
    let mut failures = Vec::new();

    let words: usize = report.modes.values().map(|m| m.words).sum::<usize>()
        + report.contrast.values().map(|m| m.words).sum::<usize>();
    println!("{words} words of published prose in {} books", books.len());
    if words < MIN_WORDS {
        failures.push(format!(
            "the corpus has {words} words, fewer than {MIN_WORDS}"
        ));
    }
    for needed in [
        "first person, past",
        "first person, present",
        "close third, past",
        "close third, present",
    ] {
        if !report.modes.contains_key(needed) {
            failures.push(format!("no book in the corpus is told in the {needed}"));
        }
    }
    for (mode, f) in &report.modes {
        let per = |n: usize| f.per_thousand(n);
        println!(
            "{mode:<24} {:>7} words  violations {:.2}  warnings {:.2}  notes {:.2} per 1,000  {:?}",
            f.words,
            per(f.violations),
            per(f.warnings),
            per(f.notes),
            f.by_check
        );
        for (what, value, max) in [
            ("violations", per(f.violations), MAX_VIOLATIONS_PER_1000),
            ("warnings", per(f.warnings), MAX_WARNINGS_PER_1000),
            ("notes", per(f.notes), MAX_NOTES_PER_1000),
        ] {
            if value > max {
                failures.push(format!(
                    "{mode}: {value:.2} {what} per 1,000 words (at most {max}): {:?}",
                    f.by_check
                ));
            }
        }
    }

    let l = &report.labelled;
    println!("{} labelled items", l.items);
    if l.items < MIN_ITEMS {
        failures.push(format!(
            "{} labelled items, fewer than {MIN_ITEMS}",
            l.items
        ));
    }
    let (Some(violations), Some(flagged)) = (l.violations.get("all"), l.flagged.get("all")) else {
        panic!("no labelled items were scored");
    };
    for family in Family::ALL {
        let precise = violations.get(&family).copied().unwrap_or_default();
        let found = flagged.get(&family).copied().unwrap_or_default();
        let min_precision = MIN_PRECISION;
        let min_recall = RECALL_FLOORS
            .iter()
            .find(|f| f.0 == family)
            .map_or(MIN_RECALL, |f| f.1.min(MIN_RECALL));
        println!(
            "{:<7} expected {:>3}  precision (violations) {:.2}  recall (any finding) {:.2}  [any finding: precision {:.2}; violations: recall {:.2}]",
            family.name(),
            found.expected(),
            precise.precision(),
            found.recall(),
            found.precision(),
            precise.recall()
        );
        if found.expected() == 0 {
            failures.push(format!("no labelled item expects {}", family.name()));
        }
        if precise.precision() < min_precision || found.recall() < min_recall {
            failures.push(format!(
                "{}: precision {:.2} (at least {min_precision}), recall {:.2} (at least {min_recall})",
                family.name(),
                precise.precision(),
                found.recall()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The learned reading's weights (`evaluate/learned/weights`) come from the tuning items of
/// this corpus; when items are added or moved to tuning, the weights must be trained again
/// (`scripts/train_sentence_model.py`), or the figures above would measure a model that has
/// not seen what the corpus now teaches.
#[test]
fn the_learned_reading_was_trained_on_the_corpus_as_it_is() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prose");
    let books = load_corpus(&dir).expect("the committed corpus loads");
    let tuning = books
        .iter()
        .flat_map(|b| &b.items)
        .filter(|i| i.part == Part::Tune)
        .count();
    for (check, items) in trained_items() {
        assert_eq!(
            items, tuning,
            "the {check:?} weights were trained on {items} items; the corpus has {tuning} \
             tuning items: run `cargo run -p novel-core --example sentence_features -- \
             crates/novel-core/tests/prose > /tmp/rows.jsonl` and \
             `python3 scripts/train_sentence_model.py /tmp/rows.jsonl`"
        );
    }
}
