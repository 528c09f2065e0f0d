//! Response bodies sent piece by piece: SSE streams of chunks, pauses between pieces,
//! deliberate connection drops for cut streams, and the misbehaving bodies generated on the fly
//! (huge answers, keep-alives and trickles that never end).

use std::time::Duration;

use axum::body::Body;

use futures::StreamExt;
use serde_json::Value;

use crate::reply::{CutStreamReply, EndlessReply, HugeReply};
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
/// `timings` go on the last chunk before `[DONE]`, where llama-server puts them: the usage
/// chunk when there is one, else the finish chunk.
pub fn text_steps(
    meta: &Meta,
    content: &str,
    usage: Option<Value>,
    timings: Option<Value>,
    chunk_delay: Duration,
) -> Vec<Step> {
    let mut steps = Vec::new();
    push_pieces(&mut steps, meta, content, chunk_delay);
    let mut finish = wire::finish_chunk(meta);
    let mut usage_chunk = usage.map(|usage| wire::usage_chunk(meta, usage));
    wire::attach(
        usage_chunk.as_mut().unwrap_or(&mut finish),
        "timings",
        timings,
    );
    for chunk in std::iter::once(finish).chain(usage_chunk) {
        steps.push(Step::Data(wire::sse_event(&chunk)));
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

/// The prose a huge answer repeats (ASCII, so characters are bytes and need no escaping).
const FILLER: &str = "All work and no play makes Jack a dull boy. ";

/// How much of a huge plain body goes out per write.
const PLAIN_PIECE: u64 = 64 * 1024;

/// `chars` characters of filler.
fn filler(chars: u64) -> String {
    let chars = usize::try_from(chars).unwrap_or(usize::MAX);
    FILLER.chars().cycle().take(chars).collect()
}

type Pieces = futures::stream::BoxStream<'static, String>;

fn into_body(pieces: Pieces) -> Body {
    Body::from_stream(pieces.map(Ok::<_, std::io::Error>))
}

/// `total` characters cut into pieces of `piece` characters, generated as they are sent.
fn filler_pieces(total: u64, piece: u64, wrap: impl Fn(&str) -> String + Send + 'static) -> Pieces {
    let piece = piece.max(1);
    let block = filler(piece.min(total));
    futures::stream::unfold(0u64, move |sent| {
        let left = total - sent;
        let this = left.min(piece);
        let out = (this > 0).then(|| {
            let text = &block[..usize::try_from(this).unwrap_or(block.len())];
            (wrap(text), sent + this)
        });
        std::future::ready(out)
    })
    .boxed()
}

/// A huge answer: an SSE stream of `huge.chunk_chars`-character chunks, or one plain body.
pub fn huge_body(meta: &Meta, huge: HugeReply, streaming: bool) -> Body {
    if streaming {
        let head = wire::sse_event(&wire::role_chunk(meta));
        let tail = format!(
            "{}{}",
            wire::sse_event(&wire::finish_chunk(meta)),
            wire::SSE_DONE
        );
        let chunk_meta = meta.clone();
        let chunks = filler_pieces(huge.chars, huge.chunk_chars, move |text| {
            wire::sse_event(&wire::content_chunk(&chunk_meta, text))
        });
        into_body(
            futures::stream::once(std::future::ready(head))
                .chain(chunks)
                .chain(futures::stream::once(std::future::ready(tail)))
                .boxed(),
        )
    } else {
        let (before, after) = wire::completion_around_content(meta);
        let content = filler_pieces(huge.chars, PLAIN_PIECE, str::to_string);
        into_body(
            futures::stream::once(std::future::ready(before))
                .chain(content)
                .chain(futures::stream::once(std::future::ready(after)))
                .boxed(),
        )
    }
}

/// A body that never ends. Streamed: the role chunk and `content`, then every interval a
/// keep-alive comment, or with `trickle` the content again. Plain: a body that never gets
/// going (single spaces), or with `trickle` a completion whose content string never closes.
pub fn endless_body(meta: &Meta, reply: &EndlessReply, streaming: bool, trickle: bool) -> Body {
    let interval = Duration::from_millis(reply.interval_ms.max(1));
    let (first, again) = match (streaming, trickle) {
        (true, _) => {
            let mut first = wire::sse_event(&wire::role_chunk(meta));
            if !reply.content.is_empty() {
                first.push_str(&wire::sse_event(&wire::content_chunk(meta, &reply.content)));
            }
            let again = if trickle {
                wire::sse_event(&wire::content_chunk(meta, &reply.content))
            } else {
                wire::SSE_KEEP_ALIVE.to_string()
            };
            (first, again)
        }
        (false, true) => {
            let (before, _) = wire::completion_around_content(meta);
            (format!("{before}{}", reply.content), reply.content.clone())
        }
        (false, false) => (" ".to_string(), " ".to_string()),
    };
    let forever = futures::stream::unfold((), move |()| {
        let again = again.clone();
        async move {
            tokio::time::sleep(interval).await;
            Some((again, ()))
        }
    });
    into_body(
        futures::stream::once(std::future::ready(first))
            .chain(forever)
            .boxed(),
    )
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
        let spec = crate::reply::UsageSpec {
            prompt_tokens: 1,
            completion_tokens: 2,
        };
        let with = text_steps(
            &meta(),
            "hello there",
            Some(wire::usage(spec)),
            None,
            Duration::ZERO,
        );
        assert!(data(&with).ends_with(wire::SSE_DONE));
        assert!(data(&with).contains("\"total_tokens\":3"));
        let without = text_steps(&meta(), "hello", None, None, Duration::from_millis(5));
        assert!(!data(&without).contains("usage"));
        assert!(!data(&without).contains("timings"));
        assert!(without.contains(&Step::Pause(Duration::from_millis(5))));
    }

    /// The JSON chunks of a stream, `[DONE]` left out.
    fn chunks(steps: &[Step]) -> Vec<Value> {
        data(steps)
            .split("\n\n")
            .filter_map(|event| event.strip_prefix("data: "))
            .filter(|event| *event != "[DONE]")
            .map(|event| serde_json::from_str(event).unwrap())
            .collect()
    }

    #[test]
    fn timings_ride_on_the_last_chunk() {
        let timings = serde_json::json!({"cache_n": 3});
        let usage = wire::usage(crate::reply::UsageSpec {
            prompt_tokens: 4,
            completion_tokens: 1,
        });
        let with_usage = chunks(&text_steps(
            &meta(),
            "hi",
            Some(usage),
            Some(timings.clone()),
            Duration::ZERO,
        ));
        let (last, before) = with_usage.split_last().unwrap();
        assert_eq!(last["timings"], timings);
        assert!(last["usage"].is_object());
        assert!(before.iter().all(|chunk| chunk.get("timings").is_none()));
        let alone = chunks(&text_steps(
            &meta(),
            "hi",
            None,
            Some(timings.clone()),
            Duration::ZERO,
        ));
        let last = alone.last().unwrap();
        assert_eq!(last["choices"][0]["finish_reason"], "stop");
        assert_eq!(last["timings"], timings);
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

    #[test]
    fn filler_has_exactly_the_asked_length() {
        assert_eq!(filler(0), "");
        assert_eq!(filler(3), "All");
        assert_eq!(filler(100).len(), 100);
    }
}
