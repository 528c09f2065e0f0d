//! Deep merge of JSON records (objects merge, arrays replace, null deletes) with the
//! story memory's rule on top: a patch that would overwrite an established fact is
//! not applied but returned as a contradiction for the caller to flag in the history log.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Merges `patch` into `target` in place: objects merge key by key, any other value
/// (arrays included) replaces, and `null` removes the key.
pub fn deep_merge(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(target) = target else {
        unreachable!("target was made an object just above")
    };
    for (key, value) in patch {
        match value {
            Value::Null => {
                target.remove(key);
            }
            Value::Object(_) if target.get(key).is_some_and(Value::is_object) => {
                if let Some(slot) = target.get_mut(key) {
                    deep_merge(slot, value);
                }
            }
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
}

/// One changed leaf: a dotted path with the value before and after (`None` = absent).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldChange {
    pub path: String,
    #[cfg_attr(feature = "specta", specta(type = Option<crate::specta_types::JsonValue>))]
    pub old: Option<Value>,
    #[cfg_attr(feature = "specta", specta(type = Option<crate::specta_types::JsonValue>))]
    pub new: Option<Value>,
}

/// A change that was refused because it contradicts what the record already establishes.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contradiction {
    pub path: String,
    #[cfg_attr(feature = "specta", specta(type = crate::specta_types::JsonValue))]
    pub recorded: Value,
    #[cfg_attr(feature = "specta", specta(type = Option<crate::specta_types::JsonValue>))]
    pub proposed: Option<Value>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MergeOutcome {
    pub merged: Value,
    pub changes: Vec<FieldChange>,
    pub contradictions: Vec<Contradiction>,
}

/// Decides whether replacing `recorded` at `path` with `proposed` (None = deletion) contradicts
/// an established fact; returns the reason if so.
pub type FactPolicy<'a> = &'a dyn Fn(&str, &Value, Option<&Value>) -> Option<String>;

/// Deep-merges `patch` into a copy of `current`, holding back every leaf the policy calls a
/// contradiction, and lists the changes actually made.
pub fn merge_checked(current: &Value, patch: &Value, policy: FactPolicy<'_>) -> MergeOutcome {
    let mut contradictions = Vec::new();
    let filtered = filter_patch(current, patch, "", policy, &mut contradictions);
    let mut merged = current.clone();
    deep_merge(&mut merged, &filtered);
    let mut changes = Vec::new();
    diff_into(current, &merged, "", &mut changes);
    MergeOutcome {
        merged,
        changes,
        contradictions,
    }
}

fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn filter_patch(
    current: &Value,
    patch: &Value,
    prefix: &str,
    policy: FactPolicy<'_>,
    contradictions: &mut Vec<Contradiction>,
) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    let mut kept = Map::new();
    for (key, proposed) in patch {
        let path = join_path(prefix, key);
        let recorded = current.get(key);
        match (recorded, proposed) {
            (Some(rec @ Value::Object(_)), Value::Object(_)) => {
                let sub = filter_patch(rec, proposed, &path, policy, contradictions);
                if sub.as_object().is_some_and(|m| !m.is_empty()) {
                    kept.insert(key.clone(), sub);
                }
            }
            (Some(rec), _) if !rec.is_null() && rec != proposed => {
                let proposed_value = (!proposed.is_null()).then_some(proposed);
                match policy(&path, rec, proposed_value) {
                    Some(reason) => contradictions.push(Contradiction {
                        path,
                        recorded: rec.clone(),
                        proposed: proposed_value.cloned(),
                        reason,
                    }),
                    None => {
                        kept.insert(key.clone(), proposed.clone());
                    }
                }
            }
            _ => {
                kept.insert(key.clone(), proposed.clone());
            }
        }
    }
    Value::Object(kept)
}

/// The leaf-level differences between two records. Objects are descended into; arrays and
/// scalars are compared whole.
pub fn diff(before: &Value, after: &Value) -> Vec<FieldChange> {
    let mut out = Vec::new();
    diff_into(before, after, "", &mut out);
    out
}

fn diff_into(before: &Value, after: &Value, prefix: &str, out: &mut Vec<FieldChange>) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            for (key, bv) in b {
                let path = join_path(prefix, key);
                match a.get(key) {
                    Some(av) => diff_into(bv, av, &path, out),
                    None => out.push(FieldChange {
                        path,
                        old: Some(bv.clone()),
                        new: None,
                    }),
                }
            }
            for (key, av) in a {
                if !b.contains_key(key) {
                    out.push(FieldChange {
                        path: join_path(prefix, key),
                        old: None,
                        new: Some(av.clone()),
                    });
                }
            }
        }
        _ if before != after => out.push(FieldChange {
            path: prefix.to_string(),
            old: Some(before.clone()),
            new: Some(after.clone()),
        }),
        _ => {}
    }
}

/// Why an `append` could not be applied; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppendError {
    #[error("`append` must be an object of field: [items]")]
    NotAnObject,
    #[error("append.{0} must be an array")]
    NotAnArray(String),
    #[error("record is not an object")]
    RecordNotAnObject,
    #[error("append.{0}: `{0}` is not a list field")]
    NotAListField(String),
}

