//! [`ScriptedModel`]: a fake [`LanguageModel`] for tests of code that calls models. It answers
//! from a queue of scripted outcomes in order, records every request, and streams answers in
//! several deltas like a real server.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt};

use crate::error::LlmError;
use crate::model::{EventStream, LanguageModel};
use crate::providers::command::render_prompt;
use crate::tokens;
use crate::types::{ChatRequest, Completion, FinishReason, ModelInfo, StreamEvent, Usage};

/// Words per streamed delta.
const WORDS_PER_DELTA: usize = 3;

#[derive(Debug, Clone)]
enum Outcome {
    Text {
        text: String,
        usage: Option<Usage>,
        finish: FinishReason,
    },
    Fail(LlmError),
    /// Streams `text`, then the stream breaks with the error (a connection dropped mid-answer).
    Cut {
        text: String,
        err: LlmError,
    },
}

#[derive(Debug, Default)]
struct State {
    queue: VecDeque<Outcome>,
    otherwise: Option<Outcome>,
    requests: Vec<ChatRequest>,
}

/// A scripted model. Each call takes the next queued outcome; when the queue is empty, the
/// `otherwise` answer if one is set, else an error that shows the request. Cheap to clone: clones share the script and the records.
///
/// ```
/// # use novel_llm::{ScriptedModel, ChatRequest, LanguageModel};
/// # tokio_test_block_on(async {
/// let model = ScriptedModel::new()
///     .reply(r#"{"actions": []}"#)
///     .reply("The rain fell.");
/// let plan = model.complete(&ChatRequest::new("Plan the scene")).await.unwrap();
/// assert_eq!(plan.text, r#"{"actions": []}"#);
/// let scene = model.complete(&ChatRequest::new("Write the scene")).await.unwrap();
/// assert_eq!(scene.text, "The rain fell.");
/// assert_eq!(model.requests()[1].messages[0].content, "Write the scene");
/// # });
/// # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ScriptedModel {
    state: Arc<Mutex<State>>,
    model_name: String,
    tokens_per_estimate: f64,
}

impl Default for ScriptedModel {
    fn default() -> Self {
        Self::new()
    }
}

impl ScriptedModel {
    /// An empty script; the model is named `scripted`.
    pub fn new() -> Self {
        ScriptedModel {
            state: Arc::default(),
            model_name: "scripted".to_string(),
            tokens_per_estimate: 1.0,
        }
    }

    /// A model whose tokenizer counts `ratio` tokens for every estimated one (see
    /// [`LanguageModel::tokens_per_estimate`]).
    pub fn with_tokens_per_estimate(mut self, ratio: f64) -> Self {
        self.tokens_per_estimate = ratio;
        self
    }

    /// Queues a text answer for the next call.
    pub fn reply(self, text: impl Into<String>) -> Self {
        self.push(text_outcome(text.into(), None))
    }

    /// Queues a JSON answer for the next call.
    pub fn reply_json(self, value: &serde_json::Value) -> Self {
        self.reply(value.to_string())
    }

    /// Queues a text answer that reports exactly this usage.
    pub fn reply_with_usage(self, text: impl Into<String>, usage: Usage) -> Self {
        self.push(text_outcome(text.into(), Some(usage)))
    }

    /// Queues a failure for the next call.
    pub fn fail(self, err: LlmError) -> Self {
        self.push(Outcome::Fail(err))
    }

    /// Queues an answer that breaks off: a stream sends `text` and then fails with `err` (a
    /// connection dropped mid-answer); a complete call fails with `err`.
    pub fn cut(self, text: impl Into<String>, err: LlmError) -> Self {
        self.push(Outcome::Cut {
            text: text.into(),
            err,
        })
    }

    /// The answer once the queue is empty (reused for every such call): for a model that
    /// answers any number of calls alike.
    pub fn otherwise(self, text: impl Into<String>) -> Self {
        self.lock().otherwise = Some(text_outcome(text.into(), None));
        self
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.lock().requests.clone()
    }

    /// How many calls were made.
    pub fn calls(&self) -> usize {
        self.lock().requests.len()
    }

