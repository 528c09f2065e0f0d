//! The OpenAI-compatible provider (also used for Ollama): POST `{base_url}/chat/completions`,
//! streamed or not. Adapts per server and remembers it: steps the structured-output mode down
//! when `response_format` is refused, and switches to `max_completion_tokens` when a newer
//! OpenAI model refuses `max_tokens`. Each step-down resends at once and is not a retry.

pub(crate) mod wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::context::CallContext;
use crate::error::LlmError;
use crate::limits::Limits;
use crate::model::{EventStream, LanguageModel, elapsed_ms};
use crate::profile::ProviderProfile;
use crate::secret::ApiKey;
use crate::sse::{WireError, event_stream};
use crate::structured::{ModeMemory, StructuredMode, is_schema_rejection};
use crate::tokens;
use crate::transport::{Delivered, Delivery, Post, SendFailure, Transport};
use crate::types::{ChatRequest, Completion, ModelInfo};
use futures::FutureExt;
use futures::future::BoxFuture;

use wire::TokenLimitField;

/// A model behind an OpenAI-compatible chat-completions endpoint.
pub struct OpenAiModel {
    ctx: Arc<CallContext>,
    transport: Transport,
    url: String,
    modes: ModeMemory,
    use_max_completion_tokens: AtomicBool,
    transport_timeout: Duration,
}

impl std::fmt::Debug for OpenAiModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiModel")
            .field("provider", &self.ctx.provider)
            .field("url", &self.ctx.redact(&self.url))
            .field("model", &self.ctx.model)
            .field("structured_mode", &self.modes.get())
            .finish_non_exhaustive()
    }
}

impl OpenAiModel {
    /// A model for `profile` using `key` (already read from the profile's key variable).
    pub fn new(profile: &ProviderProfile, key: Option<ApiKey>) -> Result<Self, LlmError> {
        let base_url = profile
            .effective_base_url()
            .ok_or_else(|| LlmError::Config(format!("{}: set `base_url`", profile.location())))?;
        Ok(OpenAiModel {
            url: format!("{base_url}/chat/completions"),
            ctx: Arc::new(CallContext::new(profile, key)),
            transport: Transport::new(profile.retry_policy(), profile.timeout())?,
            modes: ModeMemory::new(StructuredMode::JsonSchema),
            use_max_completion_tokens: AtomicBool::new(false),
            transport_timeout: profile.timeout(),
        })
    }

    /// How this server is currently asked for JSON (after any remembered fallback).
    pub fn structured_mode(&self) -> StructuredMode {
        self.modes.get()
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        match &self.ctx.key {
            Some(key) => vec![("authorization", format!("Bearer {}", key.expose()))],
            None => Vec::new(),
        }
    }

    fn limit_field(&self) -> TokenLimitField {
        if self.use_max_completion_tokens.load(Ordering::Relaxed) {
            TokenLimitField::MaxCompletionTokens
        } else {
            TokenLimitField::MaxTokens
        }
    }

    /// Sends `req`, adapting to what the server refuses. Terminates: every resend either steps
    /// the mode down or flips the token field, each of which happens at most a bounded number
    /// of times.
    async fn send(&self, req: &ChatRequest, delivery: Delivery) -> Result<Delivered, LlmError> {
        let stream = delivery == Delivery::Stream;
        loop {
            let mode = self.modes.get();
            let limit = self.limit_field();
            let body = wire::build_request(req, &self.ctx.model, mode, stream, limit);
            let headers = self.headers();
            let structured = req.json_schema.is_some() && mode != StructuredMode::PromptOnly;
            // Some servers refuse `response_format` with a 5xx; that must not be retried.
            let refusal =
                move |status: u16, text: &str| structured && is_schema_rejection(status, text);
            let post = Post {
                url: &self.url,
                headers: &headers,
                body: &body,
                refusal: &refusal,
            };
            let (status, text) = match self.transport.post(&self.ctx, &post, delivery).await {
                Ok(delivered) => return Ok(delivered),
                Err(SendFailure::Error(err)) => return Err(err),
                Err(SendFailure::Rejected { status, body }) => (status, body),
            };
            if structured
                && is_schema_rejection(status, &text)
                && let Some(next) = self.modes.step_down(mode)
            {
                tracing::info!(
                    provider = %self.ctx.provider,
                    status,
                    from = ?mode,
                    to = ?next,
                    "server refused the structured-output format; falling back"
                );
                continue;
            }
            if req.max_tokens.is_some()
                && limit == TokenLimitField::MaxTokens
                && wire::wants_max_completion_tokens(&text)
            {
                self.use_max_completion_tokens
                    .store(true, Ordering::Relaxed);
                continue;
            }
            return Err(self.ctx.bad_request(status, &text));
        }
    }

    async fn complete_inner(&self, req: &ChatRequest) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let limits = Limits::new(req.max_tokens, self.transport_timeout);
        let delivery = Delivery::Body {
            limit: limits.body_bytes,
        };
        let Delivered::Body(body) = self.send(req, delivery).await? else {
            unreachable!("a body was asked for")
        };
        let parsed = wire::parse_response(&body).map_err(|err| self.wire_error(err))?;
        if parsed.text.len() > limits.answer_bytes {
            return Err(self.ctx.invalid(limits.answer_too_long()));
        }
        Ok(Completion {
            usage: parsed
                .usage
                .unwrap_or_else(|| tokens::estimate_usage(req, &parsed.text)),
            text: parsed.text,
            finish_reason: parsed.finish,
            model: parsed.model.unwrap_or_else(|| self.ctx.model.clone()),
            latency_ms: elapsed_ms(started),
        })
    }

    fn wire_error(&self, err: WireError) -> LlmError {
        match err {
            WireError::Invalid(detail) => self.ctx.invalid(detail),
            WireError::Remote(detail) => self
                .ctx
                .invalid(format!("the server sent an error: {detail}")),
        }
    }
}

impl LanguageModel for OpenAiModel {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        self.complete_inner(req).boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        async move {
            let Delivered::Stream(response) = self.send(req, Delivery::Stream).await? else {
                unreachable!("a stream was asked for")
            };
            let limits = Limits::new(req.max_tokens, self.transport_timeout);
            Ok(event_stream(
                response,
                self.ctx.clone(),
                limits,
                |_, data| wire::parse_chunk(data),
            ))
        }
        .boxed()
    }

    fn describe(&self) -> ModelInfo {
        ModelInfo {
            kind: self.ctx.kind.to_string(),
            profile: self.ctx.profile.clone(),
            model: self.ctx.model.clone(),
        }
    }
}
