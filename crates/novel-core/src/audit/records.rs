//! No contradictions between records: what the records say against each other and against the
//! scenes — a dead character placed, given something, pointed of view or in a relationship that
//! moves later; a character the records put elsewhere than their last scene; one distinctive
//! item in two people's hands; an injury or illness gone from the records with no scene that
//! heals it; a recorded fact that differs from what the history says it became.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::book::Book;
use super::report::{AuditFailure, Criterion, CriterionKey, FailureKind};
use crate::model::{Character, LifeStatus};

/// Words that name an injury or illness in a character's record.
const CONDITIONS: [&str; 24] = [
    "wound",
    "wounded",
    "injured",
    "injury",
    "broken",
    "bleeding",
    "limp",
    "limping",
    "sling",
    "fever",
    "feverish",
    "poisoned",
    "sick",
    "ill",
    "concussion",
    "burned",
    "fracture",
    "fractured",
    "sprained",
    "lame",
    "stabbed",
    "gash",
    "cut",
    "crippled",
];

/// Words of a scene that heals or tends one.
const HEALING: [&str; 22] = [
    "heal",
    "healed",
    "healing",
    "heals",
    "mend",
    "mended",
    "mending",
    "recovered",
    "recover",
    "stitched",
    "stitches",
    "splint",
    "salve",
    "poultice",
    "physician",
    "doctor",
    "surgeon",
    "medicine",
    "cured",
    "nursed",
    "bandage",
    "bandaged",
];

fn as_text(v: &Option<Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.to_lowercase(),
        Some(other) => other.to_string().to_lowercase(),
    }
}

fn condition_in(text: &str) -> Option<&'static str> {
    let words = super::words::words(text);
    CONDITIONS
        .iter()
        .find(|c| words.iter().any(|w| w == *c))
        .copied()
}

pub fn criterion(book: &Book) -> Criterion {
    let mut failures = Vec::new();
    for c in &book.characters {
        failures.extend(dead_active(book, c));
        failures.extend(place_mismatch(book, c));
        failures.extend(vanished_conditions(book, c));
    }
    failures.extend(two_holders(book));
    failures.extend(unrecorded_facts(book));
    failures.retain(|f| f.scenes.first().is_some_and(|s| book.in_range(s.scene)));
    let words: u32 = book.scenes.iter().map(|s| s.word_count).sum();
    let per_10k = failures.len() as f64 * 10_000.0 / f64::from(words.max(1));
    Criterion {
        key: CriterionKey::Contradictions,
        title: "The records agree with each other".into(),
        score: (100.0 - 25.0 * per_10k).max(0.0),
        measure: format!(
            "{} contradictions between records ({:.1} per 10,000 words)",
            failures.len(),
            per_10k
        ),
        failures,
    }
}

fn death_tick(book: &Book, c: &Character) -> Option<u32> {
    if c.status != LifeStatus::Dead {
        return None;
    }
    book.history
        .iter()
        .filter(|h| h.entity_id == c.id && h.field == "status" && !h.flagged)
        .filter(|h| h.new_value.as_ref().and_then(Value::as_str) == Some("dead"))
        .map(|h| h.tick)
        .next_back()
        .or(Some(c.first_tick))
}

fn dead_active(book: &Book, c: &Character) -> Vec<AuditFailure> {
    let Some(died) = death_tick(book, c) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut say = |tick: u32, what: String| {
        out.push(AuditFailure {
            kind: FailureKind::DeadActive,
            scenes: vec![book.scene_ref(tick), book.scene_ref(died)],
            why: format!("{} died in scene {died}, yet {what}.", c.name),
            record: Some(c.id.clone()),
        })
    };
    for s in book.scenes.iter().filter(|s| s.tick > died) {
        if s.pov_character.as_deref() == Some(&c.id) {
            say(s.tick, "this scene is told through their eyes".into());
        }
    }
    for h in book
        .history
        .iter()
        .filter(|h| h.entity_id == c.id && !h.flagged && h.tick > died)
    {
        match h.field.as_str() {
            "last_location" => say(
                h.tick,
                format!(
                    "the records move them to {}",
                    book.name_of(h.new_value.as_ref().and_then(Value::as_str).unwrap_or("?"))
                ),
            ),
            "inventory"
                if h.new_value
                    .as_ref()
                    .and_then(Value::as_array)
                    .is_some_and(|a| {
                        a.len()
                            > h.old_value
                                .as_ref()
                                .and_then(Value::as_array)
                                .map_or(0, Vec::len)
                    }) =>
            {
                say(h.tick, "the records give them something to hold".into())
            }
            _ => {}
        }
    }
    for r in book
        .relationships
        .iter()
        .filter(|r| r.character_a == c.id || r.character_b == c.id)
    {
        let after: Vec<_> = book
            .history
            .iter()
            .filter(|h| h.entity_id == r.id && !h.flagged && h.tick > died && h.field != "*")
            .collect();
        if let Some(h) = after.first() {
            let status = r.status.to_lowercase();
            let mourning = [
                "dead", "mourn", "grief", "griev", "memory", "lost", "ended", "former",
            ]
            .iter()
            .any(|w| status.contains(w));
            if !mourning {
                say(
                    h.tick,
                    format!(
                        "their relationship with {} still moves ({})",
                        book.name_of(r.other(&c.id)),
                        r.status
                    ),
                );
            }
        }
    }
    out
}

