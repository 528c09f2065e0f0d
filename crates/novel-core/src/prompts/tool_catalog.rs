//! The tool catalog as the planner reads it: each tool's name, description and a one-line
//! argument list generated from its JSON Schema (`query: string (required), limit: integer`),
//! so the prompt can never describe arguments the tool does not take. A full schema per tool
//! would cost ten times the tokens on every tick.

use serde::Serialize;
use serde_json::Value;

use crate::tools::ToolRegistry;

/// One tool line of the planner's catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolSummary {
    pub name: String,
    pub description: String,
    pub args: String,
}

/// Every tool of `registry` except the `disabled` ones, by name.
pub fn catalog(registry: &ToolRegistry, disabled: &[String]) -> Vec<ToolSummary> {
    registry
        .tools()
        .filter(|t| !disabled.iter().any(|d| d == t.name()))
        .map(|t| ToolSummary {
            name: t.name().to_string(),
            description: t.description().to_string(),
            args: argument_list(t.args_schema()),
        })
        .collect()
}

/// `name: type (required), …`, required arguments first.
pub fn argument_list(schema: &Value) -> String {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return String::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut names: Vec<&String> = props.keys().collect();
    // Stable: schema order within each group.
    names.sort_by_key(|n| !required.contains(&n.as_str()));
    names
        .iter()
        .map(|name| {
            let ty = type_name(&props[*name], schema);
            if required.contains(&name.as_str()) {
                format!("{name}: {ty} (required)")
            } else {
                format!("{name}: {ty}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A short type: `string`, `integer`, `[string]`, `low|medium|high`, `object`.
fn type_name(schema: &Value, root: &Value) -> String {
    let schema = resolve(schema, root);
    // An enum whose variants carry doc comments becomes `oneOf` of `const`s.
    if let Some(value) = schema.get("const") {
        return value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join("|");
    }
    for combinator in ["allOf", "anyOf", "oneOf"] {
        if let Some(options) = schema.get(combinator).and_then(Value::as_array) {
            let names: Vec<String> = options
                .iter()
                .filter(|o| o.get("type").and_then(Value::as_str) != Some("null"))
                .map(|o| type_name(o, root))
                .collect();
            if !names.is_empty() {
                return names.join("|");
            }
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "any",
    };
    match ty {
        "array" => {
            let item = schema
                .get("items")
                .map_or_else(|| "any".to_string(), |i| type_name(i, root));
            format!("[{item}]")
        }
        other => other.to_string(),
    }
}

/// Follows a local `$ref` (`#/definitions/X` or `#/$defs/X`); anything else stays as it is.
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
        return schema;
    };
    let target = reference
        .strip_prefix("#/")
        .map(|path| path.split('/').try_fold(root, |node, key| node.get(key)));
    match target {
        Some(Some(found)) => found,
        _ => schema,
    }
}
