//! Scripted replies: what the server answers to one request, as serde data (loadable from a
//! script file) plus builders so Rust tests read well.

use serde::{Deserialize, Serialize};

/// One scripted answer. Serialized with a `type` tag, e.g. `{"type":"text","content":"…"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// A normal assistant message, streamed or not depending on the request.
    Text(TextReply),
    /// An HTTP error with an OpenAI-style error body.
    Status(StatusReply),
    /// Refuses a request asking for `response_format.type == "json_schema"` the way the server
    /// named by `like` does (default: OpenAI's 400), else answers `then`.
    RejectJsonSchema {
        /// The answer given when the request does not use `json_schema`.
        then: Box<Reply>,
        /// Whose refusal to imitate: status code and body differ between servers.
        #[serde(default)]
        like: ServerStyle,
    },
    /// 400 when the request carries any `response_format`, else `then`.
    RejectResponseFormat {
        /// The answer given when the request has no `response_format`.
        then: Box<Reply>,
    },
    /// Sends only the first `after_chars` characters, then drops the connection.
    CutStream(CutStreamReply),
    /// Waits `ms` milliseconds, then answers with `then`.
    Delay {
        /// How long to wait before answering.
        ms: u64,
        /// The answer given after the wait.
        then: Box<Reply>,
    },
    /// Answers `then` with HTTP status `code` instead of its own, e.g. a 500 whose body is
    /// `huge` or never ends (`keep_alive`).
    WithStatus {
        /// The status to send.
        code: u16,
        /// The reply whose body is sent.
        then: Box<Reply>,
    },
    /// An absurdly long answer, generated on the fly: `chars` characters of repeated prose,
    /// streamed in chunks of `chunk_chars` (one chunk = one SSE line) or sent as one body.
    Huge(HugeReply),
    /// Sends `content`, then never finishes: SSE keep-alive comments (`: keep-alive`) in a
    /// stream, single spaces in a plain body, every `interval_ms`, until the client gives up.
    KeepAlive(EndlessReply),
    /// Sends `content` again as a new chunk every `interval_ms`, forever: a stream that
    /// trickles text and never finishes.
    Trickle(EndlessReply),
}

/// Which real server a scripted refusal imitates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerStyle {
    /// OpenAI: HTTP 400 naming the `response_format` parameter.
    #[default]
    Openai,
    /// llama.cpp's server before it knew `json_schema`: HTTP 500, "response_format type must
    /// be one of \"text\" or \"json_object\", but got: json_schema".
    LlamaCpp,
    /// llama-cpp-python (`python -m llama_cpp.server`): HTTP 500 whose `internal_server_error`
    /// message is the pydantic validation error of the request's `response_format.type`.
    LlamaCppPython,
}

/// The `huge` reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HugeReply {
    /// How many characters of answer to send.
    pub chars: u64,
    /// Characters per streamed chunk; as large as `chars` for one giant SSE line.
    #[serde(default = "default_chunk_chars")]
    pub chunk_chars: u64,
}

fn default_chunk_chars() -> u64 {
    4096
}

/// The `keep_alive` and `trickle` replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndlessReply {
    /// Text sent first (`keep_alive`) or over and over (`trickle`); may be empty.
    #[serde(default)]
    pub content: String,
    /// Pause between keep-alives or repeats.
    #[serde(default = "default_interval_ms")]
    pub interval_ms: u64,
}

fn default_interval_ms() -> u64 {
    100
}

/// Token counts reported in `usage`; `total_tokens` is derived (saturating, so `u64::MAX`
/// tests clients against absurd numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageSpec {
    /// Reported `prompt_tokens`.
    pub prompt_tokens: u64,
    /// Reported `completion_tokens`.
    pub completion_tokens: u64,
}

/// The `text` reply. `{{n}}` in `content` becomes the 1-based count of requests the rule answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextReply {
    /// The assistant message content (templated).
    pub content: String,
    /// Usage to report; when absent a plausible estimate (chars / 4) is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<UsageSpec>,
    /// Sent verbatim as the `usage` object instead of `usage`, for numbers a [`UsageSpec`]
    /// cannot hold (`4e9`, `-5`, `"many"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_usage: Option<serde_json::Value>,
    /// Send no usage at all, as some servers do, so clients must count tokens themselves.
    #[serde(default)]
    pub omit_usage: bool,
    /// In a stream, send the usage chunk even when the request did not ask for it.
    #[serde(default)]
    pub stream_usage: bool,
    /// Pause between streamed chunks, so cancel and progress tests can catch a stream mid-way.
    #[serde(default)]
    pub chunk_delay_ms: u64,
}