fn place_mismatch(book: &Book, c: &Character) -> Vec<AuditFailure> {
    if c.status == LifeStatus::Dead {
        return Vec::new();
    }
    let Some(last) = book
        .scenes
        .iter()
        .rfind(|s| s.pov_character.as_deref() == Some(&c.id) && s.location.is_some())
    else {
        return Vec::new();
    };
    let scene_place = last.location.clone().unwrap_or_default();
    let Some(recorded) = c.last_location.clone() else {
        return Vec::new();
    };
    // A range that ends before the record's last change compares an old scene with a newer
    // record: nothing to say.
    if recorded == scene_place || c.last_update_tick > book.to {
        return Vec::new();
    }
    // The record moved after (or in) that scene: the story moved them on. Not a contradiction.
    let moved_since = book.history.iter().any(|h| {
        h.entity_id == c.id && h.field == "last_location" && !h.flagged && h.tick >= last.tick
    });
    if moved_since {
        return Vec::new();
    }
    vec![AuditFailure {
        kind: FailureKind::PlaceMismatch,
        scenes: vec![book.scene_ref(last.tick)],
        why: format!(
            "This scene, {}'s last, is at {}, but their record puts them at {} with nothing in the history moving them there.",
            c.name,
            book.name_of(&scene_place),
            book.name_of(&recorded)
        ),
        record: Some(c.id.clone()),
    }]
}

/// An item is distinctive when it names one thing: "the brass key", "Ilse's letter", a
/// two-word name. "a knife" or "coins" may well be in two hands.
fn distinctive(item: &str) -> Option<String> {
    let lower = item.trim().to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (first, rest) = words.split_first()?;
    let definite = *first == "the" || first.ends_with("'s") || first.ends_with("’s");
    let stripped: Vec<&str> =
        if ["a", "an", "the", "some", "his", "her", "their", "my"].contains(first) {
            rest.to_vec()
        } else {
            words.clone()
        };
    let plural = stripped
        .last()
        .is_some_and(|w| w.ends_with('s') && !w.ends_with("ss"));
    (definite || (stripped.len() >= 2 && !plural)).then(|| stripped.join(" "))
}

fn two_holders(book: &Book) -> Vec<AuditFailure> {
    let mut holders: BTreeMap<String, Vec<(&Character, &str)>> = BTreeMap::new();
    for c in book
        .characters
        .iter()
        .filter(|c| c.status != LifeStatus::Dead)
    {
        for item in &c.inventory {
            if let Some(key) = distinctive(item) {
                holders.entry(key).or_default().push((c, item));
            }
        }
    }
    let mut out = Vec::new();
    for (key, hands) in holders.into_iter().filter(|(_, h)| h.len() > 1) {
        // Where the later holder got it: the first inventory change that holds it.
        let got = |c: &Character| {
            book.history
                .iter()
                .filter(|h| h.entity_id == c.id && !h.flagged)
                .filter(|h| h.field == "inventory" || h.field == "*")
                .find(|h| as_text(&h.new_value).contains(&key))
                .map_or(c.last_update_tick, |h| h.tick)
        };
        let mut dated: Vec<(u32, &Character, &str)> =
            hands.iter().map(|(c, i)| (got(c), *c, *i)).collect();
        dated.sort_by_key(|d| d.0);
        let (first, later) = (dated[0], dated[dated.len() - 1]);
        out.push(AuditFailure {
            kind: FailureKind::ItemTwoHolders,
            scenes: vec![book.scene_ref(later.0), book.scene_ref(first.0)],
            why: format!(
                "{} is given {} here, but {} has held it since scene {} and never gave it up.",
                later.1.name, later.2, first.1.name, first.0
            ),
            record: Some(later.1.id.clone()),
        });
    }
    out
}

