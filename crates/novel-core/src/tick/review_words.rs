//! A proposal's memory changes in the writer's words: who or what each is about by name (never
//! an id), and every field it changes as before → after read from the memory as it stands, so
//! "C0: emotional_state: wary" becomes "Tamsin Vale — Emotional state: calm → wary" and a
//! relationship names both people. Values are put into words here once for every front end.

use std::collections::HashMap;

use rusqlite::Connection;
use serde_json::{Map, Value};

use super::extraction::{Extraction, RecordChange};
use super::review::{ChangeCategory, ProposedChange};
use super::words::{ChangeLine, capitalised, label, plain};
use crate::model::Relationship;
use crate::store::{self, StoreError};
use crate::text::clip;

/// Longest value shown in a line: a rewritten description is shown, not reprinted whole.
const VALUE_CHARS: usize = 160;

impl Extraction {
    /// [`Self::proposed_changes`] in the writer's words, against the memory `conn` holds: the
    /// subject by name, each field as before → after, a summary without ids. A store that
    /// cannot be read leaves the changes as they were (the review still shows them).
    pub fn proposed_changes_in_words(&self, conn: &Connection) -> Vec<ProposedChange> {
        let changes = self.proposed_changes();
        match self.words(conn, changes.clone()) {
            Ok(worded) => worded,
            Err(e) => {
                tracing::warn!("the review's changes could not be put into words: {e}");
                changes
            }
        }
    }

    fn words(
        &self,
        conn: &Connection,
        mut changes: Vec<ProposedChange>,
    ) -> Result<Vec<ProposedChange>, StoreError> {
        let names = store::display_names(conn)?;
        let name = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
        let updates = self
            .character_updates
            .iter()
            .map(|u| (u, true))
            .chain(self.location_updates.iter().map(|u| (u, false)));
        let mut relationships = self.relationship_changes.iter();
        let mut advanced = self.loops_advanced.iter().chain(&self.loops_resolved);
        let mut updates = updates;
        for c in &mut changes {
            match c.category {
                ChangeCategory::CharacterUpdate | ChangeCategory::LocationUpdate => {
                    let Some((u, is_character)) = updates.next() else {
                        continue;
                    };
                    let record = if is_character {
                        store::get_character(conn, &u.id)?
                            .and_then(|r| serde_json::to_value(r).ok())
                    } else {
                        store::get_location(conn, &u.id)?.and_then(|r| serde_json::to_value(r).ok())
                    };
                    c.subject = name(&u.id);
                    c.lines = record_lines(u, record.as_ref(), &names);
                    c.summary = summary(&c.lines);
                }
                ChangeCategory::Relationship => {
                    let Some(r) = relationships.next() else {
                        continue;
                    };
                    let (a, b) = (name(&r.character_a), name(&r.character_b));
                    c.subject = format!("{a} and {b}");
                    let now = store::list_relationships(conn, Some(&r.character_a))?
                        .into_iter()
                        .find(|x| x.other(&r.character_a) == r.character_b);
                    c.lines = relationship_lines(r, now.as_ref());
                    let event = r.event.as_deref().map(str::trim).unwrap_or("");
                    c.summary = if event.is_empty() {
                        summary(&c.lines)
                    } else {
                        event.to_string()
                    };
                }
                ChangeCategory::LoopAdvanced | ChangeCategory::LoopResolved => {
                    let Some(l) = advanced.next() else {
                        continue;
                    };
                    if let Some(open) = store::get_loop(conn, &l.id)? {
                        c.subject = clip(&open.description, 80);
                    }
                }
                _ => {}
            }
        }
        Ok(changes)
    }
}