    fn push(self, outcome: Outcome) -> Self {
        self.lock().queue.push_back(outcome);
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock can only come from a failing test; the data is still
        // fine to read.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records `req` and takes its outcome from the script.
    fn next(&self, req: &ChatRequest) -> Outcome {
        let mut state = self.lock();
        state.requests.push(req.clone());
        if let Some(outcome) = state.queue.pop_front().or_else(|| state.otherwise.clone()) {
            return outcome;
        }
        let shown: String = render_prompt(req).chars().take(300).collect();
        Outcome::Fail(LlmError::InvalidResponse {
            provider: "scripted model".into(),
            detail: format!(
                "no scripted answer left for call #{} ({shown})",
                state.requests.len()
            ),
        })
    }
}

fn text_outcome(text: String, usage: Option<Usage>) -> Outcome {
    Outcome::Text {
        text,
        usage,
        finish: FinishReason::Stop,
    }
}

/// `text` in pieces of a few words, whitespace kept, so the pieces concatenate back to `text`.
fn deltas(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    words
        .chunks(WORDS_PER_DELTA)
        .map(|chunk| chunk.concat())
        .collect()
}

impl LanguageModel for ScriptedModel {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        let outcome = self.next(req);
        let result = match outcome {
            Outcome::Text {
                text,
                usage,
                finish,
            } => Ok(Completion {
                usage: usage.unwrap_or_else(|| tokens::estimate_usage(req, &text)),
                text,
                finish_reason: finish,
                model: self.model_name.clone(),
                latency_ms: 0,
            }),
            Outcome::Fail(err) | Outcome::Cut { err, .. } => Err(err),
        };
        futures::future::ready(result).boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        let outcome = self.next(req);
        let result = match outcome {
            Outcome::Text {
                text,
                usage,
                finish,
            } => {
                let mut events: Vec<Result<StreamEvent, LlmError>> = deltas(&text)
                    .into_iter()
                    .map(|d| Ok(StreamEvent::TextDelta(d)))
                    .collect();
                events.extend(usage.map(|u| Ok(StreamEvent::Usage(u))));
                events.push(Ok(StreamEvent::Finish(finish)));
                Ok(futures::stream::iter(events).boxed())
            }
            Outcome::Cut { text, err } => {
                let mut events: Vec<Result<StreamEvent, LlmError>> = deltas(&text)
                    .into_iter()
                    .map(|d| Ok(StreamEvent::TextDelta(d)))
                    .collect();
                events.push(Err(err));
                Ok(futures::stream::iter(events).boxed())
            }
            Outcome::Fail(err) => Err(err),
        };
        futures::future::ready(result).boxed()
    }

    fn tokens_per_estimate(&self) -> BoxFuture<'_, f64> {
        futures::future::ready(self.tokens_per_estimate).boxed()
    }

    fn describe(&self) -> ModelInfo {
        ModelInfo {
            kind: "scripted".into(),
            profile: String::new(),
            model: self.model_name.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stream_completion;

    #[tokio::test]
    async fn answers_in_order_and_records_every_request() {
        let model = ScriptedModel::new().reply("planned").reply("written");
        let shared: Arc<dyn LanguageModel> = Arc::new(model.clone());
        let plan = ChatRequest::new("go").with_system("You plan scenes.");
        assert_eq!(shared.complete(&plan).await.unwrap().text, "planned");
        let write = ChatRequest::new("write");
        assert_eq!(shared.complete(&write).await.unwrap().text, "written");
        // Clones share the script and the records.
        assert_eq!(model.requests(), vec![plan, write]);
        assert_eq!(model.calls(), 2);
        assert_eq!(shared.describe().model, "scripted");
    }

    #[tokio::test]
    async fn streams_in_several_deltas_that_rebuild_the_text() {
        let text = "The lamp flickered twice before the door opened onto the dark street.";
        let model = ScriptedModel::new().reply(text);
        let mut pieces = Vec::new();
        let done = stream_completion(&model, &ChatRequest::new("w"), |d| {
            pieces.push(d.to_string())
        })
        .await
        .unwrap();
        assert!(pieces.len() > 2, "{pieces:?}");
        assert_eq!(pieces.concat(), text);
        assert_eq!(done.text, text);
        assert!(done.usage.estimated);
        assert_eq!(done.finish_reason, FinishReason::Stop);
    }

    #[tokio::test]
    async fn otherwise_answers_every_call_once_the_queue_is_empty() {
        let model = ScriptedModel::new().reply("first").otherwise("again");
        for expected in ["first", "again", "again"] {
            let answer = model.complete(&ChatRequest::new("x")).await.unwrap();
            assert_eq!(answer.text, expected);
        }
    }

    #[tokio::test]
    async fn failures_and_exhaustion_are_errors() {
        let model = ScriptedModel::new()
            .fail(LlmError::Config("scripted failure".into()))
            .reply_with_usage(
                "ok",
                Usage {
                    prompt_tokens: 7,
                    completion_tokens: 1,
                    estimated: false,
                    ..Usage::default()
                },
            );
        let req = ChatRequest::new("x");
        assert_eq!(
            model.complete(&req).await.unwrap_err(),
            LlmError::Config("scripted failure".into())
        );
        assert_eq!(model.complete(&req).await.unwrap().usage.prompt_tokens, 7);
        let err = model.complete(&ChatRequest::new("lost")).await.unwrap_err();
        assert!(
            err.to_string().contains("call #3") && err.to_string().contains("lost"),
            "{err}"
        );
    }
}
