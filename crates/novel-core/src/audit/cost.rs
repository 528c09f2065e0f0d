//! Cost, beside the quality numbers: LLM calls, tokens, revisions and failed attempts per
//! scene, from the tick records and the failure rows the store already keeps. A scene that
//! cost more than [`COSTLY`] times the book's median tokens is named.

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind};
use super::words::median;

/// Times the median scene's tokens above which a scene is named.
pub const COSTLY: f64 = 3.0;

/// Per scene: calls, tokens, revised, failed attempts.
pub fn per_scene(book: &Book) -> Vec<(u32, u32, bool, u32)> {
    book.scenes
        .iter()
        .map(|s| {
            let usage = book.ticks.get(&s.tick).map(|t| &t.usage);
            let roles = usage
                .and_then(|u| u.get("roles"))
                .and_then(|r| r.as_object());
            let (mut calls, mut tokens) = (0u32, 0u32);
            let mut revised = false;
            for (role, r) in roles.into_iter().flatten() {
                let n = |k: &str| r.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as u32;
                calls = calls.saturating_add(n("calls"));
                tokens = tokens
                    .saturating_add(n("prompt_tokens"))
                    .saturating_add(n("completion_tokens"));
                revised |= role == crate::config::Role::Reviser.as_str() && n("calls") > 0;
            }
            let failed = book.failures.get(&s.tick).copied().unwrap_or(0);
            (calls, tokens, revised, failed)
        })
        .collect()
}

pub fn criterion(book: &Book, costs: &[(u32, u32, bool, u32)]) -> Criterion {
    let tokens: Vec<f64> = costs
        .iter()
        .filter(|c| c.1 > 0)
        .map(|c| f64::from(c.1))
        .collect();
    let typical = median(&tokens);
    let mut failures = Vec::new();
    for (s, (calls, t, _, failed)) in book.scenes.iter().zip(costs) {
        if typical > 0.0 && f64::from(*t) > COSTLY * typical {
            failures.push(AuditFailure {
                kind: FailureKind::CostlyScene,
                scenes: vec![book.scene_ref(s.tick)],
                why: format!(
                    "This scene took {calls} calls and {t} tokens, {:.1} times the book's usual scene; {failed} failed attempts.",
                    f64::from(*t) / typical
                ),
                record: None,
            });
        }
    }
    let calls: u32 = costs.iter().map(|c| c.0).sum();
    let total: u64 = costs.iter().map(|c| u64::from(c.1)).sum();
    let revised = costs.iter().filter(|c| c.2).count();
    let failed: u32 = costs.iter().map(|c| c.3).sum();
    let n = book.scenes.len().max(1);
    Criterion {
        key: CriterionKey::Cost,
        title: "What the book cost".into(),
        score: 100.0 * (1.0 - revised as f64 / n as f64),
        measure: format!(
            "{calls} calls, {total} tokens, {revised} scenes revised, {failed} failed attempts ({:.1} calls a scene)",
            f64::from(calls) / n as f64
        ),
        failures,
    }
}
