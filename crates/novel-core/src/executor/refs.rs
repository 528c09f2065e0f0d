//! How an action uses what an earlier action returned. An argument whose whole value is a
//! reference, `"$a1.id"` or `"$a1"` (the whole output), names a dependency's action id and a
//! dot-separated path into its output (`"$find.hits.0.entity_id"`). References are resolved
//! just before the action runs, from the outputs its dependencies produced, so a plan can
//! create a character in one action and relate it to another in the next.
//!
//! Only whole-string values are references: prose that happens to contain a dollar sign is
//! left alone, and a reference never splices text into a longer string.

use serde_json::Value;

use super::action::{ActionInputs, ToolFailure};

/// A reference found in an argument: the action it names and the path into its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub action: String,
    pub path: Vec<String>,
}

/// The reference `value` spells, if it is one.
pub fn parse_reference(value: &str) -> Option<Reference> {
    let rest = value.trim().strip_prefix('$')?;
    let mut parts = rest.split('.');
    let action = parts.next()?.trim();
    let valid = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !valid(action) {
        return None;
    }
    let path: Vec<String> = parts.map(|p| p.trim().to_string()).collect();
    if path.iter().any(|p| !valid(p)) {
        return None;
    }
    Some(Reference {
        action: action.to_string(),
        path,
    })
}

/// Every reference inside `args`, in document order.
pub fn references_in(args: &Value) -> Vec<Reference> {
    let mut found = Vec::new();
    visit(args, &mut |s| {
        if let Some(r) = parse_reference(s) {
            found.push(r);
        }
    });
    found
}

fn visit(value: &Value, f: &mut impl FnMut(&str)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().for_each(|v| visit(v, f)),
        Value::Object(map) => map.values().for_each(|v| visit(v, f)),
        _ => {}
    }
}

/// `args` with every reference replaced by the value it points at in `inputs`. A reference to
/// an optional dependency that failed is null, path and all, so the dependent carries on and
/// its tool decides what a missing value means. A reference to an action that is not a
/// dependency, or to a path the output does not have, is a permanent failure naming it.
pub fn resolve(args: &Value, inputs: &ActionInputs) -> Result<Value, ToolFailure> {
    match args {
        Value::String(s) => match parse_reference(s) {
            Some(r) => lookup(&r, s, inputs),
            None => Ok(args.clone()),
        },
        Value::Array(items) => items
            .iter()
            .map(|v| resolve(v, inputs))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| resolve(v, inputs).map(|v| (k.clone(), v)))
            .collect::<Result<serde_json::Map<_, _>, _>>()
            .map(Value::Object),
        other => Ok(other.clone()),
    }
}

fn lookup(r: &Reference, spelled: &str, inputs: &ActionInputs) -> Result<Value, ToolFailure> {
    let output = match inputs.get(&r.action) {
        Some(Some(output)) => output,
        Some(None) => return Ok(Value::Null),
        None => {
            return Err(ToolFailure::permanent(format!(
                "`{spelled}` names {}, which is not among this action's dependencies",
                r.action
            )));
        }
    };
    let mut at = output;
    for step in &r.path {
        let next = match at {
            Value::Object(map) => map.get(step),
            Value::Array(items) => step.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        at = next.ok_or_else(|| {
            ToolFailure::permanent(format!(
                "`{spelled}`: the output of {} has no `{step}` (it has {})",
                r.action,
                keys_of(at)
            ))
        })?;
    }
    Ok(at.clone())
}

fn keys_of(value: &Value) -> String {
    match value {
        Value::Object(map) if !map.is_empty() => map.keys().cloned().collect::<Vec<_>>().join(", "),
        Value::Array(items) => format!("{} items", items.len()),
        _ => "no fields".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn inputs() -> ActionInputs {
        ActionInputs::from([
            (
                "a1".to_string(),
                Some(json!({"id": "C3", "tags": ["x", "y"]})),
            ),
            ("a2".to_string(), None),
        ])
    }

    #[test]
    fn references_are_whole_strings_with_clean_names() {
        assert_eq!(
            parse_reference("$a1.id"),
            Some(Reference {
                action: "a1".into(),
                path: vec!["id".into()]
            })
        );
        assert_eq!(parse_reference("$find").unwrap().path, Vec::<String>::new());
        for not_a_reference in ["a1.id", "$", "$.id", "$a1..id", "costs $5", "$a b"] {
            assert_eq!(parse_reference(not_a_reference), None, "{not_a_reference}");
        }
    }

    #[test]
    fn resolution_replaces_references_anywhere_in_the_arguments() {
        let args = json!({"character_a": "C0", "character_b": "$a1.id",
                          "notes": ["$a1.tags.1", "plain $ text"], "n": 3});
        assert_eq!(
            resolve(&args, &inputs()).unwrap(),
            json!({"character_a": "C0", "character_b": "C3", "notes": ["y", "plain $ text"], "n": 3})
        );
        assert_eq!(references_in(&args).len(), 2);
    }

    #[test]
    fn a_reference_to_a_failed_optional_dependency_is_null() {
        assert_eq!(
            resolve(&json!({"x": "$a2.id", "y": "$a2", "z": "kept"}), &inputs()).unwrap(),
            json!({"x": null, "y": null, "z": "kept"})
        );
    }

    #[test]
    fn unusable_references_fail_with_a_reason() {
        let undeclared = resolve(&json!({"x": "$a9.id"}), &inputs()).unwrap_err();
        assert!(undeclared.message.contains("dependencies"), "{undeclared}");
        let missing = resolve(&json!({"x": "$a1.name"}), &inputs()).unwrap_err();
        assert!(
            missing.message.contains("no `name`") && missing.message.contains("id, tags"),
            "{missing}"
        );
    }
}
