//! Entry points for the fuzz targets in `fuzz/` and the property tests: the crate's readers of
//! server output, reachable without making their wire types public. Compiled only for tests
//! and with the `fuzzing` feature; not part of the API.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use crate::context::CallContext;
use crate::limits::Limits;
use crate::model::collect_stream;
use crate::profile::provider::{ProviderKind, ProviderProfile};
use crate::providers::{anthropic, gemini, openai};
use crate::sse::{SseStep, events_from_bytes};
use crate::types::{ChatRequest, StreamEvent};

/// Parses one OpenAI stream chunk; whether it was readable.
pub fn openai_chunk(data: &str) -> bool {
    openai::wire::parse_chunk(data).is_ok()
}

/// Parses one OpenAI non-streamed response body; its text when readable.
pub fn openai_response(body: &str) -> Option<String> {
    openai::wire::parse_response(body)
        .ok()
        .map(|parsed| parsed.text)
}

/// Parses a sequence of Anthropic stream events; the text until the first unreadable one.
pub fn anthropic_events(events: &[&str]) -> String {
    let mut parser = anthropic::wire::StreamParser::default();
    let mut text = String::new();
    for event in events {
        match parser.parse(event) {
            Ok(SseStep::Events(events)) => {
                text.extend(events.into_iter().filter_map(|e| match e {
                    StreamEvent::TextDelta(delta) => Some(delta),
                    _ => None,
                }))
            }
            Ok(SseStep::Done) | Err(_) => break,
        }
    }
    text
}

/// Parses one Gemini stream chunk; whether it was readable.
pub fn gemini_chunk(data: &str) -> bool {
    gemini::wire::parse_chunk(data).is_ok()
}

/// Reads `chunks` (the body of an HTTP response, split anywhere) as an OpenAI event stream
/// with the limits of a request without `max_tokens`: the answer's text, or the error's
/// message.
pub fn openai_stream_text(chunks: Vec<Vec<u8>>) -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|err| err.to_string())?;
    let profile = ProviderProfile::new("fuzz", ProviderKind::OpenAiCompatible, "m");
    let ctx = Arc::new(CallContext::new(&profile, None));
    let limits = Limits::new(None, Duration::from_secs(300));
    let bytes = futures::stream::iter(chunks.into_iter().map(|chunk| Ok(Bytes::from(chunk))));
    let events = events_from_bytes(bytes, ctx, limits, |_, data| {
        openai::wire::parse_chunk(data)
    });
    runtime
        .block_on(collect_stream(events, &ChatRequest::default(), "m", |_| {}))
        .map(|done| done.text)
        .map_err(|err| err.to_string())
}
