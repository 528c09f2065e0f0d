//! Structured (JSON) answers with graceful degradation. Providers try the strongest way of
//! asking for JSON their server accepts ([`StructuredMode`]), step down when the server rejects
//! it and remember that; [`complete_structured`] then extracts and validates the object and
//! makes at most one repair request that shows the model its validation errors.

use std::sync::atomic::{AtomicU8, Ordering};

use serde_json::Value;

use crate::error::LlmError;
use crate::json_text::extract_json_object;
use crate::model::LanguageModel;
use crate::types::{ChatMessage, ChatRequest, Completion, JsonSchemaSpec};

/// How a provider asks for JSON, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StructuredMode {
    /// The server enforces the schema (`response_format: json_schema`).
    JsonSchema,
    /// The server enforces JSON syntax only (`json_object`); the schema goes in the prompt too.
    JsonObject,
    /// Nothing on the wire; the schema is appended to the system prompt.
    PromptOnly,
}

impl StructuredMode {
    /// The next weaker mode, if any.
    pub fn weaker(self) -> Option<StructuredMode> {
        match self {
            StructuredMode::JsonSchema => Some(StructuredMode::JsonObject),
            StructuredMode::JsonObject => Some(StructuredMode::PromptOnly),
            StructuredMode::PromptOnly => None,
        }
    }

    fn to_u8(self) -> u8 {
        match self {
            StructuredMode::JsonSchema => 0,
            StructuredMode::JsonObject => 1,
            StructuredMode::PromptOnly => 2,
        }
    }

    fn from_u8(value: u8) -> StructuredMode {
        match value {
            0 => StructuredMode::JsonSchema,
            1 => StructuredMode::JsonObject,
            _ => StructuredMode::PromptOnly,
        }
    }
}

/// A provider instance's current mode; only ever steps down, shared by concurrent calls.
#[derive(Debug)]
pub(crate) struct ModeMemory(AtomicU8);

impl ModeMemory {
    pub(crate) fn new(start: StructuredMode) -> Self {
        ModeMemory(AtomicU8::new(start.to_u8()))
    }

    pub(crate) fn get(&self) -> StructuredMode {
        StructuredMode::from_u8(self.0.load(Ordering::Relaxed))
    }

