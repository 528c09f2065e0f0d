//! [`ScriptedModel`]: a fake [`LanguageModel`] for tests of code that calls models. It answers
//! from a queue of scripted outcomes (optionally picked by a substring of the request), records
//! every request, and streams answers in several deltas like a real server.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt};

use crate::command::render_prompt;
use crate::error::LlmError;
use crate::model::{EventStream, LanguageModel};
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
    /// Streams `text` and then breaks off without finishing.
    Cut(String),
}

#[derive(Debug, Clone)]
struct Entry {
    when: Option<String>,
    outcome: Outcome,
}

#[derive(Debug, Default)]
struct State {
    queue: VecDeque<Entry>,
    otherwise: Option<Outcome>,
    requests: Vec<ChatRequest>,
}

/// A scripted model. Each call takes the first queued entry that is unkeyed or whose key occurs
/// in the request (system prompt or any message); when none fits, the `otherwise` answer, else
/// an error that shows the request. Cheap to clone: clones share the script and the records.
///
/// ```
/// # use novel_llm::{ScriptedModel, ChatRequest, LanguageModel};
/// # tokio_test_block_on(async {
/// let model = ScriptedModel::new()
///     .reply_when("PLAN", r#"{"actions": []}"#)
///     .reply("The rain fell.");
/// let scene = model.complete(&ChatRequest::new("Write the scene")).await.unwrap();
/// assert_eq!(scene.text, "The rain fell.");
/// assert_eq!(model.requests()[0].messages[0].content, "Write the scene");
/// # });
/// # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ScriptedModel {
    state: Arc<Mutex<State>>,
    model_name: String,
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
        }
    }

    /// Reports `name` as the model name.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.model_name = name.into();
        self
    }

    /// Queues a text answer for the next call.
    pub fn reply(self, text: impl Into<String>) -> Self {
        self.push(None, text_outcome(text.into(), None))
    }

    /// Queues a JSON answer for the next call.
    pub fn reply_json(self, value: &serde_json::Value) -> Self {
        self.reply(value.to_string())
    }

    /// Queues a text answer for the next call whose request contains `needle`.
    pub fn reply_when(self, needle: impl Into<String>, text: impl Into<String>) -> Self {
        self.push(Some(needle.into()), text_outcome(text.into(), None))
    }

    /// Queues a text answer that reports exactly this usage.
    pub fn reply_with_usage(self, text: impl Into<String>, usage: Usage) -> Self {
        self.push(None, text_outcome(text.into(), Some(usage)))
    }

    /// Queues an answer that stopped at the token limit.
    pub fn reply_truncated(self, text: impl Into<String>) -> Self {
        let outcome = Outcome::Text {
            text: text.into(),
            usage: None,
            finish: FinishReason::Length,
        };
        self.push(None, outcome)
    }

    /// Queues a failure for the next call.
    pub fn fail(self, err: LlmError) -> Self {
        self.push(None, Outcome::Fail(err))
    }

    /// Queues a failure for the next call whose request contains `needle`.
    pub fn fail_when(self, needle: impl Into<String>, err: LlmError) -> Self {
        self.push(Some(needle.into()), Outcome::Fail(err))
    }

    /// Queues an answer whose stream breaks off after `partial` (a `StreamCut` error).
    pub fn cut_stream(self, partial: impl Into<String>) -> Self {
        self.push(None, Outcome::Cut(partial.into()))
    }

    /// The answer for calls that match nothing in the queue (reused for every such call).
    pub fn otherwise(self, text: impl Into<String>) -> Self {
        self.lock().otherwise = Some(text_outcome(text.into(), None));
        self
    }

    /// Queues a text answer on an existing (possibly shared) model.
    pub fn push_reply(&self, text: impl Into<String>) {
        self.lock().queue.push_back(Entry {
            when: None,
            outcome: text_outcome(text.into(), None),
        });
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.lock().requests.clone()
    }

    /// The most recent request.
    pub fn last_request(&self) -> Option<ChatRequest> {
        self.lock().requests.last().cloned()
    }

    /// How many calls were made.
    pub fn calls(&self) -> usize {
        self.lock().requests.len()
    }

    /// How many queued entries are still unused.
    pub fn remaining(&self) -> usize {
        self.lock().queue.len()
    }

    fn push(self, when: Option<String>, outcome: Outcome) -> Self {
        self.lock().queue.push_back(Entry { when, outcome });
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
        let haystack = render_prompt(req);
        let mut state = self.lock();
        state.requests.push(req.clone());
        let position = state.queue.iter().position(|entry| {
            entry
                .when
                .as_deref()
                .is_none_or(|needle| haystack.contains(needle))
        });
        if let Some(entry) = position.and_then(|index| state.queue.remove(index)) {
            return entry.outcome;
        }
        if let Some(outcome) = &state.otherwise {
            return outcome.clone();
        }
        let waiting: Vec<String> = state
            .queue
            .iter()
            .filter_map(|entry| entry.when.clone())
            .collect();
        let shown: String = haystack.chars().take(300).collect();
        Outcome::Fail(LlmError::InvalidResponse {
            provider: "scripted model".into(),
            detail: format!(
                "no scripted answer for call #{} ({shown}); queued answers wait for {waiting:?}",
                state.requests.len()
            ),
        })
    }

    fn cut_error(&self, partial: &str) -> LlmError {
        LlmError::StreamCut {
            provider: "scripted model".into(),
            detail: format!("scripted cut after {} characters", partial.chars().count()),
        }
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
            Outcome::Fail(err) => Err(err),
            Outcome::Cut(partial) => Err(self.cut_error(&partial)),
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
            Outcome::Fail(err) => Err(err),
            Outcome::Cut(partial) => {
                let mut events: Vec<Result<StreamEvent, LlmError>> = deltas(&partial)
                    .into_iter()
                    .map(|d| Ok(StreamEvent::TextDelta(d)))
                    .collect();
                events.push(Err(self.cut_error(&partial)));
                Ok(futures::stream::iter(events).boxed())
            }
        };
        futures::future::ready(result).boxed()
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
    async fn keyed_answers_are_picked_by_request_content() {
        let model = ScriptedModel::new()
            .reply_when("EXTRACT", "extracted")
            .reply_when("PLAN", "planned")
            .reply("written");
        let plan = ChatRequest::new("go").with_system("You PLAN scenes.");
        assert_eq!(model.complete(&plan).await.unwrap().text, "planned");
        // The unkeyed entry is behind the EXTRACT one but fits a writer request.
        let write = ChatRequest::new("write");
        assert_eq!(model.complete(&write).await.unwrap().text, "written");
        assert_eq!(model.remaining(), 1);
        let extract = ChatRequest::new("EXTRACT facts");
        assert_eq!(model.complete(&extract).await.unwrap().text, "extracted");
        assert_eq!(model.requests(), vec![plan, write, extract]);
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
    async fn failures_cuts_and_exhaustion_are_errors() {
        let model = ScriptedModel::new()
            .fail(LlmError::Config("scripted failure".into()))
            .cut_stream("Half of it")
            .reply_with_usage(
                "ok",
                Usage {
                    prompt_tokens: 7,
                    completion_tokens: 1,
                    estimated: false,
                },
            );
        let req = ChatRequest::new("x");
        assert_eq!(
            model.complete(&req).await.unwrap_err(),
            LlmError::Config("scripted failure".into())
        );
        let err = stream_completion(&model, &req, |_| {}).await.unwrap_err();
        assert!(matches!(err, LlmError::StreamCut { .. }), "{err}");
        assert_eq!(model.complete(&req).await.unwrap().usage.prompt_tokens, 7);
        let err = model.complete(&ChatRequest::new("lost")).await.unwrap_err();
        assert!(
            err.to_string().contains("call #4") && err.to_string().contains("lost"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn otherwise_answers_forever_and_clones_share_records() {
        let model = ScriptedModel::new().otherwise("again").named("fake-1");
        let shared: Arc<dyn LanguageModel> = Arc::new(model.clone());
        for _ in 0..3 {
            assert_eq!(
                shared.complete(&ChatRequest::new("x")).await.unwrap().text,
                "again"
            );
        }
        model.push_reply("queued");
        assert_eq!(
            shared.complete(&ChatRequest::new("y")).await.unwrap().text,
            "queued"
        );
        assert_eq!(model.calls(), 4);
        assert_eq!(shared.describe().model, "fake-1");
    }
}
