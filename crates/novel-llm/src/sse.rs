//! Turns a server-sent-events HTTP response into the normalised [`EventStream`]. SSE framing is
//! eventsource-stream's job; each provider supplies only a parser from one SSE event to our
//! events. This is also where a stream that stops early becomes [`LlmError::StreamCut`]: the
//! answer is complete only after a finish reason or an explicit end marker.

use std::collections::VecDeque;
use std::sync::Arc;

use eventsource_stream::{EventStreamError, Eventsource};
use futures::StreamExt;
use reqwest::Response;

use crate::context::CallContext;
use crate::error::LlmError;
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

struct State<S, P> {
    sse: S,
    parser: P,
    ctx: Arc<CallContext>,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    finished: bool,
    over: bool,
}

/// The normalised stream of `response`'s SSE body, parsed by `parser(event_name, data)`.
pub(crate) fn event_stream<P>(response: Response, ctx: Arc<CallContext>, parser: P) -> EventStream
where
    P: FnMut(&str, &str) -> Result<SseStep, WireError> + Send + 'static,
{
    let state = State {
        sse: response.bytes_stream().eventsource(),
        parser,
        ctx,
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
            match st.sse.next().await {
                Some(Ok(event)) => match (st.parser)(&event.event, &event.data) {
                    Ok(SseStep::Events(events)) => {
                        for event in events {
                            st.finished |= matches!(event, StreamEvent::Finish(_));
                            st.pending.push_back(Ok(event));
                        }
                    }
                    Ok(SseStep::Done) => {
                        st.over = true;
                        // An explicit end marker without a finish reason still means "done".
                        if !st.finished {
                            st.pending
                                .push_back(Ok(StreamEvent::Finish(FinishReason::Stop)));
                        }
                    }
                    Err(WireError::Invalid(detail)) => {
                        st.over = true;
                        st.pending.push_back(Err(st.ctx.invalid(detail)));
                    }
                    Err(WireError::Remote(detail)) => {
                        st.over = true;
                        let detail = format!("the server sent an error: {detail}");
                        st.pending.push_back(Err(st.ctx.stream_cut(detail)));
                    }
                },
                Some(Err(err)) => {
                    st.over = true;
                    let err = match err {
                        EventStreamError::Transport(err) if err.is_timeout() => st.ctx.timeout(),
                        EventStreamError::Transport(err) => {
                            st.ctx.stream_cut(st.ctx.transport_detail(&err))
                        }
                        other => st.ctx.invalid(format!("malformed event stream: {other}")),
                    };
                    st.pending.push_back(Err(err));
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
