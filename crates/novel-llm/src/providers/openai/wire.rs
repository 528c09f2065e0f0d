//! The OpenAI chat-completions wire format as spoken by OpenAI, llama.cpp's server, Ollama's
//! `/v1`, LM Studio, vLLM and OpenRouter: request building and response / stream-chunk parsing,
//! as pure functions over private wire types. Server differences handled here: usage in a
//! separate last chunk (OpenAI, Ollama) or in the finishing chunk (llama.cpp), llama.cpp's
//! `timings` when `usage` is missing, reasoning fields that are not answer text.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::json::mode::{StructuredMode, system_prompt};
use crate::sse::{SseStep, WireError};
use crate::tokens::reported;
use crate::types::{ChatRequest, FinishReason, Role, StreamEvent, Usage};

/// The prompt-cache hint fields of one request body (which ones a server takes is `cache`'s
/// business).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CacheFields {
    pub cache_prompt: Option<bool>,
    pub id_slot: Option<u32>,
    pub prompt_cache_key: Option<String>,
}

/// Which field carries the token limit: newer OpenAI models refuse `max_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenLimitField {
    MaxTokens,
    MaxCompletionTokens,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireRequest {
    model: String,
    messages: Vec<WireMessage>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_completion_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<Value>,
    /// llama.cpp: keep this prompt's cache for the next request.
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_prompt: Option<bool>,
    /// llama.cpp: the slot (and its cache) to use.
    #[serde(skip_serializing_if = "Option::is_none")]
    id_slot: Option<u32>,
    /// OpenAI: requests with the same key are routed to the same prompt cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt_cache_key: Option<String>,
}

#[derive(Debug, Serialize)]
struct WireMessage {
    role: &'static str,
    content: String,
}

/// The request body for `req`.
pub(crate) fn build_request(
    req: &ChatRequest,
    model: &str,
    mode: StructuredMode,
    stream: bool,
    limit: TokenLimitField,
    cache: &CacheFields,
) -> WireRequest {
    let system = system_prompt(req, mode).map(|content| WireMessage {
        role: "system",
        content,
    });
    let turns = req.messages.iter().map(|m| WireMessage {
        role: match m.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        },
        content: m.content.clone(),
    });
    let response_format = req.json_schema.as_ref().and_then(|spec| match mode {
        StructuredMode::JsonSchema => Some(json!({
            "type": "json_schema",
            "json_schema": {"name": spec.name, "schema": spec.schema},
        })),
        // llama.cpp enforces a schema given here; others ignore the extra field.
        StructuredMode::JsonObject => Some(json!({"type": "json_object", "schema": spec.schema})),
        StructuredMode::PromptOnly => None,
    });
    let (max_tokens, max_completion_tokens) = match limit {
        TokenLimitField::MaxTokens => (req.max_tokens, None),
        TokenLimitField::MaxCompletionTokens => (None, req.max_tokens),
    };
    WireRequest {
        model: model.to_string(),
        messages: system.into_iter().chain(turns).collect(),
        stream,
        stream_options: stream.then(|| json!({"include_usage": true})),
        max_tokens,
        max_completion_tokens,
        temperature: req.temperature,
        top_p: req.top_p,
        response_format,
        cache_prompt: cache.cache_prompt,
        id_slot: cache.id_slot,
        prompt_cache_key: cache.prompt_cache_key.clone(),
    }
}

/// Whether a 400 says to use `max_completion_tokens` instead of `max_tokens`.
pub(crate) fn wants_max_completion_tokens(body: &str) -> bool {
    body.contains("max_completion_tokens")
}

/// Whether a refused request was refused for its parameter `name`: OpenAI names it in
/// `error.param` ("Unsupported parameter: 'temperature' is not supported with this model"),
/// other servers only in the message. A message that merely mentions the name (a server
/// echoing the whole request back) is not enough: it must also say the parameter is not
/// supported or not allowed.
pub(crate) fn refuses_parameter(body: &str, name: &str) -> bool {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error"));
    if error.and_then(|e| e.get("param")).and_then(Value::as_str) == Some(name) {
        return true;
    }
    let message = error
        .and_then(|e| e.get("message").or(Some(e)))
        .and_then(Value::as_str)
        .unwrap_or(body)
        .to_ascii_lowercase();
    let refusal = [
        "unsupported",
        "not supported",
        "does not support",
        "not allowed",
        "not permitted",
        "extra inputs are not permitted",
        "unrecognized",
        "unknown parameter",
        "unknown field",
    ];
    message.contains(name) && refusal.iter().any(|word| message.contains(word))
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    #[serde(default, deserialize_with = "reported::saturating")]
    prompt_tokens: u32,
    #[serde(default, deserialize_with = "reported::saturating")]
    completion_tokens: u32,
    /// OpenAI (and servers copying it) say here how much of the prompt came from the cache.
    prompt_tokens_details: Option<PromptTokensDetails>,
}

