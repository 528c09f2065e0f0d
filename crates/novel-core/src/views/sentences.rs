//! A record's history as a writer reads it: each recorded change as one plain sentence with
//! names for ids and the scene it happened in ("Moved from the Docks to the Lantern House in
//! scene 12", "Came to see Bram as “wary ally” in scene 7"). The history rows keep the engine's
//! field paths and JSON values; this is the one place that puts them into words, so every front
//! end (the codex page, the command line) says the same thing.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use crate::store::HistoryEntry;
use crate::text::clip;
use crate::tick::capitalised;

/// One change in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HistoryLine {
    /// The scene it happened in (0: before the first scene).
    pub tick: u32,
    /// The sentence, ending with where it happened.
    pub text: String,
    /// A contradiction that was recorded, not applied.
    pub flagged: bool,
    /// The writer made it (else the story's memory did, while writing or reading a scene).
    pub yours: bool,
}

/// What the record is, for the few sentences whose words depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject<'a> {
    Character,
    Place,
    /// The two people, by name.
    Relationship(&'a str, &'a str),
    Lore,
    Other,
}

/// Longest quoted value in a sentence: a changed description is named, not reprinted.
const QUOTE_CHARS: usize = 90;

/// Every change of `entries` in words, oldest first (as they were recorded).
pub fn history_lines(
    subject: Subject<'_>,
    entries: &[HistoryEntry],
    names: &HashMap<String, String>,
) -> Vec<HistoryLine> {
    entries
        .iter()
        .map(|e| HistoryLine {
            tick: e.tick,
            text: sentence(subject, e, names),
            flagged: e.flagged,
            yours: e.source.is_writer(),
        })
        .collect()
}

/// "in scene 12", or "at the start" for what was there before the first scene.
pub fn when(tick: u32) -> String {
    if tick == 0 {
        "at the start".into()
    } else {
        format!("in scene {tick}")
    }
}

/// A value in words: ids by name, lists joined, records field by field; `nothing` for none.
pub fn plain(value: &Value, names: &HashMap<String, String>) -> String {
    crate::tick::plain_value(value, names)
}

/// A field name in a writer's words, lowercase ("last_location" → "whereabouts").
pub fn label(field: &str) -> String {
    crate::tick::field_label(field)
}

fn quote(value: &Value, names: &HashMap<String, String>) -> String {
    format!("“{}”", clip(&plain(value, names), QUOTE_CHARS))
}

/// The items of `new` not in `old`, and of `old` not in `new`, each in words.
fn list_delta(
    old: Option<&Value>,
    new: Option<&Value>,
    names: &HashMap<String, String>,
) -> (Vec<String>, Vec<String>) {
    let items = |v: Option<&Value>| -> Vec<Value> {
        match v {
            Some(Value::Array(items)) => items.clone(),
            Some(Value::Null) | None => Vec::new(),
            Some(other) => vec![other.clone()],
        }
    };
    let (old, new) = (items(old), items(new));
    let words = |vs: Vec<&Value>| vs.into_iter().map(|v| plain(v, names)).collect();
    (
        words(new.iter().filter(|v| !old.contains(v)).collect()),
        words(old.iter().filter(|v| !new.contains(v)).collect()),
    )
}

/// The verbs for what was added to and dropped from a list field.
fn list_verbs(field: &str) -> (&'static str, &'static str) {
    match field {
        "inventory" => ("Gained", "Lost"),
        "goals" => ("Took on the goal:", "Let go of the goal:"),
        "fears" => ("Came to fear", "No longer fears"),
        "personality" => ("Showed a new side:", "No longer shows:"),
        "aliases" => ("Became known as", "No longer called"),
        "connections" => ("Became connected to", "No longer connected to"),
        "inhabitants" => ("Now home to", "No longer home to"),
        "threats" => ("A new threat:", "No longer a threat:"),
        "sensory" => ("A new detail:", "No longer:"),
        "keywords" => ("Now called up by", "No longer called up by"),
        _ => ("Added to", "Dropped from"),
    }
}

fn list_sentence(
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    at: &str,
    names: &HashMap<String, String>,
) -> String {
    let (added, dropped) = list_delta(old, new, names);
    let (gain, lose) = list_verbs(field);
    let generic = gain == "Added to";
    let part = |verb: &str, items: &[String]| {
        if generic {
            format!("{verb} {}: {}", label(field), items.join(", "))
        } else {
            format!("{verb} {}", items.join(", "))
        }
    };
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(part(gain, &added));
    }
    if !dropped.is_empty() {
        let dropped = part(lose, &dropped);
        parts.push(if parts.is_empty() {
            dropped
        } else {
            lowercase_first(&dropped)
        });
    }
    if parts.is_empty() {
        return format!("{} reordered {at}.", capitalised(&label(field)));
    }
    format!("{} {at}.", parts.join("; "))
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn is_list(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Array(_)))
}

fn number(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64)
}

