//! The OpenAI chat-completions wire format: JSON bodies for completions, stream chunks,
//! usage (with its cached share) and llama-server's `timings`, errors, plus SSE framing (the
//! model list is in `quirks`, as each server shapes it).

use serde_json::{Value, json};

use crate::cache::{self, CacheReport, PREDICTED_TOKENS_PER_SECOND, PROMPT_TOKENS_PER_SECOND};
use crate::reply::{ServerStyle, UsageSpec};

/// The `data:` line that ends an OpenAI stream.
pub const SSE_DONE: &str = "data: [DONE]\n\n";

/// Fields shared by a completion and all chunks of one stream.
#[derive(Debug, Clone)]
pub struct Meta {
    /// `chatcmpl-…` id.
    pub id: String,
    /// Unix seconds.
    pub created: u64,
    /// Echo of the requested model.
    pub model: String,
}

/// Rough token estimate (four characters a token) so clients see plausible numbers.
pub fn estimate_tokens(text: &str) -> u64 {
    let chars = u64::try_from(text.chars().count()).unwrap_or(u64::MAX);
    chars.div_ceil(4)
}

/// `{"prompt_tokens","completion_tokens","total_tokens"}`; the total saturates, since tests
/// send `u64::MAX` on purpose.
pub fn usage(usage: UsageSpec) -> Value {
    json!({
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.prompt_tokens.saturating_add(usage.completion_tokens),
    })
}

/// `usage` for a prompt partly read from cache, as llama-server and OpenAI report it:
/// `prompt_tokens` counts every prompt token, cached ones included, and
/// `prompt_tokens_details.cached_tokens` says how many were cached.
pub fn cached_usage(usage: UsageSpec, cached_tokens: u64) -> Value {
    let mut body = self::usage(usage);
    attach(
        &mut body,
        "prompt_tokens_details",
        Some(json!({"cached_tokens": cached_tokens})),
    );
    body
}

/// llama-server's `timings` object for an answer of `predicted_n` tokens, its times computed
/// from the imitated model's fixed speeds.
pub fn timings(report: &CacheReport, predicted_n: u64) -> Value {
    json!({
        "cache_n": report.cache_n,
        "prompt_n": report.prompt_n,
        "prompt_ms": report.prompt_ms(),
        "prompt_per_token_ms": 1000.0 / PROMPT_TOKENS_PER_SECOND,
        "prompt_per_second": PROMPT_TOKENS_PER_SECOND,
        "predicted_n": predicted_n,
        "predicted_ms": cache::milliseconds(predicted_n, PREDICTED_TOKENS_PER_SECOND),
        "predicted_per_token_ms": 1000.0 / PREDICTED_TOKENS_PER_SECOND,
        "predicted_per_second": PREDICTED_TOKENS_PER_SECOND,
    })
}

/// Adds `key` to a JSON object when there is a `value`.
pub fn attach(body: &mut Value, key: &str, value: Option<Value>) {
    if let (Some(value), Some(object)) = (value, body.as_object_mut()) {
        object.insert(key.to_string(), value);
    }
}

/// A non-streaming `chat.completion` object; `usage` (an object) omitted when `None`.
pub fn completion(meta: &Meta, content: &str, usage: Option<Value>) -> Value {
    let mut body = json!({
        "id": meta.id,
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": "stop",
        }],
    });
    attach(&mut body, "usage", usage);
    body
}

/// Everything of a non-streaming completion except the content string, split where the
/// content goes, so a huge answer can be streamed into the middle without building it.
pub fn completion_around_content(meta: &Meta) -> (String, String) {
    const MARK: &str = "\u{0}CONTENT\u{0}";
    let whole = completion(meta, MARK, None).to_string();
    let escaped_mark = Value::String(MARK.to_string()).to_string();
    let escaped_mark = &escaped_mark[1..escaped_mark.len() - 1];
    let (before, after) = whole
        .split_once(escaped_mark)
        .expect("the mark is in the body");
    (before.to_string(), after.to_string())
}

fn chunk(meta: &Meta, choices: Value) -> Value {
    json!({
        "id": meta.id,
        "object": "chat.completion.chunk",
        "created": meta.created,
        "model": meta.model,
        "choices": choices,
    })
}

/// The opening chunk announcing the assistant role.
pub fn role_chunk(meta: &Meta) -> Value {
    chunk(
        meta,
        json!([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]),
    )
}

/// One content piece.
pub fn content_chunk(meta: &Meta, piece: &str) -> Value {
    chunk(
        meta,
        json!([{"index": 0, "delta": {"content": piece}, "finish_reason": null}]),
    )
}

/// The chunk carrying `finish_reason: "stop"`.
pub fn finish_chunk(meta: &Meta) -> Value {
    chunk(
        meta,
        json!([{"index": 0, "delta": {}, "finish_reason": "stop"}]),
    )
}

/// The trailing chunk with empty `choices` and the usage object, as OpenAI sends it.
pub fn usage_chunk(meta: &Meta, usage: Value) -> Value {
    let mut body = chunk(meta, json!([]));
    attach(&mut body, "usage", Some(usage));
    body
}