/// "Emotional state: calm → wary; Whereabouts: Rainmarket Docks → Lantern House".
fn summary(lines: &[ChangeLine]) -> String {
    lines
        .iter()
        .map(|l| {
            if l.before.is_empty() {
                format!("{}: {}", l.label, l.after)
            } else {
                format!("{}: {} → {}", l.label, l.before, l.after)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn line(
    label: String,
    before: Option<&Value>,
    after: &Value,
    names: &HashMap<String, String>,
) -> ChangeLine {
    let before = before
        .filter(|v| !is_empty(v))
        .map(|v| clip(&plain(v, names), VALUE_CHARS))
        .unwrap_or_default();
    ChangeLine {
        label,
        before,
        after: clip(&plain(after, names), VALUE_CHARS),
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// The lines of a character's or place's update: nested changes (the arc, facts, views of
/// others) one line per leaf; appended items shown as the list they make.
fn record_lines(
    u: &RecordChange,
    record: Option<&Value>,
    names: &HashMap<String, String>,
) -> Vec<ChangeLine> {
    let mut out = Vec::new();
    leaf_lines(&u.changes, record, "", names, &mut out);
    for (field, items) in &u.append {
        let before = record.and_then(|r| r.get(field));
        let mut after: Vec<Value> = match before {
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        match items {
            Value::Array(new) => after.extend(new.iter().cloned()),
            other => after.push(other.clone()),
        }
        out.push(line(
            capitalised(&label(field)),
            before,
            &Value::Array(after),
            names,
        ));
    }
    out
}

fn leaf_lines(
    changes: &Map<String, Value>,
    record: Option<&Value>,
    parent: &str,
    names: &HashMap<String, String>,
    out: &mut Vec<ChangeLine>,
) {
    for (field, value) in changes {
        let before = record.and_then(|r| r.get(field));
        match value {
            Value::Object(inner) if !inner.is_empty() => {
                leaf_lines(inner, before, field, names, out);
            }
            _ => {
                let label = match parent {
                    "relationships" => {
                        let who = names.get(field).cloned().unwrap_or_else(|| field.clone());
                        format!("How they see {who}")
                    }
                    "facts" => format!("Fact: {field}"),
                    "arc" => match field.as_str() {
                        "want" => "Wants".into(),
                        "need" => "Needs".into(),
                        _ => "Arc".into(),
                    },
                    _ => capitalised(&label(field)),
                };
                out.push(line(label, before, value, names));
            }
        }
    }
}

fn relationship_lines(
    r: &super::extraction::RelationshipChange,
    now: Option<&Relationship>,
) -> Vec<ChangeLine> {
    let none = HashMap::new();
    let mut out = Vec::new();
    let mut push = |label: &str, before: Option<Value>, after: Option<Value>| {
        if let Some(after) = after
            && !is_empty(&after)
            && before.as_ref() != Some(&after)
        {
            out.push(line(label.into(), before.as_ref(), &after, &none));
        }
    };
    push(
        "Kind",
        now.map(|n| Value::from(n.kind.clone())),
        r.kind.clone().map(Value::from),
    );
    push(
        "Where it stands",
        now.map(|n| Value::from(n.status.clone())),
        r.status.clone().map(Value::from),
    );
    push(
        "Intensity",
        now.map(|n| Value::from(n.intensity)),
        r.intensity.map(Value::from),
    );
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::memory::{self, NewCharacter, NewLocation};
    use crate::tick::tests::novel;

    #[test]
    fn changes_name_their_subjects_and_show_before_and_after() {
        let (_tmp, mut novel) = novel();
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        let bram = NewCharacter {
            name: "Bram".into(),
            ..Default::default()
        };
        let bram = memory::create_character(&tx, bram, 1, "extraction").unwrap();
        let house = NewLocation {
            name: "Lantern House".into(),
            ..Default::default()
        };
        let house = memory::create_location(&tx, house, 1, "extraction").unwrap();
        let e: Extraction = serde_json::from_value(json!({
            "title": "t", "summary": ["s"], "tension": 3,
            "character_updates": [{"id": "C0",
                "changes": {"emotional_state": "wary", "last_location": house.id,
                            "relationships": {bram.id.clone(): "owes him"}},
                "append": {"inventory": ["brass key"]}}],
            "relationship_changes": [{"character_a": "C0", "character_b": bram.id,
                                      "kind": "ally", "status": "strained"}]
        }))
        .unwrap();
        let changes = e.proposed_changes_in_words(&tx);
        let tamsin = &changes[0];
        assert_eq!(tamsin.subject, "Tamsin Vale");
        let lines: Vec<(&str, &str, &str)> = tamsin
            .lines
            .iter()
            .map(|l| (l.label.as_str(), l.before.as_str(), l.after.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                ("Emotional state", "", "wary"),
                ("Whereabouts", "Rainmarket Docks", "Lantern House"),
                ("How they see Bram", "", "owes him"),
                ("Inventory", "rusted dagger", "rusted dagger, brass key"),
            ]
        );
        assert!(!tamsin.summary.contains("C0") && !tamsin.summary.contains("L1"));
        let pair = &changes[1];
        assert_eq!(pair.subject, "Tamsin Vale and Bram");
        assert_eq!(pair.lines[0].after, "ally");
        assert_eq!(pair.summary, "Kind: ally; Where it stands: strained");
    }
}
