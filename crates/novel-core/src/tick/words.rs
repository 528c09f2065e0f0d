//! Memory in a writer's words: a field's name as the writer calls it ("emotional_state" is
//! "Emotional state"), a value with ids by name, and free text whose ids are replaced by the
//! names of what they mean. Shared by the review's change lines and the extraction's notes.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store;
use crate::text::clip;

/// One field a change sets, before → after, in words.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeLine {
    /// The field in a writer's words ("Emotional state", "How they see Bram").
    pub label: String,
    /// What it holds now; empty when it holds nothing yet.
    pub before: String,
    pub after: String,
}

/// A value in words: ids by name, lists joined, records field by field; `nothing` for none.
pub fn plain(value: &Value, names: &HashMap<String, String>) -> String {
    match value {
        Value::Null => "nothing".into(),
        Value::String(s) if s.trim().is_empty() => "nothing".into(),
        Value::String(s) => names.get(s).cloned().unwrap_or_else(|| s.clone()),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.is_empty() => "nothing".into(),
        Value::Array(items) => items
            .iter()
            .map(|v| plain(v, names))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(map) if map.is_empty() => "nothing".into(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{}: {}", label(k), plain(v, names)))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// A field name in a writer's words, lowercase ("last_location" → "whereabouts").
pub fn label(field: &str) -> String {
    let known = match field {
        "last_location" => "whereabouts",
        "emotional_state" => "emotional state",
        "first_tick" => "first scene",
        "last_update_tick" => "last change",
        "tension_level" => "tension",
        "sensory" => "sensory details",
        "always_on" => "presence in every scene",
        "source_tick" => "scene it comes from",
        "perspective_a" | "perspective_b" => "point of view",
        "phase" => "arc",
        _ => "",
    };
    if known.is_empty() {
        field.replace('_', " ")
    } else {
        known.into()
    }
}

/// `s` with its first letter in capitals.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `text` with every id in it named as the writer knows the thing: a character or place by
/// name, a thread or lore by its words, a relationship by its two people; an id that names
/// nothing by what kind of thing it meant. For notes built from messages that carry ids.
pub(crate) fn name_ids(conn: &Connection, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if crate::ids::looks_like_id(word) {
            out.push_str(&named(conn, word));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// One id as the writer knows what it names.
fn named(conn: &Connection, id: &str) -> String {
    let found = match id.chars().next() {
        Some('C') => store::get_character(conn, id)
            .ok()
            .flatten()
            .map(|c| c.name),
        Some('L') => store::get_location(conn, id).ok().flatten().map(|l| l.name),
        Some('O') => store::get_loop(conn, id)
            .ok()
            .flatten()
            .map(|l| format!("the thread \"{}\"", clip(l.description.trim(), 60))),
        Some('W') => store::get_lore(conn, id)
            .ok()
            .flatten()
            .map(|f| format!("the lore \"{}\"", clip(f.fact.trim(), 60))),
        Some('R') => store::get_relationship(conn, id).ok().flatten().map(|r| {
            format!(
                "the relationship of {} and {}",
                named(conn, &r.character_a),
                named(conn, &r.character_b)
            )
        }),
        _ => None,
    };
    found.unwrap_or_else(|| {
        match id.chars().next() {
            Some('C') => "a character the story does not have",
            Some('L') => "a place the story does not have",
            Some('O') => "a thread the story does not have",
            Some('W') => "lore the story does not have",
            Some('R') => "a relationship the story does not have",
            _ => "something the story does not have",
        }
        .to_string()
    })
}

