//! Turns a server-sent-events HTTP response into the normalised [`EventStream`]. SSE framing is
//! eventsource-stream's job; each provider supplies only a parser from one SSE event to our
//! events. This is also where a stream that stops early becomes [`LlmError::StreamCut`]: the
//! answer is complete only after a finish reason or an explicit end marker. And where a stream
//! is bounded (see [`crate::limits`]): no event larger than 1 MiB, no more answer text than the
//! request allows, no longer than its overall time — keep-alive comments reset the read
//! timeout but not that.

use std::collections::VecDeque;
use std::sync::Arc;

use bytes::Bytes;
use eventsource_stream::{EventStreamError, Eventsource};
use futures::stream::BoxStream;
use futures::{Stream, StreamExt};
use reqwest::Response;

use crate::context::CallContext;
use crate::error::LlmError;
use crate::limits::{Limits, MAX_SSE_EVENT_BYTES};
use crate::model::EventStream;
use crate::types::{FinishReason, StreamEvent};

/// What one SSE event meant.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SseStep {
    /// Zero or more normalised events.
    Events(Vec<StreamEvent>),
    /// The explicit end of the stream (`[DONE]`, `message_stop`).
    Done,
}

/// Why an SSE event could not be used.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WireError {
    /// Not the shape we expected.
    Invalid(String),
    /// The server sent an error event instead of more answer.
    Remote(String),
}

/// Why the bytes of a stream stopped coming.
#[derive(Debug)]
pub(crate) enum ByteFault {
    /// The connection failed or timed out.
    Transport(reqwest::Error),
    /// One event grew past [`MAX_SSE_EVENT_BYTES`] without ending.
    EventTooLarge,
}

impl std::fmt::Display for ByteFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ByteFault::Transport(err) => write!(f, "{err}"),
            ByteFault::EventTooLarge => write!(
                f,
                "one server-sent event passed {MAX_SSE_EVENT_BYTES} bytes without ending"
            ),
        }
    }
}

/// Counts the bytes of the event being received, across chunk boundaries: an event ends at
/// a blank line (`\n\n`, `\r\r` or `\r\n\r\n`).
#[derive(Debug, Default)]
pub(crate) struct EventSizeGuard {
    event: usize,
    line: usize,
    after_cr: bool,
}

impl EventSizeGuard {
    /// Takes the next chunk; `false` once the current event is larger than `limit`.
    pub(crate) fn admit(&mut self, chunk: &[u8], limit: usize) -> bool {
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    if self.line == 0 {
                        self.event = 0;
                    }
                    self.line = 0;
                }
                _ => {
                    self.after_cr = false;
                    self.line += 1;
                    self.event += 1;
                }
            }
        }
        self.event <= limit
    }
}

/// `bytes` with every event bounded to `limit` bytes; an oversized event ends the stream with
/// [`ByteFault::EventTooLarge`].
pub(crate) fn bounded_events<S>(
    bytes: S,
    limit: usize,
) -> BoxStream<'static, Result<Bytes, ByteFault>>
where
    S: Stream<Item = Result<Bytes, ByteFault>> + Send + 'static,
{
    let mut guard = EventSizeGuard::default();
    let mut failed = false;
    bytes
        .map(move |item| match item {
            Ok(chunk) if guard.admit(&chunk, limit) => Ok(chunk),
            Ok(_) => Err(ByteFault::EventTooLarge),
            Err(err) => Err(err),
        })
        .take_while(move |item| {
            // Stop right after the first fault: nothing after it is worth reading.
            let go_on = !failed;
            failed |= item.is_err();
            std::future::ready(go_on)
        })
        .boxed()
}

struct State<P> {
    sse: BoxStream<'static, Result<eventsource_stream::Event, EventStreamError<ByteFault>>>,
    parser: P,
    ctx: Arc<CallContext>,
    limits: Limits,
    deadline: tokio::time::Instant,
    text_bytes: usize,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    finished: bool,
    over: bool,
}

/// The normalised stream of `response`'s SSE body, parsed by `parser(event_name, data)`.
pub(crate) fn event_stream<P>(
    response: Response,
    ctx: Arc<CallContext>,
    limits: Limits,
    parser: P,
) -> EventStream
where
    P: FnMut(&str, &str) -> Result<SseStep, WireError> + Send + 'static,
{
    let bytes = response
        .bytes_stream()
        .map(|item| item.map_err(ByteFault::Transport));
    events_from_bytes(bytes, ctx, limits, parser)
}

