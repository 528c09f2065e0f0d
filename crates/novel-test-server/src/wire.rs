//! The OpenAI chat-completions wire format: JSON bodies for completions, stream chunks,
//! usage and errors, plus SSE framing (the model list is in `quirks`, as each server shapes it).

use serde_json::{Value, json};

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
    if let (Some(usage), Some(object)) = (usage, body.as_object_mut()) {
        object.insert("usage".to_string(), usage);
    }
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
    if let Some(object) = body.as_object_mut() {
        object.insert("usage".to_string(), usage);
    }
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
