//! JSON Schemas every local server can compile. Servers that constrain output by schema turn it
//! into a grammar, and their converters support a subset of JSON Schema, skipping the rest
//! silently: llama.cpp's follows one level of `$ref` under `allOf`, llama-cpp-python turns
//! `allOf: [{$ref: <enum>}]` into a rule that only accepts `{}`, formats like `uint8` are
//! ignored. [`flatten_schema`] writes the same constraints without those constructs: every
//! `$ref` inlined, one-element `allOf`s merged into their parent, enums written as `enum`,
//! `format`, titles, descriptions and defaults dropped (the prompts explain the fields; in
//! prompt-only mode the schema text then costs far fewer tokens).

use serde_json::{Map, Value};

/// Deeper than any schema the engine writes; a `$ref` cycle stops here as "any value".
const MAX_DEPTH: usize = 32;

/// Keys that only document a schema.
const DOCUMENTATION: [&str; 6] = [
    "title",
    "description",
    "default",
    "examples",
    "format",
    "$schema",
];

/// `schema` with its definitions inlined and the constructs grammar converters mishandle
/// rewritten; what it accepts is unchanged.
pub fn flatten_schema(schema: &Value) -> Value {
    let definitions = schema
        .get("definitions")
        .or_else(|| schema.get("$defs"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    flatten(schema, &definitions, 0)
}

fn flatten(node: &Value, definitions: &Map<String, Value>, depth: usize) -> Value {
    let Some(object) = node.as_object() else {
        return match node {
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| flatten(i, definitions, depth + 1))
                    .collect(),
            ),
            other => other.clone(),
        };
    };
    if depth > MAX_DEPTH {
        return Value::Object(Map::new());
    }
    if let Some(target) = object.get("$ref").and_then(Value::as_str) {
        let name = target
            .strip_prefix("#/definitions/")
            .or_else(|| target.strip_prefix("#/$defs/"));
        let mut resolved = name
            .and_then(|n| definitions.get(n))
            .map(|d| flatten(d, definitions, depth + 1))
            .unwrap_or_else(|| Value::Object(Map::new()));
        // Keywords beside a `$ref` narrow it further.
        if let Some(resolved) = resolved.as_object_mut() {
            for (key, value) in object {
                if key != "$ref" && !DOCUMENTATION.contains(&key.as_str()) {
                    resolved.insert(key.clone(), flatten(value, definitions, depth + 1));
                }
            }
        }
        return resolved;
    }
    let mut out = Map::new();
    for (key, value) in object {
        match key.as_str() {
            "definitions" | "$defs" => {}
            k if DOCUMENTATION.contains(&k) => {}
            // Property names are data, not keywords: only their schemas are flattened.
            "properties" => {
                let properties = value
                    .as_object()
                    .map(|p| {
                        p.iter()
                            .map(|(name, s)| (name.clone(), flatten(s, definitions, depth + 1)))
                            .collect()
                    })
                    .unwrap_or_default();
                out.insert(key.clone(), Value::Object(properties));
            }
            _ => {
                out.insert(key.clone(), flatten(value, definitions, depth + 1));
            }
        }
    }
    merge_single_all_of(&mut out);
    consts_to_enum(&mut out, "oneOf");
    consts_to_enum(&mut out, "anyOf");
    Value::Object(out)
}

/// `allOf: [X]` says no more than X: X's keywords join the parent's (the parent's win).
fn merge_single_all_of(out: &mut Map<String, Value>) {
    let single = match out.get("allOf").and_then(Value::as_array) {
        Some(items) if items.len() == 1 => items[0].clone(),
        _ => return,
    };
    out.remove("allOf");
    if let Value::Object(inner) = single {
        for (key, value) in inner {
            out.entry(key).or_insert(value);
        }
    }
}

/// `oneOf: [{const: "a"}, {const: "b"}]` (documented enum variants) is `enum: ["a", "b"]`.
fn consts_to_enum(out: &mut Map<String, Value>, key: &str) {
    let Some(variants) = out.get(key).and_then(Value::as_array) else {
        return;
    };
    let consts: Option<Vec<Value>> = variants
        .iter()
        .map(|v| {
            let v = v.as_object()?;
            // Only a bare const (and its type) can be folded into an enum.
            v.keys()
                .all(|k| k == "const" || k == "type")
                .then_some(())?;
            v.get("const").cloned()
        })
        .collect();
    let Some(consts) = consts.filter(|c| !c.is_empty()) else {
        return;
    };
    out.remove(key);
    if consts.iter().all(Value::is_string) && !out.contains_key("type") {
        out.insert("type".into(), Value::String("string".into()));
    }
    out.insert("enum".into(), Value::Array(consts));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn refs_all_of_and_documented_enums_are_written_out() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Extraction",
            "type": "object",
            "required": ["loops"],
            "properties": {
                "tension": {"type": ["integer", "null"], "format": "uint8", "minimum": 0, "maximum": 10},
                "loops": {"type": "array", "items": {"$ref": "#/definitions/Loop"}},
                "properties": {"description": "a field named like a keyword", "type": "string"}
            },
            "definitions": {
                "Loop": {
                    "type": "object",
                    "properties": {
                        "importance": {"description": "how much it matters", "allOf": [{"$ref": "#/definitions/Importance"}]}
                    }
                },
                "Importance": {"oneOf": [
                    {"const": "low", "description": "minor"},
                    {"const": "high", "description": "major"}
                ]}
            }
        });
        let flat = flatten_schema(&schema);
        assert_eq!(
            flat,
            json!({
                "type": "object",
                "required": ["loops"],
                "properties": {
                    "tension": {"type": ["integer", "null"], "minimum": 0, "maximum": 10},
                    "loops": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"importance": {"type": "string", "enum": ["low", "high"]}}
                    }},
                    "properties": {"type": "string"}
                }
            })
        );
        // Flattening a flat schema changes nothing.
        assert_eq!(flatten_schema(&flat), flat);
    }

    #[test]
    fn a_ref_cycle_or_a_missing_definition_ends_as_any_value() {
        let cyclic = json!({"$ref": "#/definitions/A", "definitions": {"A": {"type": "array", "items": {"$ref": "#/definitions/A"}}}});
        let flat = flatten_schema(&cyclic);
        assert_eq!(flat["type"], "array");
        let missing =
            json!({"type": "object", "properties": {"x": {"$ref": "#/definitions/Nope"}}});
        assert_eq!(flatten_schema(&missing)["properties"]["x"], json!({}));
    }
}
