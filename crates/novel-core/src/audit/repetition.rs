//! Repetition and slop: phrases of [`PHRASE`] words (names left out) used in many scenes;
//! scenes that open or end alike (word-pair overlap ≥ [`ALIKE`], the threshold InkOS uses for
//! chapter openings); the stock-phrase rate per 1,000 words, and its trend from the first
//! quarter of the book to the last.

use std::collections::{HashMap, HashSet};

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind};
use super::words::{STOPWORDS, words};
use crate::evaluate::stock_phrase_count;

/// Words in a repeated phrase.
pub const PHRASE: usize = 5;
/// Overlap of word pairs at which two openings or endings are alike.
pub const ALIKE: f64 = 0.72;
/// Words of an opening or ending compared.
const EDGE: usize = 20;
/// Most repeated phrases reported.
const MAX_PHRASES: usize = 10;
/// A rise of the stock-phrase rate (per 1,000 words) from the first quarter to the last that
/// is a failure.
pub const STOCK_RISE: f64 = 0.5;

/// Stock phrases per 1,000 words of each scene.
pub fn stock_rates(book: &Book) -> Vec<f64> {
    book.scenes
        .iter()
        .map(|s| 1000.0 * stock_phrase_count(&s.prose) as f64 / f64::from(s.word_count.max(1)))
        .collect()
}

fn pairs(words: &[String]) -> HashSet<(String, String)> {
    words
        .windows(2)
        .map(|w| (w[0].clone(), w[1].clone()))
        .collect()
}

fn overlap(a: &HashSet<(String, String)>, b: &HashSet<(String, String)>) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let shared = a.intersection(b).count();
    shared as f64 / (a.len() + b.len() - shared) as f64
}

pub fn criterion(book: &Book, stock: &[f64]) -> Criterion {
    let mut failures = phrases(book);
    failures.extend(alike(book, true));
    failures.extend(alike(book, false));
    let q = (book.scenes.len() / 4).max(1);
    let words_of = |r: std::ops::Range<usize>| -> (f64, f64) {
        let scenes = &book.scenes[r];
        let w: f64 = scenes.iter().map(|s| f64::from(s.word_count)).sum();
        let n: f64 = scenes
            .iter()
            .map(|s| stock_phrase_count(&s.prose) as f64)
            .sum();
        (n, w.max(1.0))
    };
    let n = book.scenes.len();
    let (first, last) = if n >= 4 {
        let (a, aw) = words_of(0..q);
        let (b, bw) = words_of(n - q..n);
        (1000.0 * a / aw, 1000.0 * b / bw)
    } else {
        (0.0, 0.0)
    };
    if last - first > STOCK_RISE {
        failures.push(AuditFailure {
            kind: FailureKind::StockRising,
            scenes: vec![book.scene_ref(book.scenes[n - q].tick), book.scene_ref(book.scenes[n - 1].tick)],
            why: format!(
                "Stock phrasing grows from {first:.1} per 1,000 words in the first quarter of the book to {last:.1} in the last."
            ),
            record: None,
        });
    }
    let total_words: f64 = book.scenes.iter().map(|s| f64::from(s.word_count)).sum();
    let total_stock: f64 = book
        .scenes
        .iter()
        .map(|s| stock_phrase_count(&s.prose) as f64)
        .sum();
    let rate = 1000.0 * total_stock / total_words.max(1.0);
    let _ = stock;
    Criterion {
        key: CriterionKey::Repetition,
        title: "The prose does not repeat itself".into(),
        score: (100.0 - 5.0 * failures.len() as f64 - 20.0 * rate).max(0.0),
        measure: format!(
            "{:.2} stock phrases per 1,000 words ({first:.2} in the first quarter, {last:.2} in the last); {} repeated phrases, openings or endings",
            rate,
            failures.len()
        ),
        failures,
    }
}

/// Phrases of [`PHRASE`] words, no name among them and not all small words, found in at least
/// a fifth of the scenes (and four at least).
fn phrases(book: &Book) -> Vec<AuditFailure> {
    let names: HashSet<String> = book
        .characters
        .iter()
        .map(|c| c.name.as_str())
        .chain(book.locations.iter().map(|l| l.name.as_str()))
        .flat_map(words)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    let mut seen: HashMap<&[String], Vec<u32>> = HashMap::new();
    for (s, w) in book.scenes.iter().zip(&book.words) {
        let mut here: HashSet<&[String]> = HashSet::new();
        for gram in w.windows(PHRASE) {
            if gram.iter().any(|w| names.contains(w))
                || gram
                    .iter()
                    .filter(|w| !STOPWORDS.contains(&w.as_str()))
                    .count()
                    < 2
            {
                continue;
            }
            here.insert(gram);
        }
        for gram in here {
            seen.entry(gram).or_default().push(s.tick);
        }
    }
    let least = (book.scenes.len() / 5).max(4);
    let mut repeated: Vec<(&[String], Vec<u32>)> =
        seen.into_iter().filter(|(_, t)| t.len() >= least).collect();
    repeated.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    repeated
        .into_iter()
        .take(MAX_PHRASES)
        .map(|(gram, ticks)| AuditFailure {
            kind: FailureKind::RepeatedPhrase,
            scenes: ticks.iter().take(8).map(|t| book.scene_ref(*t)).collect(),
            why: format!(
                "\"{}\" comes back in {} scenes.",
                gram.join(" "),
                ticks.len()
            ),
            record: None,
        })
        .collect()
}

fn alike(book: &Book, openings: bool) -> Vec<AuditFailure> {
    let edges: Vec<HashSet<(String, String)>> = book
        .words
        .iter()
        .map(|w| {
            let part = if openings {
                &w[..w.len().min(EDGE)]
            } else {
                &w[w.len().saturating_sub(EDGE)..]
            };
            pairs(part)
        })
        .collect();
    let mut out = Vec::new();
    for i in 0..edges.len() {
        if let Some(j) = (0..i)
            .rev()
            .find(|j| overlap(&edges[i], &edges[*j]) >= ALIKE)
        {
            let (later, earlier) = (book.scenes[i].tick, book.scenes[j].tick);
            out.push(AuditFailure {
                kind: if openings {
                    FailureKind::AlikeOpenings
                } else {
                    FailureKind::AlikeEndings
                },
                scenes: vec![book.scene_ref(later), book.scene_ref(earlier)],
                why: format!(
                    "This scene {} as scene {earlier} does.",
                    if openings { "opens" } else { "ends" }
                ),
                record: None,
            });
        }
    }
    out
}