    /// Steps down from `from` after a rejection; returns the mode to use now, or `None` when
    /// there is nothing weaker. A concurrent call that already stepped down wins harmlessly.
    pub(crate) fn step_down(&self, from: StructuredMode) -> Option<StructuredMode> {
        let next = from.weaker()?;
        let _ = self.0.compare_exchange(
            from.to_u8(),
            next.to_u8(),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
        Some(self.get())
    }
}

/// Whether an HTTP rejection is about the structured-output parameters.
pub(crate) fn is_schema_rejection(status: u16, body: &str) -> bool {
    let body = body.to_ascii_lowercase();
    matches!(status, 400 | 422)
        && [
            "response_format",
            "json_schema",
            "schema",
            "json_object",
            "responsemimetype",
        ]
        .iter()
        .any(|needle| body.contains(needle))
}

/// The instruction telling a model to answer with JSON for `spec`.
pub fn schema_instructions(spec: &JsonSchemaSpec) -> String {
    let schema =
        serde_json::to_string_pretty(&spec.schema).unwrap_or_else(|_| spec.schema.to_string());
    format!(
        "Answer with a single JSON object and nothing else (no prose, no code fences). It must \
         validate against this JSON Schema:\n{schema}"
    )
}

/// The system prompt to send for `req` in `mode`: the schema is added whenever the server will
/// not enforce it by itself.
pub(crate) fn system_prompt(req: &ChatRequest, mode: StructuredMode) -> Option<String> {
    match (&req.json_schema, mode) {
        (Some(spec), StructuredMode::JsonObject | StructuredMode::PromptOnly) => {
            let instructions = schema_instructions(spec);
            Some(match &req.system {
                Some(system) => format!("{system}\n\n{instructions}"),
                None => instructions,
            })
        }
        _ => req.system.clone(),
    }
}

/// A validated JSON answer.
#[derive(Debug, Clone, PartialEq)]
pub struct StructuredCompletion {
    /// The validated object.
    pub value: Value,
    /// Every call made (one, or two after a repair), for usage accounting.
    pub completions: Vec<Completion>,
    /// Whether the repair request was needed.
    pub repaired: bool,
}

/// Checks a JSON value; returns readable errors ("/path: message").
pub type JsonValidator = Box<dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync>;

/// A validator for a JSON Schema, built on the `jsonschema` crate.
pub fn validator_from_schema(schema: &Value) -> Result<JsonValidator, LlmError> {
    let compiled = jsonschema::validator_for(schema)
        .map_err(|err| LlmError::Config(format!("invalid JSON Schema: {err}")))?;
    Ok(Box::new(move |value: &Value| {
        let errors: Vec<String> = compiled
            .iter_errors(value)
            .map(|err| {
                let path = err.instance_path().to_string();
                let path = if path.is_empty() {
                    "/".to_string()
                } else {
                    path
                };
                format!("{path}: {err}")
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }))
}

/// Asks `model` for a JSON object, validates it with `validate`, and on failure makes one repair
/// request that shows the model its answer and the errors. Exactly one call when the first
/// answer is valid; at most two.
pub async fn complete_structured(
    model: &dyn LanguageModel,
    req: &ChatRequest,
    validate: &(dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync),
) -> Result<StructuredCompletion, LlmError> {
    let first = model.complete(req).await?;
    let errors = match check(&first.text, validate) {
        Ok(value) => {
            return Ok(StructuredCompletion {
                value,
                completions: vec![first],
                repaired: false,
            });
        }
        Err(errors) => errors,
    };
    tracing::info!(errors = ?errors, "structured answer invalid; asking for a repair");
    let repair = repair_request(req, &first.text, &errors);
    let second = model.complete(&repair).await?;
    match check(&second.text, validate) {
        Ok(value) => Ok(StructuredCompletion {
            value,
            completions: vec![first, second],
            repaired: true,
        }),
        Err(errors) => Err(LlmError::StructuredOutput {
            errors,
            completions: vec![first, second],
        }),
    }
}

fn check(
    text: &str,
    validate: &(dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync),
) -> Result<Value, Vec<String>> {
    let value = extract_json_object(text).map_err(|err| vec![err.to_string()])?;
    validate(&value).map(|()| value)
}

/// `req` followed by the bad answer and a user turn listing what is wrong with it.
pub fn repair_request(req: &ChatRequest, bad_answer: &str, errors: &[String]) -> ChatRequest {
    let listed: Vec<String> = errors.iter().map(|e| format!("- {e}")).collect();
    let mut repair = req.clone();
    repair.messages.push(ChatMessage::assistant(bad_answer));
    repair.messages.push(ChatMessage::user(format!(
        "Your answer above cannot be used:\n{}\nReply again with only the corrected JSON \
         object: no prose, no code fences.",
        listed.join("\n")
    )));
    repair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scripted::ScriptedModel;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"title": {"type": "string"}, "n": {"type": "integer"}},
            "required": ["title", "n"]
        })
    }

    #[test]
    fn mode_memory_only_steps_down() {
        let memory = ModeMemory::new(StructuredMode::JsonSchema);
        assert_eq!(
            memory.step_down(StructuredMode::JsonSchema),
            Some(StructuredMode::JsonObject)
        );
        // A late rejection of the old mode must not undo the step already taken.
        assert_eq!(
            memory.step_down(StructuredMode::JsonSchema),
            Some(StructuredMode::JsonObject)
        );
        assert_eq!(memory.get(), StructuredMode::JsonObject);
        assert_eq!(
            memory.step_down(StructuredMode::JsonObject),
            Some(StructuredMode::PromptOnly)
        );
        assert_eq!(memory.step_down(StructuredMode::PromptOnly), None);
        assert_eq!(memory.get(), StructuredMode::PromptOnly);
    }

    #[test]
    fn schema_rejections_are_recognised() {
        let llama = r#"{"error":{"code":400,"message":"Unsupported response_format type"}}"#;
        assert!(is_schema_rejection(400, llama));
        assert!(is_schema_rejection(422, "json_schema is not supported"));
        assert!(!is_schema_rejection(400, "context length exceeded"));
        assert!(!is_schema_rejection(500, "response_format"));
    }

    #[test]
    fn schema_goes_into_the_prompt_only_when_the_server_will_not_enforce_it() {
        let req = ChatRequest::new("plan")
            .with_system("You plan.")
            .with_json_schema("plan", schema());
        assert_eq!(
            system_prompt(&req, StructuredMode::JsonSchema).as_deref(),
            Some("You plan.")
        );
        let prompt = system_prompt(&req, StructuredMode::PromptOnly).unwrap();
        assert!(
            prompt.starts_with("You plan.") && prompt.contains("\"required\""),
            "{prompt}"
        );
        let plain = ChatRequest::new("x");
        assert_eq!(system_prompt(&plain, StructuredMode::PromptOnly), None);
    }

    #[test]
    fn validator_reports_paths() {
        let validate = validator_from_schema(&schema()).unwrap();
        assert!(validate(&json!({"title": "t", "n": 1})).is_ok());
        let errors = validate(&json!({"title": 5, "n": 1})).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/title:"), "{errors:?}");
        let errors = validate(&json!({"title": "t"})).unwrap_err();
        assert!(
            errors[0].starts_with("/:") && errors[0].contains("\"n\""),
            "{errors:?}"
        );
        assert!(validator_from_schema(&json!({"type": 12})).is_err());
    }

    #[tokio::test]
    async fn clean_answer_takes_exactly_one_call() {
        let model = ScriptedModel::new().reply("```json\n{\"title\": \"A\", \"n\": 2}\n```");
        let validate = validator_from_schema(&schema()).unwrap();
        let req = ChatRequest::new("give json").with_json_schema("s", schema());
        let done = complete_structured(&model, &req, &validate).await.unwrap();
        assert_eq!(done.value, json!({"title": "A", "n": 2}));
        assert_eq!(done.completions.len(), 1);
        assert!(!done.repaired);
        assert_eq!(model.calls(), 1);
    }

    #[tokio::test]
    async fn invalid_answer_is_repaired_with_its_errors_shown() {
        let model = ScriptedModel::new()
            .reply("{\"title\": \"A\"}")
            .reply("{\"title\": \"A\", \"n\": 3}");
        let validate = validator_from_schema(&schema()).unwrap();
        let req = ChatRequest::new("give json");
        let done = complete_structured(&model, &req, &validate).await.unwrap();
        assert!(done.repaired);
        assert_eq!(done.completions.len(), 2);
        assert_eq!(done.value["n"], 3);
        let repair = &model.requests()[1];
        assert_eq!(repair.messages.len(), 3);
        assert_eq!(repair.messages[1].content, "{\"title\": \"A\"}");
        assert!(
            repair.messages[2].content.contains("\"n\""),
            "{}",
            repair.messages[2].content
        );
    }

    #[tokio::test]
    async fn still_invalid_after_repair_is_an_error_listing_the_problems() {
        let model = ScriptedModel::new()
            .reply("no json here")
            .reply("{\"title\": 1, \"n\": 1}");
        let validate = validator_from_schema(&schema()).unwrap();
        let err = complete_structured(&model, &ChatRequest::new("x"), &validate)
            .await
            .unwrap_err();
        match err {
            LlmError::StructuredOutput {
                errors,
                completions,
            } => {
                assert!(errors[0].starts_with("/title"), "{errors:?}");
                let texts: Vec<&str> = completions.iter().map(|c| c.text.as_str()).collect();
                assert_eq!(
                    texts,
                    ["no json here", "{\"title\": 1, \"n\": 1}"],
                    "both calls are handed back for usage accounting"
                );
                assert!(completions.iter().all(|c| c.usage.total() > 0));
            }
            other => panic!("unexpected {other}"),
        }
        assert_eq!(model.calls(), 2);
        let first_repair = &model.requests()[1].messages[2].content;
        assert!(first_repair.contains("no JSON object"), "{first_repair}");
    }
}