/// [`event_stream`] over any byte stream (the HTTP body, or chunks in tests).
pub(crate) fn events_from_bytes<S, P>(
    bytes: S,
    ctx: Arc<CallContext>,
    limits: Limits,
    parser: P,
) -> EventStream
where
    S: Stream<Item = Result<Bytes, ByteFault>> + Send + 'static,
    P: FnMut(&str, &str) -> Result<SseStep, WireError> + Send + 'static,
{
    let state = State {
        sse: bounded_events(bytes, MAX_SSE_EVENT_BYTES)
            .eventsource()
            .boxed(),
        parser,
        ctx,
        limits,
        deadline: tokio::time::Instant::now() + limits.stream_time,
        text_bytes: 0,
        pending: VecDeque::new(),
        finished: false,
        over: false,
    };
    futures::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(item) = st.pending.pop_front() {
                return Some((item, st));
            }
            if st.over {
                return None;
            }
            let next = match tokio::time::timeout_at(st.deadline, st.sse.next()).await {
                Ok(next) => next,
                Err(_) => {
                    st.fail(st.ctx.stream_cut(st.limits.too_slow()));
                    continue;
                }
            };
            match next {
                Some(Ok(event)) => st.take(&event.event, &event.data),
                Some(Err(err)) => {
                    let err = match err {
                        EventStreamError::Transport(ByteFault::Transport(err))
                            if err.is_timeout() =>
                        {
                            st.ctx.timeout()
                        }
                        EventStreamError::Transport(ByteFault::Transport(err)) => {
                            st.ctx.stream_cut(st.ctx.transport_detail(&err))
                        }
                        EventStreamError::Transport(fault @ ByteFault::EventTooLarge) => {
                            st.ctx.invalid(fault.to_string())
                        }
                        other => st.ctx.invalid(format!("malformed event stream: {other}")),
                    };
                    st.fail(err);
                }
                None => {
                    st.over = true;
                    if !st.finished {
                        st.pending.push_back(Err(st.ctx.stream_cut(
                            "the connection closed before the model finished its answer",
                        )));
                    }
                }
            }
        }
    })
    .boxed()
}

impl<P> State<P>
where
    P: FnMut(&str, &str) -> Result<SseStep, WireError>,
{
    fn fail(&mut self, err: LlmError) {
        self.over = true;
        self.pending.push_back(Err(err));
    }

    /// Parses one event into pending items.
    fn take(&mut self, name: &str, data: &str) {
        match (self.parser)(name, data) {
            Ok(SseStep::Events(events)) => {
                for event in events {
                    if let StreamEvent::TextDelta(text) = &event {
                        self.text_bytes = self.text_bytes.saturating_add(text.len());
                        if self.text_bytes > self.limits.answer_bytes {
                            let err = self.ctx.invalid(self.limits.answer_too_long());
                            self.fail(err);
                            return;
                        }
                    }
                    self.finished |= matches!(event, StreamEvent::Finish(_));
                    self.pending.push_back(Ok(event));
                }
            }
            Ok(SseStep::Done) => {
                self.over = true;
                // An explicit end marker without a finish reason still means "done".
                if !self.finished {
                    self.pending
                        .push_back(Ok(StreamEvent::Finish(FinishReason::Stop)));
                }
            }
            Err(WireError::Invalid(detail)) => {
                let err = self.ctx.invalid(detail);
                self.fail(err);
            }
            Err(WireError::Remote(detail)) => {
                let detail = format!("the server sent an error: {detail}");
                let err = self.ctx.stream_cut(detail);
                self.fail(err);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_measures_events_across_chunks_and_line_endings() {
        let mut guard = EventSizeGuard::default();
        assert!(guard.admit(b"data: 12345", 10 + 1));
        assert!(!guard.admit(b"6", 11), "12 bytes in one event");
        let mut guard = EventSizeGuard::default();
        for ending in [&b"\n\n"[..], b"\r\r", b"\r\n\r\n"] {
            assert!(guard.admit(b"data: 1234", 10));
            assert!(guard.admit(ending, 10));
            assert!(guard.admit(b"data: 1234", 10), "a new event starts at zero");
            assert!(guard.admit(ending, 10));
        }
        // A single line break does not end the event.
        let mut guard = EventSizeGuard::default();
        assert!(guard.admit(b"data: 1234\r\ndata: 5", 17));
        assert!(!guard.admit(b"6789", 17));
    }
}
