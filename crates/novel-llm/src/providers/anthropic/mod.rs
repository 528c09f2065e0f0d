//! The Anthropic provider: POST `{base_url}/v1/messages`, always streamed (`complete` collects
//! the stream), authenticated with `x-api-key`.

pub(crate) mod wire;

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::context::CallContext;
use crate::error::LlmError;
use crate::limits::Limits;
use crate::model::{EventStream, LanguageModel, stream_completion};
use crate::profile::provider::ProviderProfile;
use crate::secret::ApiKey;
use crate::sse::event_stream;
use crate::transport::{NO_REFUSALS, Post, SendFailure, Transport};
use crate::types::{ChatRequest, Completion, ModelInfo};

/// The API version this module speaks.
const API_VERSION: &str = "2023-06-01";

/// A Claude model.
pub struct AnthropicModel {
    ctx: Arc<CallContext>,
    transport: Transport,
    url: String,
    timeout: Duration,
}

impl std::fmt::Debug for AnthropicModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicModel")
            .field("provider", &self.ctx.provider)
            .field("url", &self.ctx.redact(&self.url))
            .field("model", &self.ctx.model)
            .finish_non_exhaustive()
    }
}

impl AnthropicModel {
    /// A model for `profile` using `key`.
    pub fn new(profile: &ProviderProfile, key: Option<ApiKey>) -> Result<Self, LlmError> {
        let base_url = profile
            .effective_base_url()
            .ok_or_else(|| LlmError::Config(format!("{}: set `base_url`", profile.location())))?;
        Ok(AnthropicModel {
            url: format!("{base_url}/v1/messages"),
            ctx: Arc::new(CallContext::new(profile, key)),
            transport: Transport::new(profile.retry_policy(), profile.timeout())?,
            timeout: profile.timeout(),
        })
    }

    async fn open(&self, req: &ChatRequest) -> Result<EventStream, LlmError> {
        let body = wire::build_request(req, &self.ctx.model);
        let mut headers = vec![("anthropic-version", API_VERSION.to_string())];
        if let Some(key) = &self.ctx.key {
            headers.push(("x-api-key", key.expose().to_string()));
        }
        let post = Post {
            url: &self.url,
            headers: &headers,
            body: &body,
            refusal: NO_REFUSALS,
        };
        let response = match self.transport.post_for_stream(&self.ctx, &post).await {
            Ok(response) => response,
            Err(SendFailure::Error(err)) => return Err(err),
            Err(SendFailure::Rejected { status, body }) => {
                return Err(self.ctx.bad_request(status, &body));
            }
        };
        let mut parser = wire::StreamParser::default();
        // Without `max_tokens` the request asks for the default, which bounds the answer too.
        let max_tokens = req.max_tokens.or(Some(wire::DEFAULT_MAX_TOKENS));
        let limits = Limits::new(max_tokens, self.timeout);
        Ok(event_stream(
            response,
            self.ctx.clone(),
            limits,
            move |_, data| parser.parse(data),
        ))
    }
}

impl LanguageModel for AnthropicModel {
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
