//! The Google Gemini wire format (`streamGenerateContent?alt=sse`): request building with
//! `systemInstruction` and `generationConfig` (JSON mode via `responseMimeType` and
//! `responseJsonSchema`), and parsing of the streamed `GenerateContentResponse` chunks, whose
//! `usageMetadata` is cumulative and whose last chunk carries `finishReason`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::json::mode::{StructuredMode, system_prompt};
use crate::sse::{SseStep, WireError};
use crate::tokens::reported;
use crate::types::{ChatRequest, FinishReason, Role, StreamEvent, Usage};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireRequest {
    contents: Vec<Content>,
    #[serde(skip_serializing_if = "Option::is_none")]
    system_instruction: Option<Content>,
    generation_config: GenerationConfig,
}

#[derive(Debug, Serialize)]
struct Content {
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    parts: Vec<TextPart>,
}

#[derive(Debug, Serialize)]
struct TextPart {
    text: String,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct GenerationConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    max_output_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_mime_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_json_schema: Option<Value>,
}

/// The request body for `req` in structured `mode`.
pub(crate) fn build_request(req: &ChatRequest, mode: StructuredMode) -> WireRequest {
    let text = |text: String| vec![TextPart { text }];
    let wants_json = req.json_schema.is_some() && mode != StructuredMode::PromptOnly;
    WireRequest {
        contents: req
            .messages
            .iter()
            .map(|m| Content {
                role: Some(match m.role {
                    Role::User => "user",
                    Role::Assistant => "model",
                }),
                parts: text(m.content.clone()),
            })
            .collect(),
        system_instruction: system_prompt(req, mode).map(|system| Content {
            role: None,
            parts: text(system),
        }),
        generation_config: GenerationConfig {
            max_output_tokens: req.max_tokens,
            temperature: req.temperature,
            top_p: req.top_p,
            response_mime_type: wants_json.then_some("application/json"),
            response_json_schema: match (&req.json_schema, mode) {
                (Some(spec), StructuredMode::JsonSchema) => Some(spec.schema.clone()),
                _ => None,
            },
        },
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireChunk {
    #[serde(default)]
    candidates: Vec<Candidate>,
    usage_metadata: Option<UsageMetadata>,
    prompt_feedback: Option<PromptFeedback>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    content: Option<CandidateContent>,
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct CandidateContent {
    #[serde(default)]
    parts: Vec<Part>,
}

#[derive(Debug, Deserialize)]
struct Part {
    text: Option<String>,
    /// Thought summaries are not answer text.
    #[serde(default)]
    thought: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default, deserialize_with = "reported::saturating")]
    prompt_token_count: u32,
    #[serde(default, deserialize_with = "reported::saturating")]
    candidates_token_count: u32,
    #[serde(default, deserialize_with = "reported::saturating")]
    thoughts_token_count: u32,
    /// The part of `promptTokenCount` served from Gemini's (implicit or explicit) cache.
    #[serde(default, deserialize_with = "reported::saturating")]
    cached_content_token_count: u32,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    block_reason: Option<String>,
}

fn finish_reason(word: &str) -> FinishReason {
    match word {
        "STOP" => FinishReason::Stop,
        "MAX_TOKENS" => FinishReason::Length,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            FinishReason::ContentFilter
        }
        other => FinishReason::Other(other.to_string()),
    }
}

