//! The one trait every provider implements, and the helpers that turn a stream of events into
//! a [`Completion`]: usage is filled by counting tokens when the server reported none, and a
//! stream that ends without a finish reason is an error, never a silently short text.

use std::time::Instant;

use futures::StreamExt;
use futures::future::BoxFuture;
use futures::future::FutureExt;
use futures::stream::BoxStream;

use crate::error::LlmError;
use crate::tokens;
use crate::types::{ChatRequest, Completion, FinishReason, ModelInfo, StreamEvent, Usage};

/// A stream of normalised answer events.
pub type EventStream = BoxStream<'static, Result<StreamEvent, LlmError>>;

/// A chat model. Object safe: the engine holds an `Arc<dyn LanguageModel>`.
pub trait LanguageModel: Send + Sync {
    /// Sends `req` and waits for the whole answer.
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>>;

    /// Sends `req` and returns the answer as it arrives. Errors before the first byte (HTTP
    /// status, connection) come from the future; errors during the answer come in the stream.
    /// The stream may carry no [`StreamEvent::Usage`]; [`collect_stream`] then counts tokens.
    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>>;

    /// Which provider and model this is.
    fn describe(&self) -> ModelInfo;

    /// What its calls cost, when it is metered against a budget with prices (see
    /// [`crate::metered`]); `None` is free or unknown.
    fn prices(&self) -> Option<crate::prices::Prices> {
        None
    }

    /// How many of this model's own tokens one estimated token is (the o200k count that
    /// prompt budgets are measured with), from the model's tokenizer where the profile has one
    /// (see [`crate::token_counter`]); 1.0 when it has none. Asked once per tokenizer per
    /// process, so callers may ask before every prompt.
    fn tokens_per_estimate(&self) -> BoxFuture<'_, f64> {
        futures::future::ready(1.0).boxed()
    }
}

/// Streams `req` through `model`, calling `on_delta` with each piece of text, and returns the
/// completed answer with latency measured from before the request was sent.
pub async fn stream_completion(
    model: &dyn LanguageModel,
    req: &ChatRequest,
    on_delta: impl FnMut(&str),
) -> Result<Completion, LlmError> {
    let started = Instant::now();
    let stream = model.stream(req).await?;
    let mut completion = collect_stream(stream, req, &model.describe().model, on_delta).await?;
    completion.latency_ms = elapsed_ms(started);
    Ok(completion)
}

/// Drains `stream` into a [`Completion`] for `req` answered by `model_name`. Usage is the last
/// one the stream reported, else counted with the tokenizer; latency counts from this call.
/// Fails with [`LlmError::StreamCut`] when the stream ends without a finish reason.
pub async fn collect_stream(
    mut stream: EventStream,
    req: &ChatRequest,
    model_name: &str,
    mut on_delta: impl FnMut(&str),
) -> Result<Completion, LlmError> {
    let started = Instant::now();
    let mut text = String::new();
    let mut usage: Option<Usage> = None;
    let mut finish: Option<FinishReason> = None;
    while let Some(event) = stream.next().await {
        match event? {
            StreamEvent::TextDelta(delta) => {
                on_delta(&delta);
                text.push_str(&delta);
            }
            StreamEvent::Usage(reported) => usage = Some(reported),
            StreamEvent::Finish(reason) => finish = Some(reason),
        }
    }
    let Some(finish_reason) = finish else {
        return Err(LlmError::StreamCut {
            provider: model_name.to_string(),
            detail: format!(
                "the stream ended without a finish reason after {} characters",
                text.chars().count()
            ),
        });
    };
    Ok(Completion {
        usage: usage.unwrap_or_else(|| tokens::estimate_usage(req, &text)),
        text,
        finish_reason,
        model: model_name.to_string(),
        latency_ms: elapsed_ms(started),
    })
}

pub(crate) fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(items: Vec<Result<StreamEvent, LlmError>>) -> EventStream {
        futures::stream::iter(items).boxed()
    }

    #[tokio::test]
    async fn collects_deltas_usage_and_finish() {
        let usage = Usage {
            prompt_tokens: 11,
            completion_tokens: 2,
            estimated: false,
            ..Usage::default()
        };
        let stream = events(vec![
            Ok(StreamEvent::TextDelta("Hel".into())),
            Ok(StreamEvent::TextDelta("lo".into())),
            Ok(StreamEvent::Finish(FinishReason::Length)),
            Ok(StreamEvent::Usage(usage)),
        ]);
        let mut seen = Vec::new();
        let done = collect_stream(stream, &ChatRequest::new("hi"), "m", |d| {
            seen.push(d.to_string())
        })
        .await
        .unwrap();
        assert_eq!(seen, ["Hel", "lo"]);
        assert_eq!(done.text, "Hello");
        assert_eq!(done.usage, usage);
        assert_eq!(done.finish_reason, FinishReason::Length);
        assert_eq!(done.model, "m");
    }

    #[tokio::test]
    async fn missing_usage_is_counted_with_the_tokenizer() {
        let stream = events(vec![
            Ok(StreamEvent::TextDelta(
                "The rain kept falling on the quiet harbour.".into(),
            )),
            Ok(StreamEvent::Finish(FinishReason::Stop)),
        ]);
        let req =
            ChatRequest::new("Describe the harbour in one sentence.").with_system("Be brief.");
        let done = collect_stream(stream, &req, "m", |_| {}).await.unwrap();
        assert!(done.usage.estimated);
        assert_eq!(
            done.usage.completion_tokens,
            tokens::count_tokens(&done.text)
        );
        assert_eq!(
            done.usage.prompt_tokens,
            tokens::estimate_prompt_tokens(&req)
        );
    }

    #[tokio::test]
    async fn a_stream_without_finish_is_cut_not_short() {
        let stream = events(vec![Ok(StreamEvent::TextDelta("Half a sent".into()))]);
        let err = collect_stream(stream, &ChatRequest::new("x"), "m", |_| {})
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::StreamCut { .. }), "{err}");
        assert!(err.to_string().contains("11 characters"), "{err}");
    }

    #[tokio::test]
    async fn an_error_event_aborts_collection() {
        let stream = events(vec![
            Ok(StreamEvent::TextDelta("a".into())),
            Err(LlmError::Config("boom".into())),
            Ok(StreamEvent::Finish(FinishReason::Stop)),
        ]);
        let err = collect_stream(stream, &ChatRequest::new("x"), "m", |_| {})
            .await
            .unwrap_err();
        assert_eq!(err, LlmError::Config("boom".into()));
    }
}