/// The SSE comment servers send to keep an idle connection open.
pub const SSE_KEEP_ALIVE: &str = ": keep-alive\n\n";

/// Frames one JSON value as an SSE `data:` event.
pub fn sse_event(value: &Value) -> String {
    format!("data: {value}\n\n")
}

/// An OpenAI-style error body `{"error":{"message","type","param","code"}}`.
pub fn error(message: &str, kind: &str, param: Option<&str>, code: Option<&str>) -> Value {
    json!({"error": {"message": message, "type": kind, "param": param, "code": code}})
}

/// How the server `like` refuses `response_format: {"type": "json_schema"}`: status and body.
pub fn json_schema_refusal(like: ServerStyle) -> (u16, Value) {
    match like {
        ServerStyle::Openai => (
            400,
            error(
                "test server: response_format type \"json_schema\" is not supported by this \
                 server; use {\"type\":\"json_object\"}",
                "invalid_request_error",
                Some("response_format"),
                None,
            ),
        ),
        ServerStyle::LlamaCpp => (
            500,
            json!({"error": {
                "code": 500,
                "message": "response_format type must be one of \"text\" or \"json_object\", but got: json_schema",
                "type": "server_error",
            }}),
        ),
        // FastAPI's request validation error, caught by llama-cpp-python's route handler and
        // wrapped as an internal server error: `str(exc)` of pydantic's literal_error.
        ServerStyle::LlamaCppPython => (
            500,
            error(
                "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', \
                 'response_format', 'type'), 'msg': \"Input should be 'text' or \
                 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or \
                 'json_object'\"}}\n",
                "internal_server_error",
                None,
                None,
            ),
        ),
    }
}

/// The default error body for a scripted status code.
pub fn status_error(code: u16) -> Value {
    let (kind, error_code) = match code {
        401 => ("invalid_request_error", Some("invalid_api_key")),
        429 => ("rate_limit_error", Some("rate_limit_exceeded")),
        400..=499 => ("invalid_request_error", None),
        _ => ("server_error", None),
    };
    error(
        &format!("test server: scripted HTTP {code}"),
        kind,
        None,
        error_code,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Meta {
        Meta {
            id: "chatcmpl-x".into(),
            created: 7,
            model: "m".into(),
        }
    }

    #[test]
    fn completion_includes_usage_only_when_given() {
        let spec = UsageSpec {
            prompt_tokens: 3,
            completion_tokens: 4,
        };
        let with = completion(&meta(), "hi", Some(usage(spec)));
        assert_eq!(with["usage"]["total_tokens"], 7);
        let huge = usage(UsageSpec {
            prompt_tokens: u64::MAX,
            completion_tokens: u64::MAX,
        });
        assert_eq!(huge["total_tokens"], u64::MAX);
        assert_eq!(with["choices"][0]["message"]["content"], "hi");
        assert!(completion(&meta(), "hi", None).get("usage").is_none());
    }

    #[test]
    fn cached_usage_and_timings_report_the_cache_like_llama_server() {
        let report = CacheReport {
            slot: 0,
            cache_n: 90,
            prompt_n: 10,
        };
        let usage = cached_usage(
            UsageSpec {
                prompt_tokens: report.prompt_tokens(),
                completion_tokens: 5,
            },
            report.cache_n,
        );
        assert_eq!(
            usage,
            json!({"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105,
                   "prompt_tokens_details": {"cached_tokens": 90}})
        );
        let timings = timings(&report, 5);
        assert_eq!(timings["cache_n"], 90);
        assert_eq!(timings["prompt_n"], 10);
        assert_eq!(timings["prompt_ms"], 100.0);
        assert_eq!(timings["prompt_per_second"], 100.0);
        assert_eq!(timings["predicted_n"], 5);
        assert_eq!(timings["predicted_ms"], 500.0);
    }

    #[test]
    fn estimate_rounds_up_by_characters_not_bytes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("ééééé"), 2);
    }

    #[test]
    fn status_errors_name_rate_limits() {
        assert_eq!(status_error(429)["error"]["type"], "rate_limit_error");
        assert_eq!(status_error(500)["error"]["type"], "server_error");
        assert!(sse_event(&json!({"a": 1})).ends_with("\n\n"));
    }

    #[test]
    fn completion_splits_around_its_content() {
        let (before, after) = completion_around_content(&meta());
        let body = format!("{before}some \\\"text\\\"{after}");
        let parsed: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(parsed["choices"][0]["message"]["content"], "some \"text\"");
    }

    #[test]
    fn refusals_imitate_each_server() {
        let (status, body) = json_schema_refusal(ServerStyle::LlamaCppPython);
        assert_eq!(status, 500);
        assert_eq!(body["error"]["type"], "internal_server_error");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type')"), "{message}");
        assert_eq!(json_schema_refusal(ServerStyle::LlamaCpp).0, 500);
        assert_eq!(json_schema_refusal(ServerStyle::Openai).0, 400);
    }
}
