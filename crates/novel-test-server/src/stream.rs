//! Response bodies sent piece by piece: SSE streams of chunks, pauses between pieces, and
//! deliberate connection drops for cut streams.

use std::time::Duration;

use axum::body::Body;

use crate::reply::{CutStreamReply, UsageSpec};
use crate::wire::{self, Meta};

/// Roughly how many characters go into one streamed content chunk.
const PIECE_CHARS: usize = 20;

/// One step of a piecewise body.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Bytes to send.
    Data(String),
    /// Wait before the next step.
    Pause(Duration),
    /// Drop the connection without finishing the body.
    Abort,
}

/// Splits `content` at whitespace into pieces of about `target` characters; the pieces
/// concatenate back to `content` exactly.
pub fn split_pieces(content: &str, target: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut chars = 0;
    for (offset, ch) in content.char_indices() {
        chars += 1;
        let end = offset + ch.len_utf8();
        if chars >= target && ch.is_whitespace() {
            pieces.push(&content[start..end]);
            start = end;
            chars = 0;
        }
    }
    if start < content.len() {
        pieces.push(&content[start..]);
    }
    pieces
}

fn push_pieces(steps: &mut Vec<Step>, meta: &Meta, content: &str, pause: Duration) {
    steps.push(Step::Data(wire::sse_event(&wire::role_chunk(meta))));
    for piece in split_pieces(content, PIECE_CHARS) {
        if !pause.is_zero() {
            steps.push(Step::Pause(pause));
        }
        steps.push(Step::Data(wire::sse_event(&wire::content_chunk(
            meta, piece,
        ))));
    }
}

/// A complete stream: role, content pieces, finish chunk, optional usage chunk, `[DONE]`.
pub fn text_steps(
    meta: &Meta,
    content: &str,
    usage: Option<UsageSpec>,
    chunk_delay: Duration,
) -> Vec<Step> {
    let mut steps = Vec::new();
    push_pieces(&mut steps, meta, content, chunk_delay);
    steps.push(Step::Data(wire::sse_event(&wire::finish_chunk(meta))));
    if let Some(spec) = usage {
        steps.push(Step::Data(wire::sse_event(&wire::usage_chunk(meta, spec))));
    }
    steps.push(Step::Data(wire::SSE_DONE.to_string()));
    steps
}

/// Lets hyper flush what was written before the drop, so the client really receives the
/// partial stream instead of losing it along with the connection.
fn flush_then_abort(steps: &mut Vec<Step>) {
    steps.push(Step::Pause(Duration::from_millis(20)));
    steps.push(Step::Abort);
}

/// A stream that stops after `cut.after_chars` characters, with no finish chunk or `[DONE]`.
pub fn cut_steps(meta: &Meta, cut: &CutStreamReply) -> Vec<Step> {
    let sent: String = cut.content.chars().take(cut.after_chars).collect();
    let mut steps = Vec::new();
    push_pieces(
        &mut steps,
        meta,
        &sent,
        Duration::from_millis(cut.chunk_delay_ms),
    );
    flush_then_abort(&mut steps);
    steps
}

/// A non-streaming completion whose JSON body breaks off half-way.
pub fn truncated_completion_steps(meta: &Meta, content: &str) -> Vec<Step> {
    let full = wire::completion(meta, content, None).to_string();
    let half: String = full.chars().take(full.chars().count() / 2).collect();
    let mut steps = vec![Step::Data(half)];
    flush_then_abort(&mut steps);
    steps
}

/// Turns steps into a streaming body; an `Abort` step errors the body, which makes hyper
/// close the connection without the terminating chunk.
pub fn body(steps: Vec<Step>) -> Body {
    let stream = futures::stream::unfold(steps.into_iter(), |mut steps| async move {
        loop {
            match steps.next()? {
                Step::Data(data) => return Some((Ok(data), steps)),
                Step::Pause(duration) => tokio::time::sleep(duration).await,
                Step::Abort => {
                    let cut = std::io::Error::other("test server: scripted connection cut");
                    return Some((Err(cut), steps));
                }
            }
        }
    });
    Body::from_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Meta {
        Meta {
            id: "id".into(),
            created: 0,
            model: "m".into(),
        }
    }

    fn data(steps: &[Step]) -> String {
        steps
            .iter()
            .filter_map(|step| match step {
                Step::Data(data) => Some(data.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn pieces_rejoin_and_split_long_text() {
        let text = "The rain had not stopped for three days, and the harbour smelled of tar. ünï";
        let pieces = split_pieces(text, 20);
        assert!(pieces.len() >= 3, "{pieces:?}");
        assert_eq!(pieces.concat(), text);
        assert!(split_pieces("", 20).is_empty());
        assert_eq!(split_pieces("oneverylongwordwithoutspaces", 5).len(), 1);
    }

    #[test]
    fn text_stream_ends_with_done_and_optional_usage() {
        let spec = UsageSpec {
            prompt_tokens: 1,
            completion_tokens: 2,
        };
        let with = text_steps(&meta(), "hello there", Some(spec), Duration::ZERO);
        assert!(data(&with).ends_with(wire::SSE_DONE));
        assert!(data(&with).contains("\"total_tokens\":3"));
        let without = text_steps(&meta(), "hello", None, Duration::from_millis(5));
        assert!(!data(&without).contains("usage"));
        assert!(without.contains(&Step::Pause(Duration::from_millis(5))));
    }

    #[test]
    fn cut_stream_sends_only_the_prefix_and_aborts() {
        let cut = CutStreamReply {
            content: "abcdefghij".into(),
            after_chars: 4,
            chunk_delay_ms: 0,
        };
        let steps = cut_steps(&meta(), &cut);
        let sent = data(&steps);
        assert!(sent.contains("\"content\":\"abcd\""));
        assert!(!sent.contains("abcde"));
        assert!(!sent.contains("[DONE]") && !sent.contains("\"stop\""));
        assert_eq!(steps.last(), Some(&Step::Abort));
    }
}