#[derive(Debug, Deserialize)]
struct PromptTokensDetails {
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    cached_tokens: Option<u32>,
}

/// llama.cpp's per-request timings, which count tokens too: `prompt_n` is the part of the
/// prompt processed this time, `cache_n` the part reused from the slot's cache.
#[derive(Debug, Deserialize)]
struct Timings {
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    prompt_n: Option<u32>,
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    cache_n: Option<u32>,
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    predicted_n: Option<u32>,
    prompt_ms: Option<f64>,
}

impl Timings {
    fn prefill_ms(&self) -> Option<u32> {
        // A float from the server: anything not a sane duration is dropped, not trusted.
        self.prompt_ms
            .filter(|ms| ms.is_finite() && *ms >= 0.0)
            .map(|ms| ms.min(f64::from(u32::MAX)).round() as u32)
    }
}

/// The usage of an answer from its `usage` and llama.cpp's `timings` (either may be missing):
/// the OpenAI fields win for the totals, the timings fill in what they leave out.
fn usage_of(usage: Option<WireUsage>, timings: Option<Timings>) -> Option<Usage> {
    let prefill_ms = timings.as_ref().and_then(Timings::prefill_ms);
    let timed_cache = timings.as_ref().and_then(|t| t.cache_n);
    if let Some(usage) = usage {
        let cached = usage
            .prompt_tokens_details
            .and_then(|d| d.cached_tokens)
            .or(timed_cache)
            .unwrap_or(0);
        return Some(Usage {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            cached_tokens: cached.min(usage.prompt_tokens),
            prefill_ms,
            ..Usage::default()
        });
    }
    let timings = timings?;
    let cached = timings.cache_n.unwrap_or(0);
    Some(Usage {
        // llama.cpp's `prompt_n` leaves out what came from the cache.
        prompt_tokens: timings.prompt_n?.saturating_add(cached),
        completion_tokens: timings.predicted_n?,
        cached_tokens: cached,
        prefill_ms,
        ..Usage::default()
    })
}

