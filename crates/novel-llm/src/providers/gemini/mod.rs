//! The Gemini provider: POST `{base_url}/v1beta/models/{model}:streamGenerateContent?alt=sse`,
//! always streamed, with the key in the `x-goog-api-key` header (never in the URL, where it
//! would end up in error messages). Steps the JSON mode down and remembers it when a model
//! refuses `responseJsonSchema` or `responseMimeType` (unless the profile pins a mode).

pub(crate) mod wire;

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::context::CallContext;
use crate::error::LlmError;
use crate::json::mode::{ModeMemory, StructuredMode, is_schema_rejection};
use crate::limits::Limits;
use crate::model::{EventStream, LanguageModel, stream_completion};
use crate::profile::provider::ProviderProfile;
use crate::secret::ApiKey;
use crate::sse::event_stream;
use crate::transport::{Post, SendFailure, Transport};
use crate::types::{ChatRequest, Completion, ModelInfo};

/// A Gemini model.
pub struct GeminiModel {
    ctx: Arc<CallContext>,
    transport: Transport,
    url: String,
    modes: ModeMemory,
    /// The profile pins the JSON mode: no stepping down.
    pinned: bool,
    timeout: Duration,
}

impl std::fmt::Debug for GeminiModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeminiModel")
            .field("provider", &self.ctx.provider)
            .field("url", &self.ctx.redact(&self.url))
            .field("structured_mode", &self.modes.get())
            .finish_non_exhaustive()
    }
}

impl GeminiModel {
    /// A model for `profile` using `key`.
    pub fn new(profile: &ProviderProfile, key: Option<ApiKey>) -> Result<Self, LlmError> {
        let base_url = profile
            .effective_base_url()
            .ok_or_else(|| LlmError::Config(format!("{}: set `base_url`", profile.location())))?;
        Ok(GeminiModel {
            url: format!(
                "{base_url}/v1beta/models/{}:streamGenerateContent?alt=sse",
                profile.model.trim_start_matches("models/")
            ),
            ctx: Arc::new(CallContext::new(profile, key)),
            transport: Transport::new(profile.retry_policy(), profile.timeout())?,
            modes: ModeMemory::new(
                profile
                    .structured_output
                    .pinned()
                    .unwrap_or_else(|| profile.capabilities.strongest_mode()),
            ),
            pinned: profile.structured_output.pinned().is_some(),
            timeout: profile.timeout(),
        })
    }

    /// How this model is currently asked for JSON.
    pub fn structured_mode(&self) -> StructuredMode {
        self.modes.get()
    }

    async fn open(&self, req: &ChatRequest) -> Result<EventStream, LlmError> {
        let mut headers = Vec::new();
        if let Some(key) = &self.ctx.key {
            headers.push(("x-goog-api-key", key.expose().to_string()));
        }
        loop {
            let mode = self.modes.get();
            let body = wire::build_request(req, mode);
            let structured = req.json_schema.is_some() && mode != StructuredMode::PromptOnly;
            let refusal =
                move |status: u16, text: &str| structured && is_schema_rejection(status, text);
            let post = Post {
                url: &self.url,
                headers: &headers,
                body: &body,
                refusal: &refusal,
            };
            match self.transport.post_for_stream(&self.ctx, &post).await {
                Ok(response) => {
                    let limits = Limits::new(req.max_tokens, self.timeout);
                    return Ok(event_stream(
                        response,
                        self.ctx.clone(),
                        limits,
                        |_, data| wire::parse_chunk(data),
                    ));
                }
                Err(SendFailure::Error(err)) => return Err(err),
                Err(SendFailure::Rejected { status, body }) => {
                    if structured
                        && !self.pinned
                        && is_schema_rejection(status, &body)
                        && let Some(next) = self.modes.step_down(mode)
                    {
                        tracing::info!(provider = %self.ctx.provider, from = ?mode, to = ?next,
                            "model refused the JSON mode; falling back");
                        continue;
                    }
                    return Err(self.ctx.bad_request(status, &body));
                }
            }
        }
    }
}

impl LanguageModel for GeminiModel {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        stream_completion(self, req, |_| {}).boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        self.open(req).boxed()
    }

    fn describe(&self) -> ModelInfo {
        self.ctx.model_info()
    }
}
