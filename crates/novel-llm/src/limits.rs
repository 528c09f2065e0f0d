//! How much a server may send and for how long. Everything a server sends is untrusted input:
//! a model stuck in a loop, a proxy that streams keep-alives forever or a broken server must
//! end in a clear [`crate::LlmError`], never in unbounded memory or a call that never returns.
//!
//! The bounds, all derived from the request's `max_tokens` and the profile's `timeout_secs`:
//!
//! | what | bound |
//! |---|---|
//! | answer text, streamed or not | 16 bytes per token of `max_tokens` (about four times what the budget allows), at least 64 KiB, at most 4 MiB; 4 MiB without `max_tokens` |
//! | a non-streamed response body | four times the answer bound plus 64 KiB (JSON escaping can quadruple text) |
//! | an error response body | the first 64 KiB (only a sentence of it is ever shown) |
//! | one server-sent event (and so one line) | 1 MiB |
//! | a whole streamed answer | twice `timeout_secs` plus one second per token of `max_tokens` (8192 without it) |
//!
//! `timeout_secs` itself bounds silence: the wait for the answer to start and every gap in a
//! stream; the overall stream time is what keeps keep-alive comments or a trickle of text from
//! holding a call open forever.

use std::time::Duration;

/// Answer text is never longer than this, whatever `max_tokens` says.
pub(crate) const MAX_ANSWER_BYTES: usize = 4 << 20;

/// A small `max_tokens` (a probe asks for 20) still leaves room for a chatty answer.
const MIN_ANSWER_BYTES: usize = 64 << 10;

/// About four bytes of English per token, times four for slack.
const ANSWER_BYTES_PER_TOKEN: usize = 16;

/// Room for the JSON around the answer in a non-streamed body.
const BODY_OVERHEAD_BYTES: usize = 64 << 10;

/// Only this much of an error body is read.
pub(crate) const MAX_ERROR_BODY_BYTES: usize = 64 << 10;

/// No server-sent event (OpenAI sends one per token) needs more than this.
pub(crate) const MAX_SSE_EVENT_BYTES: usize = 1 << 20;

/// A stream may take this long per token of its budget: slower than any real model.
const STREAM_SECS_PER_TOKEN: u64 = 1;

/// The token budget assumed for the stream time when the request sets no `max_tokens`.
const DEFAULT_TOKEN_BUDGET: u32 = 8192;

/// The bounds for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// The longest answer text, in bytes.
    pub answer_bytes: usize,
    /// The largest non-streamed response body, in bytes.
    pub body_bytes: usize,
    /// The longest a whole streamed answer may take once it has started.
    pub stream_time: Duration,
    /// The request's `max_tokens`, to explain the bounds.
    pub max_tokens: Option<u32>,
}

impl Limits {
    /// The bounds for a request with `max_tokens`, sent with the profile's `timeout`.
    pub(crate) fn new(max_tokens: Option<u32>, timeout: Duration) -> Limits {
        let answer_bytes = max_tokens.map_or(MAX_ANSWER_BYTES, |tokens| {
            usize::try_from(tokens)
                .unwrap_or(usize::MAX)
                .saturating_mul(ANSWER_BYTES_PER_TOKEN)
                .clamp(MIN_ANSWER_BYTES, MAX_ANSWER_BYTES)
        });
        let budget = u64::from(max_tokens.unwrap_or(DEFAULT_TOKEN_BUDGET));
        let stream_time = timeout
            .saturating_mul(2)
            .saturating_add(Duration::from_secs(
                budget.saturating_mul(STREAM_SECS_PER_TOKEN),
            ));
        Limits {
            answer_bytes,
            body_bytes: answer_bytes
                .saturating_mul(4)
                .saturating_add(BODY_OVERHEAD_BYTES),
            stream_time,
            max_tokens,
        }
    }

    /// The error for answer text past [`Limits::answer_bytes`], for `InvalidResponse`.
    pub(crate) fn answer_too_long(&self) -> String {
        let budget = match self.max_tokens {
            Some(tokens) => format!("far more than `max_tokens` = {tokens} allows"),
            None => "the most any answer may have".to_string(),
        };
        format!(
            "the answer passed {} bytes, {budget}; the model is probably repeating itself \
             (check the server's stop settings or use another model)",
            self.answer_bytes
        )
    }

    /// The error for a stream past [`Limits::stream_time`], for `StreamCut`.
    pub(crate) fn too_slow(&self) -> String {
        format!(
            "the answer was still streaming after {} s, the most one answer may take (twice \
             `timeout_secs` plus a second per token of `max_tokens`); the server keeps the \
             connection alive without finishing",
            self.stream_time.as_secs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_bound_follows_max_tokens_within_a_floor_and_a_ceiling() {
        let timeout = Duration::from_secs(300);
        assert_eq!(Limits::new(Some(20), timeout).answer_bytes, 64 << 10);
        assert_eq!(Limits::new(Some(8000), timeout).answer_bytes, 128_000);
        assert_eq!(
            Limits::new(Some(u32::MAX), timeout).answer_bytes,
            MAX_ANSWER_BYTES
        );
        assert_eq!(Limits::new(None, timeout).answer_bytes, MAX_ANSWER_BYTES);
        let limits = Limits::new(Some(8000), timeout);
        assert_eq!(limits.body_bytes, 4 * 128_000 + (64 << 10));
    }

    #[test]
    fn stream_time_is_twice_the_silence_plus_a_second_per_token() {
        let limits = Limits::new(Some(1), Duration::from_secs(1));
        assert_eq!(limits.stream_time, Duration::from_secs(3));
        let default = Limits::new(None, Duration::from_secs(300));
        assert_eq!(default.stream_time, Duration::from_secs(600 + 8192));
        let absurd = Limits::new(Some(u32::MAX), Duration::MAX);
        assert_eq!(absurd.stream_time, Duration::MAX);
    }
}
