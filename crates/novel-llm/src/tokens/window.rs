//! Keeping a request inside the model's context window, where the profile knows its size: the
//! prompt and the answer share the window, so an answer ceiling the prompt leaves no room for
//! is lowered to what fits (a local server with a 4,096-token window refuses a 3,000-token
//! prompt that asks for 2,000 more), and a prompt that leaves no useful room at all is refused
//! before it is sent, with what to change. Prompt tokens are the estimate scaled by what the
//! model's own tokenizer has shown so far; near the edge they are counted by that tokenizer.

use std::sync::Arc;

use crate::error::LlmError;
use crate::tokens::counter::TokenCounter;
use crate::tokens::estimate::estimate_prompt_tokens;
use crate::types::ChatRequest;

/// The least room for an answer worth sending a request for (or what the request asks, if
/// less).
pub const MIN_ANSWER_TOKENS: u32 = 256;

/// Within this share of the window, the prompt is counted by the model's tokenizer instead of
/// estimated.
const EDGE: f64 = 0.8;

/// One profile's context window.
pub(crate) struct Window {
    pub profile: String,
    pub context_length: u32,
    pub counter: Arc<dyn TokenCounter>,
}

impl Window {
    /// `req` with its answer ceiling lowered to what the window leaves, or the reason it
    /// cannot be sent.
    pub async fn fit(&self, req: ChatRequest) -> Result<ChatRequest, LlmError> {
        let prompt = self.prompt_tokens(&req).await;
        let room = self.context_length.saturating_sub(prompt);
        let wanted = req.max_tokens.unwrap_or(MIN_ANSWER_TOKENS);
        if room < wanted.min(MIN_ANSWER_TOKENS) {
            return Err(LlmError::Config(format!(
                "the prompt (about {prompt} tokens) leaves no room for an answer in the \
                 {}-token context window of profile `{}`: give the server a larger context \
                 (llama.cpp `-c`, Ollama `num_ctx`, LM Studio's context length), correct the \
                 profile's context length if it is wrong, or lower the prompt budgets",
                self.context_length, self.profile
            )));
        }
        let mut out = req;
        if let Some(asked) = out.max_tokens
            && asked > room
        {
            out.max_tokens = Some(room);
        }
        Ok(out)
    }

    async fn prompt_tokens(&self, req: &ChatRequest) -> u32 {
        let estimate = estimate_prompt_tokens(req);
        let scaled = (f64::from(estimate) * self.counter.ratio().unwrap_or(1.0)).ceil();
        let answer = f64::from(req.max_tokens.unwrap_or(MIN_ANSWER_TOKENS));
        if scaled + answer < EDGE * f64::from(self.context_length) {
            return scaled as u32;
        }
        // Close to the edge: the model's own count of the text, plus the estimate's markup.
        let text: String = req
            .system
            .iter()
            .map(String::as_str)
            .chain(req.messages.iter().map(|m| m.content.as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        let counted = self.counter.count(&text).await;
        let markup = estimate.saturating_sub(crate::tokens::estimate::count_tokens(&text));
        counted.saturating_add(markup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::counter::EstimateCounter;

    fn window(context_length: u32) -> Window {
        Window {
            profile: "local".into(),
            context_length,
            counter: Arc::new(EstimateCounter),
        }
    }

    #[tokio::test]
    async fn an_answer_ceiling_the_prompt_leaves_no_room_for_is_lowered_to_what_fits() {
        let req = ChatRequest::new("word ".repeat(500)).with_max_tokens(2000);
        let prompt = estimate_prompt_tokens(&req);
        let fitted = window(1000).fit(req.clone()).await.unwrap();
        assert_eq!(fitted.max_tokens, Some(1000 - prompt));
        // With room to spare nothing changes.
        assert_eq!(window(8000).fit(req).await.unwrap().max_tokens, Some(2000));
    }

    #[tokio::test]
    async fn a_prompt_that_fills_the_window_is_refused_before_it_is_sent_with_what_to_change() {
        let req = ChatRequest::new("word ".repeat(900)).with_max_tokens(2000);
        let err = window(1000).fit(req).await.unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("1000-token context window of profile `local`")
                && message.contains("llama.cpp `-c`"),
            "{message}"
        );
    }

    #[tokio::test]
    async fn a_request_asking_for_less_than_the_minimum_needs_only_that_much_room() {
        let req = ChatRequest::new("word ".repeat(900)).with_max_tokens(20);
        let prompt = estimate_prompt_tokens(&req);
        let fitted = window(prompt + 30).fit(req).await.unwrap();
        assert_eq!(fitted.max_tokens, Some(20));
    }
}
