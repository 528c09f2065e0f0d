//! The OpenAI-compatible provider (also used for Ollama): POST `{base_url}/chat/completions`,
//! streamed or not. Adapts per server and remembers it: steps the structured-output mode down
//! when `response_format` is refused (unless the profile pins one), drops `temperature` or
//! `top_p` when the server refuses the parameter, and switches to `max_completion_tokens` when
//! a newer OpenAI model refuses `max_tokens`. Each adaptation resends at once and is not a
//! retry. It starts from what the profile's last connection test recorded
//! ([`crate::Capabilities`]), so a known refusal is not asked again.

mod cache;
pub(crate) mod wire;

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::context::CallContext;
use crate::error::LlmError;
use crate::json::mode::{ModeMemory, StructuredMode, is_schema_rejection};
use crate::limits::Limits;
use crate::model::{EventStream, LanguageModel, elapsed_ms};
use crate::profile::provider::ProviderProfile;
use crate::secret::ApiKey;
use crate::sse::{WireError, event_stream};
use crate::tokens;
use crate::transport::{Delivered, Delivery, Post, SendFailure, Transport};
use crate::types::{ChatRequest, Completion, ModelInfo};
use futures::FutureExt;
use futures::future::BoxFuture;

use cache::PromptCaching;
use wire::CacheFields;
use wire::TokenLimitField;

/// What a connection test checks a server for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Feature {
    JsonSchema,
    JsonObject,
    Temperature,
}

/// A model behind an OpenAI-compatible chat-completions endpoint.
pub struct OpenAiModel {
    ctx: Arc<CallContext>,
    transport: Transport,
    url: String,
    modes: ModeMemory,
    /// The profile pins the structured-output mode: a refusal is an error, not a step down.
    pinned: bool,
    /// Where the profile is, for messages that say what to change.
    location: String,
    use_max_completion_tokens: AtomicBool,
    send_temperature: AtomicBool,
    send_top_p: AtomicBool,
    transport_timeout: Duration,
    caching: PromptCaching,
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
        let pinned = profile.structured_output.pinned();
        let start = pinned.unwrap_or_else(|| profile.capabilities.strongest_mode());
        Ok(OpenAiModel {
            url: format!("{base_url}/chat/completions"),
            ctx: Arc::new(CallContext::new(profile, key)),
            transport: Transport::new(profile.retry_policy(), profile.timeout())?,
            modes: ModeMemory::new(start),
            pinned: pinned.is_some(),
            location: profile.location(),
            use_max_completion_tokens: AtomicBool::new(false),
            send_temperature: AtomicBool::new(!profile.capabilities.refuses_temperature()),
            send_top_p: AtomicBool::new(true),
            transport_timeout: profile.timeout(),
            caching: PromptCaching::new(&base_url),
        })
    }

    /// Whether `temperature` is still sent (false once the server refused it).
    pub fn sends_temperature(&self) -> bool {
        self.send_temperature.load(Ordering::Relaxed)
    }

    /// `req` without the sampling parameters this server refused.
    fn accepted<'r>(&self, req: &'r ChatRequest) -> Cow<'r, ChatRequest> {
        let drop_temperature = req.temperature.is_some() && !self.sends_temperature();
        let drop_top_p = req.top_p.is_some() && !self.send_top_p.load(Ordering::Relaxed);
        if !drop_temperature && !drop_top_p {
            return Cow::Borrowed(req);
        }
        let mut req = req.clone();
        if drop_temperature {
            req.temperature = None;
        }
        if drop_top_p {
            req.top_p = None;
        }
        Cow::Owned(req)
    }

    /// Remembers a refused sampling parameter of `req`; true when one was dropped.
    fn drop_refused_parameter(&self, req: &ChatRequest, body: &str) -> bool {
        for (name, sent, flag) in [
            (
                "temperature",
                req.temperature.is_some(),
                &self.send_temperature,
            ),
            ("top_p", req.top_p.is_some(), &self.send_top_p),
        ] {
            if sent && flag.load(Ordering::Relaxed) && wire::refuses_parameter(body, name) {
                tracing::info!(
                    provider = %self.ctx.provider,
                    parameter = name,
                    "server refused a sampling parameter; sending requests without it"
                );
                flag.store(false, Ordering::Relaxed);
                return true;
            }
        }
        false
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
            let req = self.accepted(req);
            let req = req.as_ref();
            let hints = self.caching.fields(req).await;
            let body = wire::build_request(req, &self.ctx.model, mode, stream, limit, &hints);
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
            if structured && is_schema_rejection(status, &text) && self.pinned {
                return Err(self.pinned_refusal(status, &text, mode));
            }
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
            if self.drop_refused_parameter(req, &text) || self.caching.refused(&hints, &text) {
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

    /// Whether the server accepts `feature`: one small non-streamed request using it, with
    /// nothing adapted but the token-limit field. Transport failures are errors, not a "no".
    pub(crate) async fn accepts(&self, feature: Feature) -> Result<bool, LlmError> {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "required": ["ok"]
        });
        let ask = "Reply with the JSON object {\"ok\": true} and nothing else.";
        let (req, mode) = match feature {
            Feature::JsonSchema => (
                ChatRequest::new(ask).with_json_schema("connection_test", schema),
                StructuredMode::JsonSchema,
            ),
            Feature::JsonObject => (
                ChatRequest::new(ask).with_json_schema("connection_test", schema),
                StructuredMode::JsonObject,
            ),
            Feature::Temperature => (
                ChatRequest::new("Say OK.").with_temperature(0.3),
                StructuredMode::PromptOnly,
            ),
        };
        let req = req.with_max_tokens(16);
        let structured = feature != Feature::Temperature;
        loop {
            let limit = self.limit_field();
            let body = wire::build_request(
                &req,
                &self.ctx.model,
                mode,
                false,
                limit,
                &CacheFields::default(),
            );
            let headers = self.headers();
            let refusal =
                move |status: u16, text: &str| structured && is_schema_rejection(status, text);
            let post = Post {
                url: &self.url,
                headers: &headers,
                body: &body,
                refusal: &refusal,
            };
            let delivery = Delivery::Body {
                limit: Limits::new(req.max_tokens, self.transport_timeout).body_bytes,
            };
            let (status, text) = match self.transport.post(&self.ctx, &post, delivery).await {
                Ok(_) => return Ok(true),
                Err(SendFailure::Error(err)) => return Err(err),
                Err(SendFailure::Rejected { status, body }) => (status, body),
            };
            if structured && is_schema_rejection(status, &text) {
                return Ok(false);
            }
            if !structured && wire::refuses_parameter(&text, "temperature") {
                return Ok(false);
            }
            if limit == TokenLimitField::MaxTokens && wire::wants_max_completion_tokens(&text) {
                self.use_max_completion_tokens
                    .store(true, Ordering::Relaxed);
                continue;
            }
            return Err(self.ctx.bad_request(status, &text));
        }
    }

    /// A refusal of the mode the profile pins: what the server said, and what to change.
    fn pinned_refusal(&self, status: u16, text: &str, mode: StructuredMode) -> LlmError {
        let setting = crate::StructuredOutput::from(mode).as_str();
        match self.ctx.bad_request(status, text) {
            LlmError::BadRequest {
                provider,
                status,
                detail,
            } => LlmError::BadRequest {
                provider,
                status,
                detail: format!(
                    "{detail}; the profile pins `structured_output = \"{setting}\"`, which \
                     this server refuses: set it to \"auto\" (or a weaker mode) in {}",
                    self.location
                ),
            },
            other => other,
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
        self.ctx.model_info()
    }
}