/// The `status` reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusReply {
    /// The HTTP status code.
    pub code: u16,
    /// Sent verbatim as the response body instead of the default OpenAI-style error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<serde_json::Value>,
    /// Value of the `Retry-After` header, when one should be sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<String>,
    /// Value of the `Location` header: with a 3xx code, a redirect (to test that clients do
    /// not follow one to another server with the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// The `cut_stream` reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutStreamReply {
    /// The full content the cut stream pretends to be sending (templated).
    pub content: String,
    /// How many characters of `content` get out before the connection drops.
    pub after_chars: usize,
    /// Pause between streamed chunks.
    #[serde(default)]
    pub chunk_delay_ms: u64,
}

impl Reply {
    /// A text reply with estimated usage.
    pub fn text(content: impl Into<String>) -> TextReply {
        TextReply {
            content: content.into(),
            usage: None,
            raw_usage: None,
            omit_usage: false,
            stream_usage: false,
            chunk_delay_ms: 0,
        }
    }

    /// An HTTP error reply with the default OpenAI-style body.
    pub fn status(code: u16) -> StatusReply {
        StatusReply {
            code,
            body: None,
            retry_after: None,
            location: None,
        }
    }

    /// An empty answer (finish reason `stop`, no text); `text("  \n")` answers whitespace.
    pub fn empty() -> TextReply {
        Reply::text("")
    }

    /// Rejects `json_schema` response formats as OpenAI does (400), otherwise answers `then`.
    pub fn reject_json_schema(then: impl Into<Reply>) -> Reply {
        Reply::reject_json_schema_like(ServerStyle::Openai, then)
    }

    /// Rejects `json_schema` response formats as the server `like` does, otherwise answers
    /// `then`.
    pub fn reject_json_schema_like(like: ServerStyle, then: impl Into<Reply>) -> Reply {
        Reply::RejectJsonSchema {
            then: Box::new(then.into()),
            like,
        }
    }

    /// Sends `then`'s body with status `code`.
    pub fn with_status(code: u16, then: impl Into<Reply>) -> Reply {
        Reply::WithStatus {
            code,
            then: Box::new(then.into()),
        }
    }

    /// `chars` characters of answer in chunks of 4096.
    pub fn huge(chars: u64) -> HugeReply {
        HugeReply {
            chars,
            chunk_chars: default_chunk_chars(),
        }
    }

    /// Sends `content`, then keep-alives every 100 ms forever.
    pub fn keep_alive(content: impl Into<String>) -> EndlessReply {
        EndlessReply {
            content: content.into(),
            interval_ms: default_interval_ms(),
        }
    }

    /// Sends `content` every 100 ms forever.
    pub fn trickle(content: impl Into<String>) -> Reply {
        Reply::Trickle(EndlessReply {
            content: content.into(),
            interval_ms: default_interval_ms(),
        })
    }

    /// Rejects any response format, otherwise answers `then`.
    pub fn reject_response_format(then: impl Into<Reply>) -> Reply {
        Reply::RejectResponseFormat {
            then: Box::new(then.into()),
        }
    }

    /// A stream that dies after `after_chars` characters of `content`.
    pub fn cut_stream(content: impl Into<String>, after_chars: usize) -> CutStreamReply {
        CutStreamReply {
            content: content.into(),
            after_chars,
            chunk_delay_ms: 0,
        }
    }

    /// Waits `ms` milliseconds, then answers `then`.
    pub fn delay(ms: u64, then: impl Into<Reply>) -> Reply {
        Reply::Delay {
            ms,
            then: Box::new(then.into()),
        }
    }
}

impl TextReply {
    /// Reports exactly these token counts.
    pub fn usage(mut self, prompt_tokens: u64, completion_tokens: u64) -> Self {
        self.usage = Some(UsageSpec {
            prompt_tokens,
            completion_tokens,
        });
        self
    }

    /// Sends `usage` verbatim as the usage object.
    pub fn raw_usage(mut self, usage: serde_json::Value) -> Self {
        self.raw_usage = Some(usage);
        self
    }

    /// Sends no usage at all.
    pub fn omit_usage(mut self) -> Self {
        self.omit_usage = true;
        self
    }

    /// Sends the usage chunk in streams even when the request did not ask for it.
    pub fn stream_usage(mut self) -> Self {
        self.stream_usage = true;
        self
    }

    /// Pauses between streamed chunks.
    pub fn chunk_delay_ms(mut self, ms: u64) -> Self {
        self.chunk_delay_ms = ms;
        self
    }
}

