//! Progression, part two: the open questions of the book. For each, when it opened, every
//! scene that advanced it, when it was resolved; the longest silence, and questions left
//! untouched longer than [`UNTOUCHED`] scenes (the field's rule of thumb: a hook is stale after
//! about ten chapters with no advance). Opened against resolved per chapter.

use super::book::Book;
use super::report::{AuditFailure, ChapterLoops, Criterion, CriterionKey, FailureKind, LoopRow};
use crate::model::LoopStatus;

/// Scenes a question may go untouched before it is a failure.
pub const UNTOUCHED: u32 = 12;

/// Every loop that was open at some point of the range, with its touches.
pub fn rows(book: &Book) -> Vec<LoopRow> {
    let mut out = Vec::new();
    for l in &book.loops {
        if l.opened_tick > book.to || l.resolved_tick.is_some_and(|t| t < book.from) {
            continue;
        }
        let mut touched: Vec<u32> = l.notes.iter().map(|n| n.tick).collect();
        touched.extend(
            book.history
                .iter()
                .filter(|h| h.entity_id == l.id && h.field == "status")
                .map(|h| h.tick),
        );
        touched.retain(|t| *t > l.opened_tick && l.resolved_tick.is_none_or(|r| *t <= r));
        touched.sort_unstable();
        touched.dedup();
        // The silences between touches, up to the resolution or the end of the range.
        let end = l.resolved_tick.unwrap_or(book.to).min(book.to);
        let mut last = l.opened_tick;
        let mut longest = 0;
        for t in touched.iter().copied().filter(|t| *t <= end) {
            longest = longest.max(t.saturating_sub(last));
            last = t;
        }
        let tail = end.saturating_sub(last);
        longest = longest.max(tail);
        let age = if l.status == LoopStatus::Open {
            tail
        } else {
            0
        };
        out.push(LoopRow {
            id: l.id.clone(),
            description: l.description.clone(),
            importance: l.importance.as_str().into(),
            opened: l.opened_tick,
            touched,
            resolved: l.resolved_tick,
            status: l.status.as_str().into(),
            age,
            longest_silence: longest,
        });
    }
    out
}

pub fn chapters(book: &Book) -> Vec<ChapterLoops> {
    book.chapters
        .iter()
        .filter(|c| c.last_tick >= book.from && c.first_tick <= book.to)
        .map(|c| {
            let within = |t: u32| t >= c.first_tick && t <= c.last_tick;
            ChapterLoops {
                chapter: c.number,
                title: c.title.clone(),
                first_scene: c.first_tick,
                last_scene: c.last_tick,
                opened: book.loops.iter().filter(|l| within(l.opened_tick)).count() as u32,
                resolved: book
                    .loops
                    .iter()
                    .filter(|l| l.status == LoopStatus::Resolved)
                    .filter(|l| l.resolved_tick.is_some_and(within))
                    .count() as u32,
            }
        })
        .collect()
}

pub fn criterion(book: &Book, rows: &[LoopRow]) -> Criterion {
    let mut failures = Vec::new();
    for row in rows {
        // The silences, again, to name where each long one starts.
        let end = row.resolved.unwrap_or(book.to).min(book.to);
        let mut marks = vec![row.opened];
        marks.extend(row.touched.iter().copied().filter(|t| *t <= end));
        marks.push(end);
        for pair in marks.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let gap = to.saturating_sub(from);
            if gap <= UNTOUCHED {
                continue;
            }
            let closed_by = if to == end && row.resolved != Some(to) {
                "the end of the range".to_string()
            } else {
                format!("scene {to}")
            };
            failures.push(AuditFailure {
                kind: FailureKind::LoopUntouched,
                scenes: vec![book.scene_ref(from), book.scene_ref(to)],
                why: format!(
                    "The question \"{}\" goes {gap} scenes untouched after {}, until {closed_by}.",
                    row.description,
                    if from == 0 {
                        "the start of the book".to_string()
                    } else {
                        format!("scene {from}")
                    }
                ),
                record: Some(row.id.clone()),
            });
        }
    }
    let opened = rows.len();
    let resolved = rows.iter().filter(|r| r.status == "resolved").count();
    let open_at_end = rows.iter().filter(|r| r.status == "open").count();
    let stale = failures.len();
    let score = if opened == 0 {
        100.0
    } else {
        100.0 * (1.0 - stale as f64 / opened as f64).max(0.0)
    };
    Criterion {
        key: CriterionKey::Loops,
        title: "Open questions are kept alive and answered".into(),
        score,
        measure: format!(
            "{opened} questions, {resolved} answered, {open_at_end} still open at the end; {stale} silences longer than {UNTOUCHED} scenes"
        ),
        failures,
    }
}
