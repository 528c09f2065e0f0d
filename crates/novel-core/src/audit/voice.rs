//! Point of view and tone: the checks' point-of-view and tense findings summed over the book;
//! voice drift — each scene's style profile (sentence length and its spread, dialogue share,
//! vocabulary richness, adverb and filter-word rates, past-tense and first-person shares)
//! against the book's own norm as robust z-scores (median and MAD, so the drifting scenes do
//! not move the norm); and a tension curve that stays flat for too long.

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind};
use super::words::{median, sentences, words};
use crate::evaluate::{Check, Finding, Severity};

/// A scene whose distance from the book's style is over this is flagged (see docs/audit.md).
pub const DRIFT: f64 = 3.0;
/// Scenes of tension within one point before the curve counts as flat.
pub const FLAT: usize = 8;
/// A scene needs this many words for its style to be measured.
const MIN_WORDS: usize = 150;

const FILTER: [&str; 16] = [
    "saw", "heard", "felt", "noticed", "realized", "realised", "watched", "seemed", "wondered",
    "thought", "knew", "decided", "looked", "sensed", "see", "feel",
];
const NOT_ADVERBS: [&str; 16] = [
    "only", "family", "early", "likely", "holy", "belly", "fly", "reply", "supply", "ugly", "lily",
    "jelly", "rally", "ally", "silly", "hilly",
];
const PAST: [&str; 10] = [
    "was", "were", "had", "did", "said", "went", "came", "saw", "knew", "thought",
];
const FIRST: [&str; 5] = ["i", "me", "my", "mine", "myself"];

/// The style features, in the order of [`FEATURES`].
pub const FEATURES: [&str; 8] = [
    "sentence length",
    "sentence length spread",
    "dialogue share",
    "vocabulary richness",
    "adverbs",
    "filter words",
    "past-tense words",
    "first-person words",
];

/// The style profile of one scene (None when too short to measure).
pub fn profile(prose: &str) -> Option<[f64; 8]> {
    let all = words(prose);
    if all.len() < MIN_WORDS {
        return None;
    }
    let lengths: Vec<f64> = sentences(prose)
        .iter()
        .map(|s| words(s).len() as f64)
        .filter(|n| *n > 0.0)
        .collect();
    let mean = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
    let spread = (lengths.iter().map(|l| (l - mean).powi(2)).sum::<f64>()
        / lengths.len().max(1) as f64)
        .sqrt()
        / mean.max(1.0);
    // Words inside quotation marks, and the narration outside them.
    let mut inside = false;
    let mut narration = String::with_capacity(prose.len());
    let mut dialogue_chars = 0usize;
    for ch in prose.chars() {
        match ch {
            '"' => inside = !inside,
            '“' => inside = true,
            '”' => inside = false,
            _ if inside => dialogue_chars += 1,
            _ => narration.push(ch),
        }
    }
    let dialogue = dialogue_chars as f64 / prose.chars().count().max(1) as f64;
    let told = words(&narration);
    let n = all.len() as f64;
    let per100 = |count: usize| 100.0 * count as f64 / n;
    let adverbs = all
        .iter()
        .filter(|w| w.len() > 4 && w.ends_with("ly") && !NOT_ADVERBS.contains(&w.as_str()))
        .count();
    let filters = all.iter().filter(|w| FILTER.contains(&w.as_str())).count();
    let past = told
        .iter()
        .filter(|w| PAST.contains(&w.as_str()) || (w.len() > 4 && w.ends_with("ed")))
        .count();
    let first = told.iter().filter(|w| FIRST.contains(&w.as_str())).count();
    // Present-tense narration rarely marks itself ("I run"): the past forms per 100 words of
    // narration tell the tenses apart better than a share of marked forms.
    let told_n = told.len().max(1) as f64;
    let rate = |count: usize| 100.0 * count as f64 / told_n;
    Some([
        mean,
        spread,
        dialogue,
        richness(&all),
        per100(adverbs),
        per100(filters),
        rate(past),
        rate(first),
    ])
}

/// Moving-average type-token ratio over windows of 100 words (independent of scene length).
fn richness(words: &[String]) -> f64 {
    const WINDOW: usize = 100;
    if words.len() <= WINDOW {
        let distinct: std::collections::HashSet<&String> = words.iter().collect();
        return distinct.len() as f64 / words.len().max(1) as f64;
    }
    let mut total = 0.0;
    let mut count = 0;
    for start in (0..=words.len() - WINDOW).step_by(25) {
        let distinct: std::collections::HashSet<&String> =
            words[start..start + WINDOW].iter().collect();
        total += distinct.len() as f64 / WINDOW as f64;
        count += 1;
    }
    total / f64::from(count.max(1))
}

