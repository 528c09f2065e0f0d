//! How a provider asks its server for JSON: the ways strongest first ([`StructuredMode`]), a
//! provider's memory of the one its server accepts (it only ever steps down), the refusal that
//! makes it step down, and the system prompt that carries the schema whenever the server will
//! not enforce it. Wire vocabulary only; getting a valid object out of the answer is
//! `structured`'s.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::types::{ChatRequest, JsonSchemaSpec};

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

/// Words only an error about the structured-output parameters contains (OpenAI, llama.cpp,
/// llama-cpp-python's pydantic errors, Gemini).
const FORMAT_PARAMETERS: &[&str] = &[
    "response_format",
    "json_schema",
    "json_object",
    "responsemimetype",
    "responsejsonschema",
    "responseschema",
];

/// Whether a refused request was refused because of its structured-output parameters. Not by
/// status code alone: OpenAI answers 400, vLLM 400 or 422, but llama.cpp's older server and
/// llama-cpp-python answer HTTP 500 with a message naming `response_format`, which must step
/// the mode down at once instead of being retried as a server fault.
pub(crate) fn is_schema_rejection(status: u16, body: &str) -> bool {
    let body = body.to_ascii_lowercase();
    let names_a_parameter = FORMAT_PARAMETERS.iter().any(|word| body.contains(word));
    match status {
        400..=499 => names_a_parameter || body.contains("schema"),
        500..=599 => names_a_parameter,
        _ => false,
    }
}

/// The instruction telling a model to answer with JSON for `spec`.
pub fn schema_instructions(spec: &JsonSchemaSpec) -> String {
    // Compact: indentation would cost a token a line on every call that pastes the schema.
    let schema = spec.schema.to_string();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structured::tests::schema;

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
        // llama-cpp-python: a pydantic validation error wrapped as HTTP 500.
        let pydantic = r#"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}\n","type":"internal_server_error","param":null,"code":null}}"#;
        assert!(is_schema_rejection(500, pydantic));
        // llama.cpp's older server.
        let llama_cpp = r#"{"error":{"code":500,"message":"response_format type must be one of \"text\" or \"json_object\", but got: json_schema","type":"server_error"}}"#;
        assert!(is_schema_rejection(500, llama_cpp));
        assert!(!is_schema_rejection(400, "context length exceeded"));
        assert!(!is_schema_rejection(500, "CUDA out of memory"));
        assert!(!is_schema_rejection(
            503,
            "database schema migration running"
        ));
        assert!(!is_schema_rejection(200, "response_format"));
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
}