impl StatusReply {
    /// Adds a `Retry-After` header.
    pub fn retry_after(mut self, value: impl Into<String>) -> Self {
        self.retry_after = Some(value.into());
        self
    }

    /// Adds a `Location` header, e.g. `Reply::status(302).location(url)`.
    pub fn location(mut self, url: impl Into<String>) -> Self {
        self.location = Some(url.into());
        self
    }

    /// Replaces the default error body.
    pub fn body(mut self, body: serde_json::Value) -> Self {
        self.body = Some(body);
        self
    }
}

impl HugeReply {
    /// Characters per streamed chunk.
    pub fn chunk_chars(mut self, chars: u64) -> Self {
        self.chunk_chars = chars.max(1);
        self
    }
}

impl EndlessReply {
    /// Pause between keep-alives or repeats.
    pub fn interval_ms(mut self, ms: u64) -> Self {
        self.interval_ms = ms;
        self
    }
}

impl From<HugeReply> for Reply {
    fn from(reply: HugeReply) -> Self {
        Reply::Huge(reply)
    }
}

/// `keep_alive` is the natural reading of an [`EndlessReply`] on its own; use
/// [`Reply::trickle`] for the other one.
impl From<EndlessReply> for Reply {
    fn from(reply: EndlessReply) -> Self {
        Reply::KeepAlive(reply)
    }
}

impl CutStreamReply {
    /// Pauses between streamed chunks.
    pub fn chunk_delay_ms(mut self, ms: u64) -> Self {
        self.chunk_delay_ms = ms;
        self
    }
}

impl From<TextReply> for Reply {
    fn from(reply: TextReply) -> Self {
        Reply::Text(reply)
    }
}

impl From<StatusReply> for Reply {
    fn from(reply: StatusReply) -> Self {
        Reply::Status(reply)
    }
}

impl From<CutStreamReply> for Reply {
    fn from(reply: CutStreamReply) -> Self {
        Reply::CutStream(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_replies_parse_from_tagged_json() {
        let parsed: Reply = serde_json::from_value(json!({
            "type": "delay", "ms": 5,
            "then": {"type": "reject_json_schema",
                     "then": {"type": "text", "content": "hi", "omit_usage": true}}
        }))
        .unwrap();
        let expected = Reply::delay(5, Reply::reject_json_schema(Reply::text("hi").omit_usage()));
        assert_eq!(parsed, expected);
    }

    #[test]
    fn status_and_cut_parse_with_optional_fields() {
        let parsed: Vec<Reply> = serde_json::from_value(json!([
            {"type": "status", "code": 429, "retry_after": "2"},
            {"type": "cut_stream", "content": "abcdef", "after_chars": 3}
        ]))
        .unwrap();
        assert_eq!(
            parsed,
            vec![
                Reply::status(429).retry_after("2").into(),
                Reply::cut_stream("abcdef", 3).into()
            ]
        );
    }

    #[test]
    fn misbehaviour_replies_parse_with_defaults() {
        let parsed: Vec<Reply> = serde_json::from_value(json!([
            {"type": "reject_json_schema", "like": "llama_cpp_python", "then": {"type": "text", "content": "{}"}},
            {"type": "huge", "chars": 5000000},
            {"type": "keep_alive", "content": "Half a"},
            {"type": "trickle", "content": "more ", "interval_ms": 5},
            {"type": "text", "content": "", "raw_usage": {"prompt_tokens": 4e9}},
            {"type": "with_status", "code": 500, "then": {"type": "keep_alive"}}
        ]))
        .unwrap();
        assert_eq!(
            parsed,
            vec![
                Reply::reject_json_schema_like(ServerStyle::LlamaCppPython, Reply::text("{}")),
                Reply::huge(5_000_000).into(),
                Reply::keep_alive("Half a").into(),
                Reply::Trickle(Reply::keep_alive("more ").interval_ms(5)),
                Reply::empty()
                    .raw_usage(json!({"prompt_tokens": 4e9}))
                    .into(),
                Reply::with_status(500, Reply::keep_alive("")),
            ]
        );
        let plain: Reply = serde_json::from_value(
            json!({"type": "reject_json_schema", "then": {"type": "status", "code": 500}}),
        )
        .unwrap();
        assert_eq!(plain, Reply::reject_json_schema(Reply::status(500)));
    }

    #[test]
    fn builders_round_trip_through_json() {
        let reply: Reply = Reply::text("x").usage(3, 4).stream_usage().into();
        let back: Reply = serde_json::from_str(&serde_json::to_string(&reply).unwrap()).unwrap();
        assert_eq!(back, reply);
    }
}