/// OpenAI's finish reasons, plus words some local servers use for the same thing.
pub(crate) fn finish_reason(word: &str) -> FinishReason {
    match word {
        "stop" | "eos" | "end_turn" | "stop_sequence" => FinishReason::Stop,
        "length" | "max_tokens" => FinishReason::Length,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

#[derive(Debug, Deserialize)]
struct WireResponse {
    model: Option<String>,
    #[serde(default)]
    choices: Vec<ResponseChoice>,
    usage: Option<WireUsage>,
    timings: Option<Timings>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct ResponseChoice {
    message: ResponseMessage,
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ResponseMessage {
    content: Option<String>,
}

/// A parsed non-streaming answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParsedResponse {
    pub text: String,
    pub finish: FinishReason,
    pub usage: Option<Usage>,
    pub model: Option<String>,
}

/// Parses a non-streaming response body.
pub(crate) fn parse_response(body: &str) -> Result<ParsedResponse, WireError> {
    let response: WireResponse = serde_json::from_str(body)
        .map_err(|err| WireError::Invalid(format!("not a chat completion ({err})")))?;
    if let Some(error) = response.error {
        return Err(WireError::Remote(error.to_string()));
    }
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(WireError::Invalid("the response has no choices".into()));
    };
    Ok(ParsedResponse {
        text: choice.message.content.unwrap_or_default(),
        // A complete non-streamed body is finished even if the server does not say why.
        finish: choice
            .finish_reason
            .as_deref()
            .map_or(FinishReason::Stop, finish_reason),
        usage: usage_of(response.usage, response.timings),
        model: response.model,
    })
}

#[derive(Debug, Deserialize)]
struct WireChunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    usage: Option<WireUsage>,
    timings: Option<Timings>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct ChunkChoice {
    delta: Option<ChunkDelta>,
    finish_reason: Option<String>,
}

/// Only `content` is answer text; `reasoning` / `reasoning_content` are thinking, ignored.
#[derive(Debug, Deserialize)]
struct ChunkDelta {
    content: Option<String>,
}

/// Parses the `data` of one stream event.
pub(crate) fn parse_chunk(data: &str) -> Result<SseStep, WireError> {
    let data = data.trim();
    if data == "[DONE]" {
        return Ok(SseStep::Done);
    }
    let chunk: WireChunk = serde_json::from_str(data)
        .map_err(|err| WireError::Invalid(format!("unreadable stream chunk ({err}): {data}")))?;
    if let Some(error) = chunk.error {
        return Err(WireError::Remote(error.to_string()));
    }
    let mut events = Vec::new();
    let mut finish = None;
    for choice in chunk.choices {
        if let Some(text) = choice
            .delta
            .and_then(|d| d.content)
            .filter(|t| !t.is_empty())
        {
            events.push(StreamEvent::TextDelta(text));
        }
        if let Some(word) = choice.finish_reason {
            finish = Some(finish_reason(&word));
        }
    }
    events.extend(usage_of(chunk.usage, chunk.timings).map(StreamEvent::Usage));
    events.extend(finish.map(StreamEvent::Finish));
    Ok(SseStep::Events(events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{fixture, fixture_json, parse_sse_fixture};

    /// The usage a stream chunk reports.
    fn usage_of_chunk(data: &str) -> Usage {
        let SseStep::Events(events) = parse_chunk(data).unwrap() else {
            panic!("expected events from {data}")
        };
        events
            .into_iter()
            .find_map(|e| match e {
                StreamEvent::Usage(u) => Some(u),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no usage in {data}"))
    }

    fn plan_request() -> ChatRequest {
        ChatRequest::new("Plan the next scene.")
            .with_system("You are the story planner.")
            .with_max_tokens(800)
            .with_temperature(0.5)
            .with_json_schema(
                "plan",
                json!({"type": "object", "properties": {"rationale": {"type": "string"}}, "required": ["rationale"]}),
            )
    }

    fn to_json(request: &WireRequest) -> Value {
        serde_json::to_value(request).unwrap()
    }

    #[test]
    fn builds_a_streaming_json_schema_request() {
        let body = build_request(
            &plan_request(),
            "gpt-4.1-mini",
            StructuredMode::JsonSchema,
            true,
            TokenLimitField::MaxTokens,
            &CacheFields::default(),
        );
        assert_eq!(
            to_json(&body),
            fixture_json("openai/request_json_schema_stream.json")
        );
    }

    #[test]
    fn cache_hints_go_on_the_body_only_when_given() {
        let llama = CacheFields {
            cache_prompt: Some(true),
            id_slot: Some(2),
            prompt_cache_key: None,
        };
        let body = to_json(&build_request(
            &plan_request(),
            "m",
            StructuredMode::JsonSchema,
            false,
            TokenLimitField::MaxTokens,
            &llama,
        ));
        assert_eq!(
            (body["cache_prompt"].clone(), body["id_slot"].clone()),
            (json!(true), json!(2))
        );
        assert!(body.get("prompt_cache_key").is_none());
        let openai = CacheFields {
            prompt_cache_key: Some("novel-1-writer".into()),
            ..CacheFields::default()
        };
        let body = to_json(&build_request(
            &plan_request(),
            "m",
            StructuredMode::JsonSchema,
            false,
            TokenLimitField::MaxTokens,
            &openai,
        ));
        assert_eq!(body["prompt_cache_key"], "novel-1-writer");
        assert!(body.get("cache_prompt").is_none() && body.get("id_slot").is_none());
    }

    #[test]
    fn json_object_mode_moves_the_schema_into_the_prompt_too() {
        let body = to_json(&build_request(
            &plan_request(),
            "qwen",
            StructuredMode::JsonObject,
            false,
            TokenLimitField::MaxCompletionTokens,
            &CacheFields::default(),
        ));
        assert_eq!(body["response_format"]["type"], "json_object");
        assert_eq!(
            body["response_format"]["schema"]["required"][0],
            "rationale"
        );
        assert!(
            body["messages"][0]["content"]
                .as_str()
                .unwrap()
                .contains("\"rationale\"")
        );
        assert_eq!(body["max_completion_tokens"], 800);
        assert!(body.get("max_tokens").is_none() && body.get("stream_options").is_none());
    }

    #[test]
    fn prompt_only_mode_sends_no_response_format() {
        let body = to_json(&build_request(
            &plan_request(),
            "m",
            StructuredMode::PromptOnly,
            false,
            TokenLimitField::MaxTokens,
            &CacheFields::default(),
        ));
        assert!(body.get("response_format").is_none());
        assert!(
            body["messages"][0]["content"]
                .as_str()
                .unwrap()
                .contains("JSON Schema")
        );
    }

    #[test]
    fn a_refused_parameter_is_recognised_by_param_or_by_words() {
        let openai = r#"{"error":{"message":"Unsupported parameter: 'temperature' is not supported with this model.","type":"invalid_request_error","param":"temperature","code":"unsupported_parameter"}}"#;
        assert!(refuses_parameter(openai, "temperature"));
        assert!(!refuses_parameter(openai, "top_p"));
        let value = r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.","param":null}}"#;
        assert!(refuses_parameter(value, "temperature"));
        let plain = "temperature is not supported by this backend";
        assert!(refuses_parameter(plain, "temperature"));
        let echo =
            r#"{"error":{"message":"messages: field required","input":{"temperature":0.7}}}"#;
        assert!(
            !refuses_parameter(echo, "temperature"),
            "an echoed request is not a refusal"
        );
    }

    #[test]
    fn parses_openai_response() {
        let parsed = parse_response(&fixture("openai/response_openai.json")).unwrap();
        assert_eq!(
            parsed.text,
            "Mara pressed her palm to the cold glass and waited."
        );
        assert_eq!(parsed.finish, FinishReason::Stop);
        assert_eq!(
            parsed.usage,
            Some(Usage {
                prompt_tokens: 31,
                completion_tokens: 12,
                ..Usage::default()
            })
        );
        assert_eq!(parsed.model.as_deref(), Some("gpt-4.1-2025-04-14"));
    }

    #[test]
    fn parses_llamacpp_response_with_timings_only() {
        let parsed = parse_response(&fixture("openai/response_llamacpp_timings.json")).unwrap();
        assert_eq!(parsed.finish, FinishReason::Length);
        assert_eq!(
            parsed.usage,
            Some(Usage {
                prompt_tokens: 25,
                completion_tokens: 3,
                prefill_ms: Some(80),
                ..Usage::default()
            })
        );
    }

    #[test]
    fn openai_cached_tokens_are_read_from_the_prompt_details() {
        let parsed = parse_response(&fixture("openai/response_openai_cached.json")).unwrap();
        let usage = parsed.usage.unwrap();
        assert_eq!((usage.prompt_tokens, usage.cached_tokens), (2006, 1920));
        assert_eq!(usage.uncached_prompt_tokens(), 86);
        assert_eq!(usage.prefill_ms, None);
    }

    #[test]
    fn a_real_llama_server_reports_its_cache_in_usage_and_timings() {
        // Recorded from llama-server b10930 (fixtures/llama_server/README.md): the same prompt
        // twice, the second read from the slot's cache but for its last token.
        let usage = parse_response(&fixture("llama_server/chat_cached.json"))
            .unwrap()
            .usage
            .unwrap();
        assert_eq!(
            (
                usage.prompt_tokens,
                usage.cached_tokens,
                usage.completion_tokens
            ),
            (432, 431, 48)
        );
        assert_eq!(usage.uncached_prompt_tokens(), 1);
        assert_eq!(usage.prefill_ms, Some(30));
        // Streamed, usage and timings come in a last chunk of their own, after the finish.
        let (events, done) = stream_events("llama_server/chat_stream_cached.sse");
        assert!(done);
        let usage = events
            .iter()
            .rev()
            .find_map(|e| match e {
                StreamEvent::Usage(u) => Some(*u),
                _ => None,
            })
            .unwrap();
        assert!(usage.cached_tokens > 0, "{usage:?}");
        assert!(usage.cached_tokens < usage.prompt_tokens, "{usage:?}");
        assert!(usage.prefill_ms.is_some(), "{usage:?}");
    }

    #[test]
    fn llamacpp_timings_without_usage_count_the_cached_prompt_too() {
        // `prompt_n` is only what was processed; the cache's `cache_n` is prompt too.
        let body = r#"{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"x"}}],
            "timings":{"cache_n":1500,"prompt_n":62,"prompt_ms":610.4,"predicted_n":9,"predicted_ms":90.0}}"#;
        let usage = parse_response(body).unwrap().usage.unwrap();
        assert_eq!(
            usage,
            Usage {
                prompt_tokens: 1562,
                completion_tokens: 9,
                cached_tokens: 1500,
                prefill_ms: Some(610),
                ..Usage::default()
            }
        );
        // Garbage durations are dropped, and a cache bigger than the prompt is clipped.
        let odd = r#"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1},
            "timings":{"cache_n":99,"prompt_ms":-4}}"#;
        let usage = usage_of_chunk(odd);
        assert_eq!((usage.cached_tokens, usage.prefill_ms), (10, None));
    }

    #[test]
    fn error_bodies_and_garbage_are_rejected() {
        let err = parse_response(r#"{"error":{"message":"model crashed"}}"#).unwrap_err();
        assert!(matches!(err, WireError::Remote(ref m) if m.contains("model crashed")));
        assert!(matches!(
            parse_response("<html>"),
            Err(WireError::Invalid(_))
        ));
        assert!(matches!(
            parse_response(r#"{"choices":[]}"#),
            Err(WireError::Invalid(_))
        ));
    }

    fn stream_events(path: &str) -> (Vec<StreamEvent>, bool) {
        let mut done = false;
        let mut events = Vec::new();
        for (_, data) in parse_sse_fixture(path) {
            match parse_chunk(&data).unwrap() {
                SseStep::Events(more) => events.extend(more),
                SseStep::Done => done = true,
            }
        }
        (events, done)
    }

    fn text_of(events: &[StreamEvent]) -> String {
        events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::TextDelta(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn parses_openai_stream_with_separate_usage_chunk() {
        let (events, done) = stream_events("openai/stream_openai.sse");
        assert!(done);
        assert_eq!(text_of(&events), "Mara waited by the gate.");
        assert_eq!(
            events[events.len() - 2..],
            [
                StreamEvent::Finish(FinishReason::Stop),
                StreamEvent::Usage(Usage {
                    prompt_tokens: 40,
                    completion_tokens: 6,
                    ..Usage::default()
                })
            ]
        );
    }

    #[test]
    fn parses_llamacpp_stream_with_usage_in_the_finishing_chunk() {
        let (events, done) = stream_events("openai/stream_llamacpp.sse");
        assert!(done);
        assert_eq!(text_of(&events), "The tide turned.");
        assert_eq!(
            events[events.len() - 2..],
            [
                StreamEvent::Usage(Usage {
                    prompt_tokens: 20,
                    completion_tokens: 4,
                    prefill_ms: Some(61),
                    ..Usage::default()
                }),
                StreamEvent::Finish(FinishReason::Length)
            ]
        );
    }

    #[test]
    fn parses_ollama_stream_and_ignores_reasoning() {
        let (events, done) = stream_events("openai/stream_ollama.sse");
        assert!(done);
        assert_eq!(text_of(&events), "Rain on slate.");
        assert!(events.contains(&StreamEvent::Usage(Usage {
            prompt_tokens: 26,
            completion_tokens: 4,
            ..Usage::default()
        })));
        assert!(events.contains(&StreamEvent::Finish(FinishReason::Stop)));
    }

    #[test]
    fn chunk_errors_are_reported() {
        assert!(matches!(
            parse_chunk(r#"{"error":{"message":"out of memory"}}"#),
            Err(WireError::Remote(_))
        ));
        assert!(matches!(
            parse_chunk("{not json"),
            Err(WireError::Invalid(_))
        ));
        assert_eq!(parse_chunk(" [DONE] ").unwrap(), SseStep::Done);
    }

    #[test]
    fn absurd_usage_numbers_are_clamped_not_refused() {
        let body = r#"{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],
            "usage":{"prompt_tokens":18446744073709551615,"completion_tokens":4e9,"total_tokens":-1}}"#;
        let usage = parse_response(body).unwrap().usage.unwrap();
        assert_eq!(
            (usage.prompt_tokens, usage.completion_tokens, usage.total()),
            (u32::MAX, 4_000_000_000, u32::MAX)
        );
        let chunk = r#"{"choices":[],"timings":{"prompt_n":1e99,"predicted_n":-3}}"#;
        let SseStep::Events(events) = parse_chunk(chunk).unwrap() else {
            panic!("not events")
        };
        assert_eq!(
            events,
            [StreamEvent::Usage(Usage {
                prompt_tokens: u32::MAX,
                completion_tokens: 0,
                ..Usage::default()
            })]
        );
    }
}