fn sentence(subject: Subject<'_>, e: &HistoryEntry, names: &HashMap<String, String>) -> String {
    let at = when(e.tick);
    let old = e.old_value.as_ref().filter(|v| !v.is_null());
    let new = e.new_value.as_ref().filter(|v| !v.is_null());
    if e.flagged {
        let what = if e.change.starts_with("the writer overrode") {
            "You overrode an established fact"
        } else {
            "A change that contradicts an established fact was not applied"
        };
        let detail = match (old, new) {
            (Some(o), Some(n)) => format!(
                ": {} {} → {}",
                label(leaf(&e.field)),
                quote(o, names),
                quote(n, names)
            ),
            (Some(o), None) => format!(": {} {}", label(leaf(&e.field)), quote(o, names)),
            _ => String::new(),
        };
        return format!("{what} {at}{detail}.");
    }
    if e.field == "*" {
        return whole_record(subject, e, &at);
    }
    let (head, rest) = match e.field.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (e.field.as_str(), None),
    };
    match (subject, head, rest) {
        (Subject::Character, "last_location", None) => match (old, new) {
            (Some(o), Some(n)) => format!(
                "Moved from {} to {} {at}.",
                plain(o, names),
                plain(n, names)
            ),
            (None, Some(n)) => format!("Was at {} {at}.", plain(n, names)),
            (Some(o), None) => format!("Left {} {at}.", plain(o, names)),
            (None, None) => format!("Whereabouts unknown {at}."),
        },
        (Subject::Character, "emotional_state", None) => match (old, new) {
            (Some(o), Some(n)) => {
                format!("Became {} {at} (was {}).", plain(n, names), plain(o, names))
            }
            (None, Some(n)) => format!("Became {} {at}.", plain(n, names)),
            _ => format!("Emotional state cleared {at}."),
        },
        (Subject::Character, "status", None) => match new.and_then(Value::as_str) {
            Some("dead") => format!("Died {at}."),
            Some("alive") => format!("Alive again {at}."),
            Some("unknown") => format!("Fate became unknown {at}."),
            _ => format!("Status changed {at}."),
        },
        (Subject::Character, "relationships", Some(other)) => {
            let who = names
                .get(other)
                .cloned()
                .unwrap_or_else(|| other.to_string());
            match (old, new) {
                (Some(o), Some(n)) => format!(
                    "Came to see {who} as {} {at} (was {}).",
                    quote(n, names),
                    quote(o, names)
                ),
                (None, Some(n)) => format!("Came to see {who} as {} {at}.", quote(n, names)),
                _ => format!("No longer has a view of {who} {at}."),
            }
        }
        (Subject::Character, "arc", Some(part)) => match (part, new) {
            ("want", Some(n)) => format!("Wants {} {at}.", quote(n, names)),
            ("need", Some(n)) => format!("Needs {} {at}.", quote(n, names)),
            ("phase", Some(n)) => format!("Reached a new stage, {} {at}.", quote(n, names)),
            _ => format!("Arc changed {at}."),
        },
        (Subject::Relationship(a, b), "status", None) => match (old, new) {
            (Some(o), Some(n)) => format!(
                "{a} and {b} went from {} to {} {at}.",
                plain(o, names),
                plain(n, names)
            ),
            (_, Some(n)) => format!("{a} and {b} became {} {at}.", plain(n, names)),
            _ => format!("{a} and {b}: where it stands was cleared {at}."),
        },
        (Subject::Relationship(a, b), "perspective_a" | "perspective_b", None) => {
            let (who, whom) = if head == "perspective_a" {
                (a, b)
            } else {
                (b, a)
            };
            match new {
                Some(n) => format!("{who} came to see {whom} as {} {at}.", quote(n, names)),
                None => format!("How {who} sees {whom} was cleared {at}."),
            }
        }
        (_, "tension_level" | "intensity", None) => match (number(old), number(new)) {
            (Some(o), Some(n)) if n > o => {
                format!("{} rose from {o} to {n} {at}.", capitalised(&label(head)))
            }
            (Some(o), Some(n)) if n < o => {
                format!("{} fell from {o} to {n} {at}.", capitalised(&label(head)))
            }
            (_, Some(n)) => format!("{} set to {n} {at}.", capitalised(&label(head))),
            _ => format!("{} cleared {at}.", capitalised(&label(head))),
        },
        (_, "facts", Some(key)) => match (old, new) {
            (Some(o), Some(n)) => format!(
                "The fact “{key}” changed {at}: {} → {}.",
                quote(o, names),
                quote(n, names)
            ),
            (None, Some(n)) => format!("Established {at}: {key}, {}.", plain(n, names)),
            _ => format!("The fact “{key}” was dropped {at}."),
        },
        _ if is_list(old) || is_list(new) => list_sentence(head, old, new, &at, names),
        _ => {
            let field = capitalised(&label(leaf(&e.field)));
            match (old, new) {
                (Some(o), Some(n)) => {
                    format!(
                        "{field} changed {at}: {} → {}.",
                        quote(o, names),
                        quote(n, names)
                    )
                }
                (None, Some(n)) => format!("{field} set {at}: {}.", quote(n, names)),
                _ => format!("{field} cleared {at}."),
            }
        }
    }
}

