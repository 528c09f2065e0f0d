//! Progression, part three: stalls — a scene that says what an earlier scene said. By meaning
//! when the novel has summary vectors (cosine ≥ [`SAME_MEANING`]), else by wording: the
//! overlap of word shingles of the prose (≥ [`SAME_WORDING`]) or of the summaries' content
//! words (≥ [`SAME_SUMMARY`]). A plan that asks for the scene an earlier plan asked for is a
//! stall of the planner, caught before it reaches the page.

use std::collections::HashSet;

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind};
use super::words::{content_words, jaccard, set_overlap, shingles};

/// Cosine of two summary vectors above which two scenes say the same thing.
pub const SAME_MEANING: f32 = 0.93;
/// Overlap of 3-word shingles of the prose above which a scene repeats another.
pub const SAME_WORDING: f64 = 0.35;
/// Overlap of the summaries' content words above which a scene repeats another.
pub const SAME_SUMMARY: f64 = 0.6;
/// Overlap of the plans' intentions (content words) above which a plan repeats another.
pub const SAME_INTENTION: f64 = 0.75;

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

pub fn criterion(book: &Book) -> (Criterion, &'static str) {
    let mut failures = Vec::new();
    let mut flagged: HashSet<u32> = HashSet::new();
    let by_meaning = book.vectors.len() >= book.scenes.len().max(1) * 9 / 10;
    let shingled: Vec<Vec<u64>> = book.words.iter().map(|w| shingles(w, 3)).collect();
    let summaries: Vec<HashSet<String>> = book
        .scenes
        .iter()
        .map(|s| content_words(&s.summary.join(" ")))
        .collect();
    let vector_of = |tick: u32| {
        book.vectors
            .binary_search_by_key(&tick, |(t, _)| *t)
            .ok()
            .map(|i| &book.vectors[i].1)
    };
    for (i, later) in book.scenes.iter().enumerate() {
        let mut best: Option<(usize, String)> = None;
        for (j, earlier) in book.scenes[..i].iter().enumerate() {
            let wording = jaccard(&shingled[i], &shingled[j]);
            let reason = if wording >= SAME_WORDING {
                Some(format!(
                    "{:.0}% of its wording is scene {}'s",
                    wording * 100.0,
                    earlier.tick
                ))
            } else if by_meaning {
                match (vector_of(later.tick), vector_of(earlier.tick)) {
                    (Some(a), Some(b)) if cosine(a, b) >= SAME_MEANING => Some(format!(
                        "its summary says what scene {}'s says (similarity {:.2})",
                        earlier.tick,
                        cosine(a, b)
                    )),
                    _ => None,
                }
            } else {
                let overlap = set_overlap(&summaries[i], &summaries[j]);
                (overlap >= SAME_SUMMARY).then(|| {
                    format!(
                        "its summary repeats scene {}'s ({:.0}% of the same words)",
                        earlier.tick,
                        overlap * 100.0
                    )
                })
            };
            if let Some(r) = reason {
                best = Some((j, r));
            }
        }
        if let Some((j, reason)) = best {
            flagged.insert(later.tick);
            failures.push(AuditFailure {
                kind: FailureKind::NearDuplicate,
                scenes: vec![
                    book.scene_ref(later.tick),
                    book.scene_ref(book.scenes[j].tick),
                ],
                why: format!("This scene tells again what an earlier one told: {reason}."),
                record: None,
            });
        }
    }
    failures.extend(repeated_intentions(book, &flagged));
    let n = book.scenes.len().max(1) as f64;
    let score = 100.0 * (1.0 - failures.len() as f64 / n).max(0.0);
    let how = if by_meaning {
        "by meaning"
    } else {
        "by wording"
    };
    (
        Criterion {
            key: CriterionKey::Stalls,
            title: "The story moves on instead of repeating itself".into(),
            score,
            measure: format!(
                "{} of {} scenes repeat an earlier scene or plan (compared {how})",
                failures.len(),
                book.scenes.len()
            ),
            failures,
        },
        how,
    )
}

/// Plans that asked for what an earlier plan asked for, in scenes not already flagged.
fn repeated_intentions(book: &Book, flagged: &HashSet<u32>) -> Vec<AuditFailure> {
    let intentions: Vec<(u32, String, HashSet<String>)> = book
        .scenes
        .iter()
        .filter_map(|s| {
            let text = book
                .ticks
                .get(&s.tick)?
                .plan
                .as_ref()?
                .get("scene_intention")?
                .as_str()?
                .to_string();
            let words = content_words(&text);
            (words.len() >= 4).then_some((s.tick, text, words))
        })
        .collect();
    let mut out = Vec::new();
    for (i, (tick, text, words)) in intentions.iter().enumerate() {
        if flagged.contains(tick) {
            continue;
        }
        if let Some((earlier, _, _)) = intentions[..i]
            .iter()
            .rev()
            .find(|(_, _, w)| set_overlap(words, w) >= SAME_INTENTION)
        {
            out.push(AuditFailure {
                kind: FailureKind::RepeatedIntention,
                scenes: vec![book.scene_ref(*tick), book.scene_ref(*earlier)],
                why: format!(
                    "The plan asked again for what scene {earlier}'s plan asked for: \"{text}\"."
                ),
                record: None,
            });
        }
    }
    out
}
