//! The one update path for characters, locations and relationships: deep merge (objects merge,
//! arrays replace, null deletes), appends to lists, refusal of contradictions, validation, history and re-indexing.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{MemoryError, Record};
use crate::ids::EntityId;
use crate::merge::{self, Contradiction, FieldChange};
use crate::store::{self, HistoryEntry};

/// A requested change to one record.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntityUpdate {
    /// Deep-merged into the record: nested objects merge, lists are replaced, null deletes a key.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, crate::specta_types::JsonValue>))]
    pub changes: Map<String, Value>,
    /// Items added to list fields without restating them, e.g. {"inventory": ["map"]}.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, crate::specta_types::JsonValue>))]
    pub append: Map<String, Value>,
}

/// What an update did: the changes applied and the contradictions refused (and flagged).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpdateReport {
    pub id: String,
    pub applied: Vec<FieldChange>,
    pub contradictions: Vec<Contradiction>,
}

/// `changes` with every field the record does not have moved into its `facts` (as text), when
/// the record keeps facts: models name state in their own words ("mood", "tension",
/// "rumour"), and a fact is a better home for it than a refused update.
fn fold_unknown_into_facts(record: &Value, changes: &Map<String, Value>) -> Map<String, Value> {
    let Some(fields) = record.as_object().filter(|r| r.contains_key("facts")) else {
        return changes.clone();
    };
    let mut kept = Map::new();
    let mut facts = Map::new();
    for (key, value) in changes {
        if fields.contains_key(key) {
            kept.insert(key.clone(), value.clone());
            continue;
        }
        let text = match value {
            Value::String(s) => Value::String(s.clone()),
            Value::Null => Value::Null,
            other => Value::String(other.to_string()),
        };
        facts.insert(key.clone(), text);
    }
    if !facts.is_empty() {
        match kept.get_mut("facts").and_then(Value::as_object_mut) {
            Some(given) => {
                for (k, v) in facts {
                    given.entry(k).or_insert(v);
                }
            }
            None => {
                kept.insert("facts".into(), Value::Object(facts));
            }
        }
    }
    kept
}

/// Applies `update` to the record `id` of kind `R` at `tick`; `source` names who asked. A
/// change that contradicts an established fact is refused and flagged.
pub fn update_record<R: Record>(
    tx: &Transaction<'_>,
    id: &str,
    update: &EntityUpdate,
    tick: u32,
    source: &str,
) -> Result<UpdateReport, MemoryError> {
    update_with::<R>(tx, id, update, tick, source, Authority::Agent)
}

/// Applies the writer's `update` to the record `id`: validated like any other, but the writer
/// owns the story, so a change to an established fact is applied — and flagged in the history
/// so it stands out.
pub fn update_record_by_writer<R: Record>(
    tx: &Transaction<'_>,
    id: &str,
    update: &EntityUpdate,
    tick: u32,
) -> Result<UpdateReport, MemoryError> {
    update_with::<R>(tx, id, update, tick, WRITER, Authority::Writer)
}

/// Applies `update` to the record `id` from a scene that shows the change (`because` says
/// what in it did): a recorded fact it changes is superseded, with history saying when and
/// why, instead of refused. What no scene can undo stays refused (the dead stay dead; a name
/// is identity).
pub fn update_record_shown<R: Record>(
    tx: &Transaction<'_>,
    id: &str,
    update: &EntityUpdate,
    because: &str,
    tick: u32,
    source: &str,
) -> Result<UpdateReport, MemoryError> {
    update_with::<R>(
        tx,
        id,
        update,
        tick,
        source,
        Authority::Scene(because.trim()),
    )
}

/// Who changes the story memory; the history's `source` for the writer.
pub const WRITER: &str = "writer";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Authority<'a> {
    /// Tools and the extractor: established facts are not theirs to overwrite.
    Agent,
    /// A scene that shows a fact change, and why: recorded facts may be superseded.
    Scene(&'a str),
    /// The writer: may overwrite anything, with a flag.
    Writer,
}