fn vanished_conditions(book: &Book, c: &Character) -> Vec<AuditFailure> {
    let mut out = Vec::new();
    // Where each field of the record got its current condition.
    let mut onset: HashMap<&str, (u32, String)> = HashMap::new();
    for h in book
        .history
        .iter()
        .filter(|h| h.entity_id == c.id && !h.flagged)
    {
        if h.field == "status" && as_text(&h.new_value) == "dead" {
            return out;
        }
        let new = as_text(&h.new_value);
        let old = as_text(&h.old_value);
        match (condition_in(&old), condition_in(&new)) {
            (_, Some(_)) => {
                onset.entry(&h.field).or_insert((h.tick, new));
            }
            (Some(_), None) => {
                let (since, what) = onset
                    .remove(h.field.as_str())
                    .unwrap_or((c.first_tick, old.clone()));
                // A paragraph between that names them and tends or heals something.
                let first = c.name.split_whitespace().next().unwrap_or(&c.name);
                let healed = book
                    .scenes
                    .iter()
                    .filter(|s| s.tick > since && s.tick <= h.tick)
                    .flat_map(|s| s.prose.split("\n\n"))
                    .filter(|p| p.contains(first))
                    .any(|p| {
                        super::words::words(p)
                            .iter()
                            .any(|w| HEALING.contains(&w.as_str()))
                    });
                if !healed && book.in_range(h.tick) {
                    out.push(AuditFailure {
                        kind: FailureKind::ConditionVanished,
                        scenes: vec![book.scene_ref(h.tick), book.scene_ref(since)],
                        why: format!(
                            "{}'s \"{what}\" (since scene {since}) is gone from the records here, and no scene in between heals or tends it.",
                            c.name
                        ),
                        record: Some(c.id.clone()),
                    });
                }
            }
            (None, None) => {}
        }
    }
    out
}

/// Replays each character's and place's history onto its first record and compares the facts
/// with the record as it is: a difference was written without the history saying when.
fn unrecorded_facts(book: &Book) -> Vec<AuditFailure> {
    let mut out = Vec::new();
    let records = book
        .characters
        .iter()
        .map(|c| (&c.id, &c.name, &c.facts, c.last_update_tick))
        .chain(
            book.locations
                .iter()
                .map(|l| (&l.id, &l.name, &l.facts, l.last_update_tick)),
        );
    for (id, name, facts, touched) in records {
        let rows: Vec<_> = book
            .history
            .iter()
            .filter(|h| &h.entity_id == id && !h.flagged)
            .collect();
        let Some(created) = rows.iter().find(|h| h.field == "*") else {
            continue; // recorded before the history was kept
        };
        let mut replay: BTreeMap<String, Value> = created
            .new_value
            .as_ref()
            .and_then(|v| v.get("facts"))
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        for h in &rows {
            if h.field == "facts" {
                replay = h
                    .new_value
                    .as_ref()
                    .and_then(Value::as_object)
                    .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    .unwrap_or_default();
            } else if let Some(key) = h.field.strip_prefix("facts.") {
                match &h.new_value {
                    Some(v) => replay.insert(key.to_string(), v.clone()),
                    None => replay.remove(key),
                };
            }
        }
        for (key, value) in facts {
            let recorded = replay.get(key).and_then(Value::as_str);
            if recorded != Some(value.as_str()) {
                out.push(AuditFailure {
                    kind: FailureKind::FactUnrecorded,
                    scenes: vec![book.scene_ref(touched)],
                    why: format!(
                        "{name}'s fact \"{key}\" reads \"{value}\", but the history {}; nothing says when it changed.",
                        recorded.map_or("never recorded it".to_string(), |r| format!("last recorded \"{r}\""))
                    ),
                    record: Some(id.clone()),
                });
            }
        }
    }
    out
}
