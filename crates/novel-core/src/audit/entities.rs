//! Entities evolve: for each recurring character, how their mood, arc, life and relationships
//! changed across the book (from the history); characters with an unfinished arc who leave the
//! page for more than [`VANISH`] scenes; relationships that never move although the two share
//! [`SHARED`] or more scenes after it formed.

use serde_json::Value;

use super::book::Book;
use super::report::{
    AuditFailure, CharacterChange, CharacterChanges, Criterion, CriterionKey, FailureKind,
};
use crate::model::LifeStatus;

/// Scenes a character with an open arc may be away before it is a failure.
pub const VANISH: u32 = 12;
/// Shared scenes after which a relationship that never changed is a failure.
pub const SHARED: usize = 6;
/// Scenes a character must be in to count as recurring.
pub const RECURRING: usize = 3;

fn text(v: &Option<Value>) -> String {
    match v {
        None | Some(Value::Null) => "nothing".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn what(field: &str) -> Option<&'static str> {
    match field {
        "emotional_state" => Some("mood"),
        "status" => Some("life"),
        "goals" => Some("goals"),
        f if f.starts_with("arc") => Some("arc"),
        _ => None,
    }
}

pub fn criterion(book: &Book) -> (Criterion, Vec<CharacterChanges>) {
    let mut out = Vec::new();
    let mut failures = Vec::new();
    let mut changed = 0;
    for c in &book.characters {
        let seen = book.appearances(c);
        if seen.len() < RECURRING {
            continue;
        }
        let mut changes: Vec<CharacterChange> = book
            .history
            .iter()
            .filter(|h| h.entity_id == c.id && !h.flagged && book.in_range(h.tick))
            .filter_map(|h| {
                what(&h.field).map(|w| CharacterChange {
                    scene: h.tick,
                    what: w.into(),
                    to: text(&h.new_value),
                })
            })
            .collect();
        for r in book
            .relationships
            .iter()
            .filter(|r| r.character_a == c.id || r.character_b == c.id)
        {
            let other = book.name_of(r.other(&c.id));
            changes.extend(
                book.history
                    .iter()
                    .filter(|h| h.entity_id == r.id && !h.flagged && h.field != "*")
                    .filter(|h| book.in_range(h.tick))
                    .filter(|h| matches!(h.field.as_str(), "intensity" | "status" | "kind"))
                    .map(|h| CharacterChange {
                        scene: h.tick,
                        what: format!("{} with {other}", h.field),
                        to: text(&h.new_value),
                    }),
            );
        }
        changes.sort_by_key(|c| c.scene);
        if !changes.is_empty() {
            changed += 1;
        }
        failures.extend(vanished(book, c, &seen));
        out.push(CharacterChanges {
            id: c.id.clone(),
            name: c.name.clone(),
            scenes: seen.len() as u32,
            changes,
        });
    }
    failures.extend(static_relationships(book));
    let recurring = out.len();
    let score = if recurring == 0 {
        100.0
    } else {
        100.0 * changed as f64 / recurring as f64
    };
    (
        Criterion {
            key: CriterionKey::Entities,
            title: "The people of the story change".into(),
            score,
            measure: format!(
                "{changed} of {recurring} recurring characters change in mood, arc, life or relationships"
            ),
            failures,
        },
        out,
    )
}

fn arc_open(c: &crate::model::Character) -> bool {
    let a = &c.arc;
    let started =
        !(a.want.trim().is_empty() && a.need.trim().is_empty() && a.phase.trim().is_empty());
    let phase = a.phase.to_lowercase();
    let ended = [
        "resolved",
        "complete",
        "ended",
        "fulfilled",
        "finished",
        "at peace",
    ]
    .iter()
    .any(|w| phase.contains(w));
    started && !ended && c.status == LifeStatus::Alive
}

fn vanished(book: &Book, c: &crate::model::Character, seen: &[u32]) -> Vec<AuditFailure> {
    if !arc_open(c) {
        return Vec::new();
    }
    let mut marks = seen.to_vec();
    marks.push(book.to);
    let mut out = Vec::new();
    for pair in marks.windows(2) {
        let gap = pair[1].saturating_sub(pair[0]);
        if gap > VANISH {
            out.push(AuditFailure {
                kind: FailureKind::ArcVanished,
                scenes: vec![book.scene_ref(pair[0])],
                why: format!(
                    "{} leaves the page after this scene for {gap} scenes while their arc is unfinished ({}).",
                    c.name,
                    if c.arc.phase.is_empty() { &c.arc.want } else { &c.arc.phase }
                ),
                record: Some(c.id.clone()),
            });
        }
    }
    out
}

fn static_relationships(book: &Book) -> Vec<AuditFailure> {
    let mut out = Vec::new();
    for r in &book.relationships {
        let moved = book
            .history
            .iter()
            .any(|h| h.entity_id == r.id && !h.flagged && h.field != "*" && h.tick > r.first_tick);
        if moved {
            continue;
        }
        let (Some(a), Some(b)) = (
            book.characters.iter().find(|c| c.id == r.character_a),
            book.characters.iter().find(|c| c.id == r.character_b),
        ) else {
            continue;
        };
        let seen_b = book.appearances(b);
        let shared: Vec<u32> = book
            .appearances(a)
            .into_iter()
            .filter(|t| *t > r.first_tick && seen_b.contains(t))
            .collect();
        if shared.len() >= SHARED {
            out.push(AuditFailure {
                kind: FailureKind::RelationshipStatic,
                scenes: std::iter::once(r.first_tick)
                    .chain(shared.iter().copied().take(5))
                    .map(|t| book.scene_ref(t))
                    .collect(),
                why: format!(
                    "{} and {} share {} scenes after this one, and what is between them ({}, {}/10) never moves.",
                    a.name,
                    b.name,
                    shared.len(),
                    r.kind,
                    r.intensity
                ),
                record: Some(r.id.clone()),
            });
        }
    }
    out
}
