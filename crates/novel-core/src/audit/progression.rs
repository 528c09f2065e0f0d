//! Progression, part one: did each scene do what its plan intended (the extractor's verdict,
//! stored when the scene was written), and is each outline beat done by a scene that realized
//! it, in the outline's order?

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind, PlanOutcome};
use crate::model::{BeatStatus, Realized};

/// What became of the plan of the scene of `tick`.
pub fn outcome(book: &Book, tick: u32) -> PlanOutcome {
    let planned = book
        .ticks
        .get(&tick)
        .and_then(|t| t.plan.as_ref())
        .and_then(|p| p.get("scene_intention"))
        .and_then(|i| i.as_str())
        .is_some_and(|i| !i.trim().is_empty())
        && !book.imported.contains(&tick);
    match book.verdicts.get(&tick).map(|v| v.verdict.verdict) {
        Some(Realized::Realized) => PlanOutcome::Realized,
        Some(Realized::Partly) => PlanOutcome::Partly,
        Some(Realized::Not) => PlanOutcome::Not,
        None if planned => PlanOutcome::NotJudged,
        None => PlanOutcome::NoPlan,
    }
}

fn intention(book: &Book, tick: u32) -> String {
    book.ticks
        .get(&tick)
        .and_then(|t| t.plan.as_ref())
        .and_then(|p| p.get("scene_intention"))
        .and_then(|i| i.as_str())
        .unwrap_or_default()
        .to_string()
}

fn missed(book: &Book, tick: u32) -> String {
    match book.verdicts.get(&tick) {
        Some(v) if !v.verdict.missed.is_empty() => {
            format!(" Missed: {}.", v.verdict.missed.join("; "))
        }
        _ => String::new(),
    }
}

pub fn plan(book: &Book) -> Criterion {
    let (mut realized, mut partly, mut judged, mut unjudged) = (0u32, 0u32, 0u32, 0u32);
    let mut failures = Vec::new();
    for s in &book.scenes {
        match outcome(book, s.tick) {
            PlanOutcome::Realized => {
                realized += 1;
                judged += 1;
            }
            PlanOutcome::Partly => {
                partly += 1;
                judged += 1;
                failures.push(AuditFailure {
                    kind: FailureKind::PlanPartly,
                    scenes: vec![book.scene_ref(s.tick)],
                    why: format!(
                        "The scene did only part of what it set out to do (\"{}\").{}",
                        intention(book, s.tick),
                        missed(book, s.tick)
                    ),
                    record: None,
                });
            }
            PlanOutcome::Not => {
                judged += 1;
                failures.push(AuditFailure {
                    kind: FailureKind::PlanNotRealized,
                    scenes: vec![book.scene_ref(s.tick)],
                    why: format!(
                        "The scene went elsewhere than it set out to (\"{}\").{}",
                        intention(book, s.tick),
                        missed(book, s.tick)
                    ),
                    record: None,
                });
            }
            PlanOutcome::NotJudged => unjudged += 1,
            PlanOutcome::NoPlan => {}
        }
    }
    let score = if judged == 0 {
        100.0
    } else {
        100.0 * (f64::from(realized) + 0.5 * f64::from(partly)) / f64::from(judged)
    };
    let mut measure = format!(
        "{realized} of {judged} judged scenes did what they set out to do, {partly} in part"
    );
    if unjudged > 0 {
        measure.push_str(&format!(
            "; {unjudged} scenes written before plans were judged are not judged"
        ));
    }
    Criterion {
        key: CriterionKey::Plan,
        title: "Scenes do what they set out to do".into(),
        score,
        measure,
        failures,
    }
}

/// Earlier beats still waiting when a later one was done: one failure per skipped beat, at the
/// first scene that went past it (every later beat done past it is the same skip).
fn skips(book: &Book) -> Vec<AuditFailure> {
    let mut out = Vec::new();
    for earlier in &book.beats {
        let past = book
            .beats
            .iter()
            .filter(|b| b.position > earlier.position && b.status == BeatStatus::Done)
            .filter_map(|b| b.done_tick.map(|t| (t, b)))
            .filter(|(t, _)| {
                earlier.status == BeatStatus::Open || earlier.done_tick.is_some_and(|e| e > *t)
            })
            .min_by_key(|(t, _)| *t);
        if let Some((tick, beat)) = past.filter(|(t, _)| book.in_range(*t)) {
            out.push(AuditFailure {
                kind: FailureKind::BeatSkipped,
                scenes: vec![book.scene_ref(tick)],
                why: format!(
                    "This scene did the outline's beat \"{}\" while the earlier beat \"{}\" was still waiting.",
                    beat.text, earlier.text
                ),
                record: Some(earlier.id.clone()),
            });
        }
    }
    out
}

/// The beat a scene's plan named.
fn beat_of(book: &Book, tick: u32) -> Option<String> {
    book.ticks
        .get(&tick)
        .and_then(|t| t.plan.as_ref())
        .and_then(|p| p.get("beat"))
        .and_then(|b| b.as_str())
        .map(str::to_string)
}

pub fn beats(book: &Book) -> Criterion {
    let mut failures = Vec::new();
    let mut done_ok = 0u32;
    let mut done = 0u32;
    for beat in &book.beats {
        let Some(tick) = beat.done_tick.filter(|t| book.in_range(*t)) else {
            continue;
        };
        if beat.status != BeatStatus::Done {
            continue;
        }
        done += 1;
        if outcome(book, tick) == PlanOutcome::Not {
            failures.push(AuditFailure {
                kind: FailureKind::BeatUnrealized,
                scenes: vec![book.scene_ref(tick)],
                why: format!(
                    "The outline's beat \"{}\" is marked done here, but the scene did not do it.{}",
                    beat.text,
                    missed(book, tick)
                ),
                record: Some(beat.id.clone()),
            });
        } else {
            done_ok += 1;
        }
    }
    failures.extend(skips(book));
    // Scenes whose plan named a beat that is still open: the beat waits for another scene.
    for s in &book.scenes {
        let Some(id) = beat_of(book, s.tick) else {
            continue;
        };
        let Some(beat) = book.beats.iter().find(|b| b.id == id) else {
            continue;
        };
        if beat.status == BeatStatus::Open && outcome(book, s.tick) == PlanOutcome::Not {
            failures.push(AuditFailure {
                kind: FailureKind::BeatUnrealized,
                scenes: vec![book.scene_ref(s.tick)],
                why: format!(
                    "The scene was meant for the outline's beat \"{}\" and did not do it; the beat still waits.",
                    beat.text
                ),
                record: Some(beat.id.clone()),
            });
        }
    }
    let open = book
        .beats
        .iter()
        .filter(|b| b.status == BeatStatus::Open)
        .count();
    let score = if done == 0 {
        100.0
    } else {
        100.0 * f64::from(done_ok) / f64::from(done)
    };
    let skipped = failures
        .iter()
        .filter(|f| f.kind == FailureKind::BeatSkipped)
        .count() as f64;
    Criterion {
        key: CriterionKey::Beats,
        title: "The outline is followed, beat by beat".into(),
        score: (score - 10.0 * skipped).max(0.0),
        measure: format!(
            "{done_ok} of {done} beats done in this range were done by a scene that did them; {open} still open; {skipped} skipped"
        ),
        failures,
    }
}