/// Parses the `data` of one stream event. Gemini sends no end marker: the stream simply ends
/// after the chunk carrying `finishReason`.
pub(crate) fn parse_chunk(data: &str) -> Result<SseStep, WireError> {
    let chunk: WireChunk = serde_json::from_str(data)
        .map_err(|err| WireError::Invalid(format!("unreadable stream chunk ({err}): {data}")))?;
    if let Some(error) = chunk.error {
        return Err(WireError::Remote(error.to_string()));
    }
    let mut events = Vec::new();
    let mut finish = None;
    if let Some(candidate) = chunk.candidates.into_iter().next() {
        let parts = candidate.content.map(|c| c.parts).unwrap_or_default();
        for part in parts.into_iter().filter(|part| !part.thought) {
            if let Some(text) = part.text.filter(|t| !t.is_empty()) {
                events.push(StreamEvent::TextDelta(text));
            }
        }
        finish = candidate.finish_reason.as_deref().map(finish_reason);
    }
    // A blocked prompt gets no candidates at all, only this feedback.
    if let Some(reason) = chunk.prompt_feedback.and_then(|f| f.block_reason) {
        tracing::warn!(reason = %reason, "Gemini blocked the prompt");
        finish = Some(FinishReason::ContentFilter);
    }
    if let Some(usage) = chunk.usage_metadata {
        events.push(StreamEvent::Usage(Usage {
            prompt_tokens: usage.prompt_token_count,
            // Thinking tokens are generated and billed as output.
            completion_tokens: usage
                .candidates_token_count
                .saturating_add(usage.thoughts_token_count),
            estimated: false,
            cached_tokens: usage
                .cached_content_token_count
                .min(usage.prompt_token_count),
            ..Usage::default()
        }));
    }
    events.extend(finish.map(StreamEvent::Finish));
    Ok(SseStep::Events(events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{fixture_json, parse_sse_fixture};
    use crate::types::ChatMessage;
    use serde_json::json;

    fn request() -> ChatRequest {
        let mut req = ChatRequest::new("Plan the next scene.")
            .with_system("You are the story planner.")
            .with_max_tokens(1024)
            .with_temperature(0.5)
            .with_json_schema("plan", json!({"type": "object", "required": ["rationale"]}));
        req.messages.push(ChatMessage::assistant("{}"));
        req.messages.push(ChatMessage::user("Fix it."));
        req
    }

    #[test]
    fn builds_a_json_schema_request() {
        let body =
            serde_json::to_value(build_request(&request(), StructuredMode::JsonSchema)).unwrap();
        assert_eq!(body, fixture_json("gemini/request_json_schema.json"));
    }

    #[test]
    fn weaker_modes_drop_the_schema_field_then_the_mime_type() {
        let object =
            serde_json::to_value(build_request(&request(), StructuredMode::JsonObject)).unwrap();
        assert_eq!(
            object["generationConfig"]["responseMimeType"],
            "application/json"
        );
        assert!(
            object["generationConfig"]
                .get("responseJsonSchema")
                .is_none()
        );
        let system = object["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap();
        assert!(system.contains("\"rationale\""));
        let prompt =
            serde_json::to_value(build_request(&request(), StructuredMode::PromptOnly)).unwrap();
        assert!(prompt["generationConfig"].get("responseMimeType").is_none());
    }

    #[test]
    fn parses_a_streamed_answer_skipping_thoughts() {
        let mut events = Vec::new();
        for (_, data) in parse_sse_fixture("gemini/stream.sse") {
            match parse_chunk(&data).unwrap() {
                SseStep::Events(more) => events.extend(more),
                SseStep::Done => panic!("Gemini has no end marker"),
            }
        }
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::TextDelta(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, "Mara listened to the rain.");
        assert_eq!(
            events[events.len() - 2..],
            [
                StreamEvent::Usage(Usage {
                    prompt_tokens: 9,
                    completion_tokens: 18,
                    ..Usage::default()
                }),
                StreamEvent::Finish(FinishReason::Stop)
            ]
        );
    }

    #[test]
    fn blocked_prompts_and_errors() {
        let blocked =
            r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":5}}"#;
        let SseStep::Events(events) = parse_chunk(blocked).unwrap() else {
            panic!("expected events");
        };
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Finish(FinishReason::ContentFilter))
        );
        let error =
            r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#;
        assert!(
            matches!(parse_chunk(error), Err(WireError::Remote(m)) if m.contains("overloaded"))
        );
    }

    #[test]
    fn absurd_usage_numbers_are_clamped_and_summed_without_overflow() {
        let chunk = r#"{"usageMetadata":{"promptTokenCount":18446744073709551615,"candidatesTokenCount":4e9,"thoughtsTokenCount":4e9}}"#;
        let SseStep::Events(events) = parse_chunk(chunk).unwrap() else {
            panic!("not events")
        };
        assert_eq!(
            events,
            [StreamEvent::Usage(Usage {
                prompt_tokens: u32::MAX,
                completion_tokens: u32::MAX,
                ..Usage::default()
            })]
        );
    }

    #[test]
    fn cached_content_tokens_are_read_as_cached_prompt() {
        let usage = parse_sse_fixture("gemini/stream_cached.sse")
            .into_iter()
            .filter_map(|(_, data)| match parse_chunk(&data).unwrap() {
                SseStep::Events(events) => Some(events),
                SseStep::Done => None,
            })
            .flatten()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find_map(|e| match e {
                StreamEvent::Usage(u) => Some(u),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            (
                usage.prompt_tokens,
                usage.cached_tokens,
                usage.completion_tokens
            ),
            (2210, 2048, 7)
        );
    }
}