fn update_with<R: Record>(
    tx: &Transaction<'_>,
    id: &str,
    update: &EntityUpdate,
    tick: u32,
    source: &str,
    authority: Authority<'_>,
) -> Result<UpdateReport, MemoryError> {
    let id = EntityId::parse_kind(id, R::KIND)?.to_string();
    let record = R::load(tx, &id)?.ok_or_else(|| MemoryError::NotFound {
        kind: R::KIND,
        id: id.clone(),
    })?;
    let invalid = |field: &str, message: String| MemoryError::InvalidField {
        id: id.clone(),
        field: field.to_string(),
        message,
    };
    for key in update.changes.keys().chain(update.append.keys()) {
        if R::FIXED_FIELDS.contains(&key.as_str()) {
            return Err(invalid(key, "cannot be changed".into()));
        }
    }

    let before = serde_json::to_value(&record).map_err(|e| invalid("*", e.to_string()))?;
    let changes = fold_unknown_into_facts(&before, &update.changes);
    let patch = Value::Object(changes);
    let mut outcome = merge::merge_checked(&before, &patch, &R::contradiction);
    let mut superseded = Vec::new();
    let mut after = match authority {
        Authority::Agent => outcome.merged,
        Authority::Writer => merge::merge_checked(&before, &patch, &|_, _, _| None).merged,
        Authority::Scene(_) => {
            // Only recorded facts give way to a scene; every other rule still holds.
            let rest = merge::merge_checked(&before, &patch, &|path, old, new| {
                if path.starts_with("facts.") {
                    None
                } else {
                    R::contradiction(path, old, new)
                }
            });
            let (facts, kept): (Vec<Contradiction>, Vec<Contradiction>) = outcome
                .contradictions
                .into_iter()
                .partition(|c| c.path.starts_with("facts."));
            superseded = facts;
            outcome.contradictions = kept;
            rest.merged
        }
    };
    merge::append_items(&mut after, &Value::Object(update.append.clone()))
        .map_err(|e| invalid("append", e.to_string()))?;

    let mut updated: R = serde_path_to_error::deserialize(after.clone()).map_err(|e| {
        let path = e.path().to_string();
        invalid(&path, e.into_inner().to_string())
    })?;
    updated
        .check(tx)
        .map_err(|(field, message)| invalid(&field, message))?;

    let applied = merge::diff(&before, &after);
    for c in &outcome.contradictions {
        let change = match authority {
            Authority::Agent | Authority::Scene(_) => {
                format!("contradiction (not applied): {}", c.reason)
            }
            Authority::Writer => format!("the writer overrode an established fact: {}", c.reason),
        };
        store::append_history(
            tx,
            &HistoryEntry {
                entity_id: id.clone(),
                tick,
                field: c.path.clone(),
                change,
                old_value: Some(c.recorded.clone()),
                new_value: c.proposed.clone(),
                flagged: true,
                source: source.into(),
            },
        )?;
    }
    if !applied.is_empty() {
        updated.touch(tick);
        updated.save(tx)?;
        store::index_document(tx, &updated.document())?;
        for change in &applied {
            let mut entry = history_entry(&id, tick, change, source);
            if let Authority::Scene(because) = authority
                && superseded.iter().any(|c| c.path == change.path)
            {
                entry.change = format!("superseded: {because}");
            }
            store::append_history(tx, &entry)?;
        }
    }
    Ok(UpdateReport {
        id,
        applied,
        contradictions: outcome.contradictions,
    })
}

fn history_entry(id: &str, tick: u32, change: &FieldChange, source: &str) -> HistoryEntry {
    let verb = match (&change.old, &change.new) {
        (None, _) => "added",
        (_, None) => "removed",
        _ => "changed",
    };
    HistoryEntry {
        entity_id: id.to_string(),
        tick,
        field: change.path.clone(),
        change: verb.to_string(),
        old_value: change.old.clone(),
        new_value: change.new.clone(),
        flagged: false,
        source: source.into(),
    }
}