/// Each scene's distance from the book's style, and the features that set it apart.
pub fn distances(book: &Book) -> Vec<(f64, Vec<String>)> {
    let profiles: Vec<Option<[f64; 8]>> = book.scenes.iter().map(|s| profile(&s.prose)).collect();
    let measured: Vec<&[f64; 8]> = profiles.iter().flatten().collect();
    if measured.len() < 8 {
        return vec![(0.0, Vec::new()); book.scenes.len()];
    }
    let mut centre = [0.0; 8];
    let mut scale = [0.0; 8];
    for f in 0..8 {
        let values: Vec<f64> = measured.iter().map(|p| p[f]).collect();
        centre[f] = median(&values);
        let deviations: Vec<f64> = values.iter().map(|v| (v - centre[f]).abs()).collect();
        // A floor on the spread: a book whose scenes barely vary in one feature would make a
        // trivial difference look enormous.
        let floor = [1.5, 0.05, 0.03, 0.015, 0.15, 0.15, 1.0, 0.5][f];
        scale[f] = (1.4826 * median(&deviations)).max(floor);
    }
    profiles
        .iter()
        .map(|p| {
            let Some(p) = p else {
                return (0.0, Vec::new());
            };
            let z: Vec<f64> = (0..8).map(|f| (p[f] - centre[f]) / scale[f]).collect();
            // The mean of the three largest |z|: one odd feature is style, several together
            // are another voice.
            let mut abs: Vec<f64> = z.iter().map(|v| v.abs()).collect();
            abs.sort_by(|a, b| b.total_cmp(a));
            let distance = abs.iter().take(3).sum::<f64>() / 3.0;
            let apart = (0..8)
                .filter(|f| z[*f].abs() >= 3.0)
                .map(|f| {
                    format!(
                        "{} {} ({:.2} against the book's {:.2})",
                        FEATURES[f],
                        if z[f] > 0.0 { "higher" } else { "lower" },
                        p[f],
                        centre[f]
                    )
                })
                .collect();
            (distance, apart)
        })
        .collect()
}

pub fn voice(book: &Book, distances: &[(f64, Vec<String>)]) -> Criterion {
    let mut failures = Vec::new();
    for (s, (d, apart)) in book.scenes.iter().zip(distances) {
        if *d > DRIFT {
            failures.push(AuditFailure {
                kind: FailureKind::VoiceDrift,
                scenes: vec![book.scene_ref(s.tick)],
                why: format!(
                    "The scene does not sound like the rest of the book (distance {d:.1}): {}.",
                    apart.join("; ")
                ),
                record: None,
            });
        }
    }
    let n = book.scenes.len().max(1);
    Criterion {
        key: CriterionKey::Voice,
        title: "Every scene sounds like the book".into(),
        score: 100.0 * (1.0 - failures.len() as f64 / n as f64),
        measure: format!(
            "{} of {} scenes far from the book's own style",
            failures.len(),
            book.scenes.len()
        ),
        failures,
    }
}

fn is_pov(check: Check) -> bool {
    matches!(
        check,
        Check::PovLeak | Check::OtherMind | Check::TenseDrift | Check::PersonDrift | Check::OffPage
    )
}

pub fn pov(book: &Book) -> Criterion {
    let mut failures = Vec::new();
    let mut total = 0;
    for s in &book.scenes {
        let Some(record) = book.ticks.get(&s.tick) else {
            continue;
        };
        let findings: Vec<Finding> =
            serde_json::from_value(record.findings.clone()).unwrap_or_default();
        let found: Vec<&Finding> = findings
            .iter()
            .filter(|f| is_pov(f.check) && f.severity >= Severity::Warning)
            .collect();
        if found.is_empty() {
            continue;
        }
        total += found.len();
        let mut labels: Vec<&str> = found.iter().map(|f| f.check.label()).collect();
        labels.dedup();
        failures.push(AuditFailure {
            kind: FailureKind::PovFindings,
            scenes: vec![book.scene_ref(s.tick)],
            why: format!(
                "The checks found {} point-of-view or tense problem{} here ({}), first: {}",
                found.len(),
                if found.len() == 1 { "" } else { "s" },
                labels.join(", "),
                found[0].message
            ),
            record: None,
        });
    }
    let n = book.scenes.len().max(1);
    Criterion {
        key: CriterionKey::Pov,
        title: "The point of view holds".into(),
        score: 100.0 * (1.0 - failures.len() as f64 / n as f64),
        measure: format!(
            "{total} point-of-view and tense findings in {} of {} scenes",
            failures.len(),
            book.scenes.len()
        ),
        failures,
    }
}

pub fn tension(book: &Book) -> Criterion {
    let curve: Vec<(u32, u8)> = book
        .scenes
        .iter()
        .filter_map(|s| s.tension.map(|t| (s.tick, t)))
        .collect();
    let mut failures = Vec::new();
    let mut start = 0;
    while start < curve.len() {
        let (mut lo, mut hi) = (curve[start].1, curve[start].1);
        let mut end = start;
        while end + 1 < curve.len() {
            let t = curve[end + 1].1;
            if t.max(hi) - t.min(lo) > 1 {
                break;
            }
            lo = lo.min(t);
            hi = hi.max(t);
            end += 1;
        }
        let len = end - start + 1;
        if len >= FLAT {
            failures.push(AuditFailure {
                kind: FailureKind::TensionFlat,
                scenes: vec![book.scene_ref(curve[start].0), book.scene_ref(curve[end].0)],
                why: format!(
                    "The tension stays between {lo} and {hi} for {len} scenes, from scene {} to scene {}.",
                    curve[start].0, curve[end].0
                ),
                record: None,
            });
        }
        start = end + 1;
    }
    let flat: usize = failures.len();
    let values: Vec<f64> = curve.iter().map(|c| f64::from(c.1)).collect();
    let range = values.iter().copied().fold(f64::MIN, f64::max)
        - values.iter().copied().fold(f64::MAX, f64::min);
    Criterion {
        key: CriterionKey::Tension,
        title: "The tension rises and falls".into(),
        score: (100.0 - 25.0 * flat as f64).max(0.0),
        measure: format!(
            "{flat} flat stretches of {FLAT} or more scenes; tension spans {} points",
            if values.is_empty() { 0.0 } else { range }
        ),
        failures,
    }
}