/// Appends to array fields the items they do not already hold ("append new facts
/// rather than overwrite"). `additions` maps field names to arrays; other shapes are errors.
pub fn append_items(target: &mut Value, additions: &Value) -> Result<(), AppendError> {
    let Value::Object(additions) = additions else {
        return Err(AppendError::NotAnObject);
    };
    for (key, items) in additions {
        let Value::Array(items) = items else {
            return Err(AppendError::NotAnArray(key.clone()));
        };
        let slot = target
            .as_object_mut()
            .ok_or(AppendError::RecordNotAnObject)?
            .entry(key.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(existing) = slot else {
            return Err(AppendError::NotAListField(key.clone()));
        };
        for item in items {
            if !existing.contains(item) {
                existing.push(item.clone());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merged(target: Value, patch: Value) -> Value {
        let mut t = target;
        deep_merge(&mut t, &patch);
        t
    }

    #[test]
    fn seed_002_example_1_nested_objects_merge() {
        assert_eq!(
            merged(
                json!({"a": {"b": 1, "c": 2}}),
                json!({"a": {"c": 3, "d": 4}})
            ),
            json!({"a": {"b": 1, "c": 3, "d": 4}})
        );
    }

    #[test]
    fn seed_002_example_2_arrays_replace() {
        assert_eq!(
            merged(json!({"items": [1, 2, 3]}), json!({"items": [4, 5]})),
            json!({"items": [4, 5]})
        );
    }

    #[test]
    fn seed_002_example_3_null_deletes() {
        assert_eq!(
            merged(json!({"a": 1, "b": 2}), json!({"b": null})),
            json!({"a": 1})
        );
    }

    #[test]
    fn seed_002_example_4_new_keys_are_added() {
        assert_eq!(
            merged(json!({"a": 1}), json!({"b": 2})),
            json!({"a": 1, "b": 2})
        );
    }

    #[test]
    fn object_patch_over_a_scalar_replaces_it() {
        assert_eq!(
            merged(json!({"a": 1}), json!({"a": {"x": 1}})),
            json!({"a": {"x": 1}})
        );
    }

    fn facts_are_fixed(path: &str, _old: &Value, _new: Option<&Value>) -> Option<String> {
        path.starts_with("facts.")
            .then(|| "contradicts a recorded fact".to_string())
    }

    #[test]
    fn contradicting_a_fact_is_flagged_and_not_applied() {
        let current = json!({"facts": {"brother": "alive"}, "mood": "calm"});
        let patch = json!({"facts": {"brother": "dead", "sister": "exists"}, "mood": "tense"});
        let out = merge_checked(&current, &patch, &facts_are_fixed);
        assert_eq!(
            out.merged,
            json!({"facts": {"brother": "alive", "sister": "exists"}, "mood": "tense"})
        );
        assert_eq!(out.contradictions.len(), 1);
        let c = &out.contradictions[0];
        assert_eq!(c.path, "facts.brother");
        assert_eq!(c.recorded, json!("alive"));
        assert_eq!(c.proposed, Some(json!("dead")));
        let paths: Vec<&str> = out.changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["facts.sister", "mood"]);
    }

    #[test]
    fn deleting_a_fact_is_a_contradiction_too_but_restating_it_is_not() {
        let current = json!({"facts": {"brother": "alive"}});
        let out = merge_checked(
            &current,
            &json!({"facts": {"brother": null}}),
            &facts_are_fixed,
        );
        assert_eq!(out.merged, current);
        assert_eq!(out.contradictions[0].proposed, None);

        let out = merge_checked(
            &current,
            &json!({"facts": {"brother": "alive"}}),
            &facts_are_fixed,
        );
        assert!(out.contradictions.is_empty());
        assert!(out.changes.is_empty());
    }

    #[test]
    fn diff_reports_added_removed_and_changed_leaves() {
        let changes = diff(
            &json!({"a": 1, "b": {"c": 2}, "d": [1]}),
            &json!({"a": 1, "b": {"c": 3}, "e": true}),
        );
        let summary: Vec<(String, Option<Value>, Option<Value>)> = changes
            .into_iter()
            .map(|c| (c.path, c.old, c.new))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("b.c".into(), Some(json!(2)), Some(json!(3))),
                ("d".into(), Some(json!([1])), None),
                ("e".into(), None, Some(json!(true))),
            ]
        );
    }

    #[test]
    fn append_adds_only_new_items() {
        let mut record = json!({"inventory": ["dagger"]});
        append_items(
            &mut record,
            &json!({"inventory": ["map", "dagger"], "fears": ["fire"]}),
        )
        .unwrap();
        assert_eq!(
            record,
            json!({"inventory": ["dagger", "map"], "fears": ["fire"]})
        );
        assert!(append_items(&mut record, &json!({"inventory": "map"})).is_err());
        let mut record = json!({"name": "x"});
        assert!(append_items(&mut record, &json!({"name": ["y"]})).is_err());
    }
}
