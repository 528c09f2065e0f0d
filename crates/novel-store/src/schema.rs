//! JSON Schemas generated from Rust types (so the schema the LLM sees can never drift from the
//! types the engine parses) and validation against them with the `jsonschema` crate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The JSON Schema of `T`, as plain JSON.
pub fn schema_of<T: JsonSchema>() -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft07().into_generator();
    generator.root_schema_for::<T>().to_value()
}

/// One reason an instance does not match its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// Where in the instance, as a dotted path (`actions.0.tool`); empty for the root.
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

/// A compiled validator for one schema.
pub struct SchemaValidator {
    schema: Value,
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaValidator")
            .field("schema", &self.schema)
            .finish()
    }
}

/// A schema `jsonschema` cannot compile, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON Schema: {0}")]
pub struct InvalidSchema(pub String);

impl SchemaValidator {
    /// Compiles the schema generated from `T`.
    pub fn for_type<T: JsonSchema>() -> SchemaValidator {
        SchemaValidator::new(schema_of::<T>())
            .unwrap_or_else(|e| panic!("schemars produced a schema jsonschema rejects: {e}"))
    }

    /// Compiles `schema`; the error says why it is not a valid JSON Schema.
    pub fn new(schema: Value) -> Result<SchemaValidator, InvalidSchema> {
        let validator =
            jsonschema::validator_for(&schema).map_err(|e| InvalidSchema(e.to_string()))?;
        Ok(SchemaValidator { schema, validator })
    }

    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Every violation, or an empty list when the instance is valid.
    pub fn violations(&self, instance: &Value) -> Vec<Violation> {
        self.validator
            .iter_errors(instance)
            .map(|e| Violation {
                field: e
                    .instance_path()
                    .to_string()
                    .trim_start_matches('/')
                    .replace('/', "."),
                message: e.to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(JsonSchema, Deserialize)]
    #[allow(dead_code)]
    struct Probe {
        name: String,
        #[serde(default)]
        count: Option<u8>,
    }

    #[test]
    fn violations_name_the_field() {
        let v = SchemaValidator::for_type::<Probe>();
        assert!(
            v.violations(&serde_json::json!({"name": "x", "count": 3}))
                .is_empty()
        );
        let errs = v.violations(&serde_json::json!({"name": 5, "count": "many"}));
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert!(
            fields.contains(&"name") && fields.contains(&"count"),
            "{errs:?}"
        );
        let errs = v.violations(&serde_json::json!({}));
        assert!(errs[0].message.contains("name"), "{errs:?}");
    }
}