/// The last part of a dotted path ("arc.want" → "want").
fn leaf(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// The record as a whole: created, deleted, or changed at once.
fn whole_record(subject: Subject<'_>, e: &HistoryEntry, at: &str) -> String {
    let created = e.change == "created" || e.change.starts_with("opened");
    if created && e.tick == 0 {
        return "In the story from the start.".into();
    }
    if created {
        return match subject {
            Subject::Character => format!("Enters the story {at}."),
            Subject::Place => format!("First appears {at}."),
            Subject::Relationship(a, b) => format!("{a} and {b} first meet on the page {at}."),
            Subject::Lore | Subject::Other => format!("First recorded {at}."),
        };
    }
    if e.change.contains("deleted") || e.change.contains("removed") {
        return format!("Deleted {at}.");
    }
    format!("{} {at}.", capitalised(&e.change))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry(tick: u32, field: &str, old: Value, new: Value) -> HistoryEntry {
        HistoryEntry {
            entity_id: "C0".into(),
            tick,
            field: field.into(),
            change: "changed".into(),
            old_value: Some(old),
            new_value: Some(new),
            flagged: false,
            source: "extraction".into(),
        }
    }

    fn names() -> HashMap<String, String> {
        [
            ("L0", "the Docks"),
            ("L1", "the Lantern House"),
            ("C1", "Bram"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
    }

    fn say(subject: Subject<'_>, e: HistoryEntry) -> String {
        history_lines(subject, &[e], &names()).remove(0).text
    }

    #[test]
    fn a_characters_changes_read_as_sentences_with_names_and_scenes() {
        let c = Subject::Character;
        assert_eq!(
            say(c, entry(12, "last_location", json!("L0"), json!("L1"))),
            "Moved from the Docks to the Lantern House in scene 12."
        );
        assert_eq!(
            say(c, entry(7, "relationships.C1", Value::Null, json!("wary"))),
            "Came to see Bram as “wary” in scene 7."
        );
        assert_eq!(
            say(
                c,
                entry(3, "emotional_state", json!("calm"), json!("tense"))
            ),
            "Became tense in scene 3 (was calm)."
        );
        assert_eq!(
            say(c, entry(9, "status", json!("alive"), json!("dead"))),
            "Died in scene 9."
        );
        assert_eq!(
            say(
                c,
                entry(
                    4,
                    "inventory",
                    json!(["rope"]),
                    json!(["rope", "brass key"])
                )
            ),
            "Gained brass key in scene 4."
        );
        assert_eq!(
            say(c, entry(5, "goals", json!(["flee"]), json!(["stay"]))),
            "Took on the goal: stay; let go of the goal: flee in scene 5."
        );
        assert_eq!(
            say(c, entry(2, "facts.brother", Value::Null, json!("alive"))),
            "Established in scene 2: brother, alive."
        );
        assert_eq!(
            say(c, entry(6, "arc.want", json!(""), json!("revenge"))),
            "Wants “revenge” in scene 6."
        );
    }

    #[test]
    fn creation_contradictions_and_relationships_name_what_happened() {
        let mut created = entry(0, "*", Value::Null, json!({"id": "C0", "name": "Tamsin"}));
        created.change = "created".into();
        assert_eq!(
            say(Subject::Character, created.clone()),
            "In the story from the start."
        );
        created.tick = 4;
        assert_eq!(
            say(Subject::Character, created),
            "Enters the story in scene 4."
        );
        let mut refused = entry(8, "facts.brother", json!("alive"), json!("dead"));
        refused.flagged = true;
        refused.change = "contradiction (not applied): established".into();
        let line = history_lines(Subject::Character, &[refused], &names()).remove(0);
        assert!(line.flagged);
        assert_eq!(
            line.text,
            "A change that contradicts an established fact was not applied in scene 8: brother “alive” → “dead”."
        );
        let pair = Subject::Relationship("Tamsin", "Bram");
        assert_eq!(
            say(
                pair,
                entry(7, "status", json!("trusting"), json!("strained"))
            ),
            "Tamsin and Bram went from trusting to strained in scene 7."
        );
        assert_eq!(
            say(
                pair,
                entry(7, "perspective_b", json!(""), json!("a liability"))
            ),
            "Bram came to see Tamsin as “a liability” in scene 7."
        );
        let mut mine = entry(3, "description", json!("tall"), json!("taller"));
        mine.source = crate::memory::WRITER.into();
        let line = history_lines(Subject::Place, &[mine], &names()).remove(0);
        assert!(line.yours);
        assert_eq!(
            line.text,
            "Description changed in scene 3: “tall” → “taller”."
        );
    }
}
