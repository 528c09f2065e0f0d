//! The Anthropic Messages wire format: request building and the streamed events
//! (`message_start` with input usage, `content_block_delta` text, `message_delta` with the stop
//! reason and output usage, `message_stop`, `error`), as pure functions over private types.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::json::mode::{StructuredMode, system_prompt};
use crate::sse::{SseStep, WireError};
use crate::tokens::reported;
use crate::types::{ChatRequest, FinishReason, Role, StreamEvent, Usage};

/// The Messages API requires a limit; this is generous for a scene and within every model's.
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 4096;

#[derive(Debug, Serialize)]
pub(crate) struct WireRequest {
    model: String,
    max_tokens: u32,
    /// A string, or text blocks when a cache breakpoint marks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<Value>,
    messages: Vec<WireMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
    stream: bool,
}

#[derive(Debug, Serialize)]
struct WireMessage {
    role: &'static str,
    /// A string, or text blocks when a cache breakpoint splits it.
    content: Value,
}

/// A text block that ends a cached prefix.
fn cached_block(text: &str) -> Value {
    json!({"type": "text", "text": text, "cache_control": {"type": "ephemeral"}})
}

/// The streaming request body for `req`. Structured output goes in the prompt: the API has no
/// stable JSON mode. A request with a cache hint gets up to two `cache_control` breakpoints:
/// after the system prompt, and after the stable start of the first user message; the API
/// caches each prefix for a few minutes and reads it back at a tenth of the input price (a
/// prefix shorter than the model's minimum is simply not cached).
pub(crate) fn build_request(req: &ChatRequest, model: &str) -> WireRequest {
    let cached = req.cache.as_ref();
    let system = system_prompt(req, StructuredMode::PromptOnly).map(|text| match cached {
        Some(_) => Value::Array(vec![cached_block(&text)]),
        None => Value::String(text),
    });
    let stable = cached.map_or(0, |c| c.stable_prefix);
    let messages = req
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let content = &m.content;
            let split =
                i == 0 && stable > 0 && stable < content.len() && content.is_char_boundary(stable);
            WireMessage {
                role: match m.role {
                    Role::User => "user",
                    Role::Assistant => "assistant",
                },
                content: if split {
                    let (head, rest) = content.split_at(stable);
                    json!([cached_block(head), {"type": "text", "text": rest}])
                } else {
                    Value::String(content.clone())
                },
            }
        })
        .collect();
    WireRequest {
        model: model.to_string(),
        max_tokens: req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        system,
        messages,
        temperature: req.temperature,
        top_p: req.top_p,
        stream: true,
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireEvent {
    MessageStart {
        message: StartMessage,
    },
    ContentBlockStart,
    ContentBlockDelta {
        delta: BlockDelta,
    },
    ContentBlockStop,
    MessageDelta {
        delta: MessageDeltaBody,
        usage: Option<WireUsage>,
    },
    MessageStop,
    Ping,
    Error {
        error: Value,
    },
    #[serde(other)]
    Unknown,
}

#[derive(Debug, Deserialize)]
struct StartMessage {
    usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockDelta {
    TextDelta {
        text: String,
    },
    /// Thinking and tool-input deltas are not answer text.
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
struct MessageDeltaBody {
    stop_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct WireUsage {
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    input_tokens: Option<u32>,
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    output_tokens: Option<u32>,
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    cache_creation_input_tokens: Option<u32>,
    #[serde(default, deserialize_with = "reported::saturating_opt")]
    cache_read_input_tokens: Option<u32>,
}

/// Stop reasons in our terms.
fn finish_reason(word: &str) -> FinishReason {
    match word {
        "end_turn" | "stop_sequence" => FinishReason::Stop,
        "max_tokens" => FinishReason::Length,
        "refusal" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

/// Parses one stream's events; usage arrives in pieces (input at the start, output at the
/// end) so the parser keeps the running totals.
#[derive(Debug, Default)]
pub(crate) struct StreamParser {
    prompt_tokens: u32,
    completion_tokens: u32,
    cache_read: u32,
    cache_write: u32,
}

impl StreamParser {
    fn absorb(&mut self, usage: &WireUsage) -> StreamEvent {
        if let Some(input) = usage.input_tokens {
            // `input_tokens` leaves out the cached parts, which are billed at their own rates
            // but are still prompt tokens.
            self.cache_read = usage.cache_read_input_tokens.unwrap_or(0);
            self.cache_write = usage.cache_creation_input_tokens.unwrap_or(0);
            self.prompt_tokens = input
                .saturating_add(self.cache_write)
                .saturating_add(self.cache_read);
        }
        if let Some(output) = usage.output_tokens {
            self.completion_tokens = output;
        }
        StreamEvent::Usage(Usage {
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
            estimated: false,
            cached_tokens: self.cache_read,
            cache_write_tokens: self.cache_write,
            prefill_ms: None,
        })
    }

    /// Parses the `data` of one event (its `type` field names the event).
    pub(crate) fn parse(&mut self, data: &str) -> Result<SseStep, WireError> {
        let event: WireEvent = serde_json::from_str(data)
            .map_err(|err| WireError::Invalid(format!("unreadable event ({err}): {data}")))?;
        let events = match event {
            WireEvent::MessageStart { message } => {
                message.usage.iter().map(|u| self.absorb(u)).collect()
            }
            WireEvent::ContentBlockDelta {
                delta: BlockDelta::TextDelta { text },
            } if !text.is_empty() => vec![StreamEvent::TextDelta(text)],
            WireEvent::MessageDelta { delta, usage } => {
                let mut events: Vec<StreamEvent> = usage.iter().map(|u| self.absorb(u)).collect();
                events.extend(
                    delta
                        .stop_reason
                        .as_deref()
                        .map(|word| StreamEvent::Finish(finish_reason(word))),
                );
                events
            }
            WireEvent::MessageStop => return Ok(SseStep::Done),
            WireEvent::Error { error } => return Err(WireError::Remote(error.to_string())),
            WireEvent::ContentBlockDelta { .. }
            | WireEvent::ContentBlockStart
            | WireEvent::ContentBlockStop
            | WireEvent::Ping
            | WireEvent::Unknown => Vec::new(),
        };
        Ok(SseStep::Events(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{fixture_json, parse_sse_fixture};
    use crate::types::ChatMessage;
    use serde_json::json;

    #[test]
    fn builds_the_messages_request_with_schema_in_the_system_prompt() {
        let mut req = ChatRequest::new("Plan the next scene.")
            .with_system("You are the story planner.")
            .with_temperature(0.25)
            .with_json_schema("plan", json!({"type": "object", "required": ["rationale"]}));
        req.messages.push(ChatMessage::assistant("{}"));
        req.messages.push(ChatMessage::user("Fix it."));
        let body = serde_json::to_value(build_request(&req, "claude-sonnet-4-5")).unwrap();
        let expected = fixture_json("anthropic/request.json");
        assert_eq!(body["messages"], expected["messages"]);
        assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
        assert_eq!(body["stream"], true);
        assert_eq!(body["temperature"], 0.25);
        let system = body["system"].as_str().unwrap();
        assert!(
            system.starts_with("You are the story planner.") && system.contains("\"rationale\"")
        );
    }

    #[test]
    fn a_cache_hint_puts_breakpoints_after_the_system_and_the_stable_material() {
        let user = "## Story\nThe drowned city.\n# Scene 4\nWrite it.";
        let stable = user.find("# Scene").unwrap();
        let mut req = ChatRequest::new(user)
            .with_system("You are the storyteller.")
            .with_stable_prefix(stable)
            .with_cache_key("book-writer");
        req.messages.push(ChatMessage::assistant("Rain."));
        let body = serde_json::to_value(build_request(&req, "claude-sonnet-4-5")).unwrap();
        let ephemeral = json!({"type": "ephemeral"});
        assert_eq!(body["system"][0]["text"], "You are the storyteller.");
        assert_eq!(body["system"][0]["cache_control"], ephemeral);
        let first = &body["messages"][0]["content"];
        assert_eq!(first[0]["text"], "## Story\nThe drowned city.\n");
        assert_eq!(first[0]["cache_control"], ephemeral);
        assert_eq!(first[1]["text"], "# Scene 4\nWrite it.");
        assert!(first[1].get("cache_control").is_none());
        // Later turns stay plain strings; without a hint nothing changes at all.
        assert_eq!(body["messages"][1]["content"], "Rain.");
        let plain =
            serde_json::to_value(build_request(&ChatRequest::new(user).with_system("s"), "m"))
                .unwrap();
        assert_eq!(plain["system"], "s");
        assert_eq!(plain["messages"][0]["content"], user);
    }

    #[test]
    fn parses_a_streamed_message() {
        let mut parser = StreamParser::default();
        let mut events = Vec::new();
        let mut done = false;
        for (name, data) in parse_sse_fixture("anthropic/stream.sse") {
            assert_ne!(name, "message", "fixture events are named");
            match parser.parse(&data).unwrap() {
                SseStep::Events(more) => events.extend(more),
                SseStep::Done => done = true,
            }
        }
        assert!(done);
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::TextDelta(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, "Mara counted the bells until the ninth.");
        let usage = events.iter().rev().find_map(|e| match e {
            StreamEvent::Usage(u) => Some(*u),
            _ => None,
        });
        // 472 fresh + 100 cache-created + 28 cache-read prompt tokens, 15 output tokens.
        assert_eq!(
            usage,
            Some(Usage {
                prompt_tokens: 600,
                completion_tokens: 15,
                cached_tokens: 28,
                cache_write_tokens: 100,
                ..Usage::default()
            })
        );
        assert!(events.contains(&StreamEvent::Finish(FinishReason::Stop)));
    }

    #[test]
    fn error_events_and_stop_reasons() {
        let mut parser = StreamParser::default();
        let overloaded =
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert!(
            matches!(parser.parse(overloaded), Err(WireError::Remote(m)) if m.contains("Overloaded"))
        );
        let truncated = r#"{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":9}}"#;
        let SseStep::Events(events) = parser.parse(truncated).unwrap() else {
            panic!("expected events");
        };
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Finish(FinishReason::Length))
        );
        assert!(matches!(
            parser.parse("not json"),
            Err(WireError::Invalid(_))
        ));
        let future = r#"{"type":"some_new_event","x":1}"#;
        assert_eq!(parser.parse(future).unwrap(), SseStep::Events(vec![]));
    }

    #[test]
    fn absurd_usage_numbers_are_clamped_and_summed_without_overflow() {
        let mut parser = StreamParser::default();
        let start = r#"{"type":"message_start","message":{"usage":{"input_tokens":18446744073709551615,"cache_read_input_tokens":4e9}}}"#;
        let SseStep::Events(events) = parser.parse(start).unwrap() else {
            panic!("not events")
        };
        assert_eq!(
            events,
            [StreamEvent::Usage(Usage {
                prompt_tokens: u32::MAX,
                completion_tokens: 0,
                cached_tokens: 4_000_000_000,
                ..Usage::default()
            })]
        );
    }
}
