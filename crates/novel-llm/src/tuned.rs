//! A profile's sampling settings and context window on every request its model sends: [`Tuned`]
//! wraps any provider and applies [`Sampling`] (temperature and top_p where the request sets
//! none, the output ceiling), then fits the request into the model's [`Window`] where the
//! profile knows its size, before handing it on. It also answers for the model's own tokenizer
//! ([`LanguageModel::tokens_per_estimate`]), so the engine's prompt budgets are counted the
//! way the model counts. `connect` wraps each model it builds, so the settings hold for every
//! caller: the engine's roles, `providers test`, the app.

use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::error::LlmError;
use crate::model::{EventStream, LanguageModel};
use crate::profile::settings::Sampling;
use crate::tokens::counter::{TokenCounter, TokenSource, calibrated_ratio};
use crate::tokens::window::Window;
use crate::types::{ChatRequest, Completion, ModelInfo};

/// A model whose requests get the profile's sampling settings and fit its context window.
pub(crate) struct Tuned {
    inner: Arc<dyn LanguageModel>,
    sampling: Sampling,
    window: Option<Window>,
    /// The model's own tokenizer; `None` when only the estimate is known.
    counter: Option<Arc<dyn TokenCounter>>,
}

/// `model` with `sampling` applied to its requests, each fitted to `window`, and its tokens
/// counted by `counter` (itself when there is nothing to apply).
pub(crate) fn tune(
    model: Arc<dyn LanguageModel>,
    sampling: Sampling,
    window: Option<Window>,
    counter: Arc<dyn TokenCounter>,
) -> Arc<dyn LanguageModel> {
    let counter = (counter.source() != TokenSource::Estimate).then_some(counter);
    if sampling.is_empty() && window.is_none() && counter.is_none() {
        return model;
    }
    Arc::new(Tuned {
        inner: model,
        sampling,
        window,
        counter,
    })
}

impl Tuned {
    async fn prepare(&self, req: &ChatRequest) -> Result<ChatRequest, LlmError> {
        let req = self.sampling.apply(req);
        match &self.window {
            Some(window) => window.fit(req).await,
            None => Ok(req),
        }
    }
}

impl LanguageModel for Tuned {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        async move {
            let req = self.prepare(req).await?;
            self.inner.complete(&req).await
        }
        .boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        async move {
            let req = self.prepare(req).await?;
            self.inner.stream(&req).await
        }
        .boxed()
    }

    fn describe(&self) -> ModelInfo {
        self.inner.describe()
    }

    fn prices(&self) -> Option<crate::prices::Prices> {
        self.inner.prices()
    }

    fn tokens_per_estimate(&self) -> BoxFuture<'_, f64> {
        match &self.counter {
            Some(counter) => async move { calibrated_ratio(&**counter).await }.boxed(),
            None => self.inner.tokens_per_estimate(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScriptedModel;
    use crate::tokens::counter::EstimateCounter;

    #[tokio::test]
    async fn requests_reach_the_model_with_the_profile_settings() {
        let scripted = ScriptedModel::new().reply("a").reply("b");
        let model = tune(
            Arc::new(scripted.clone()),
            Sampling {
                temperature: Some(0.6),
                top_p: None,
                max_output_tokens: Some(300),
            },
            None,
            Arc::new(EstimateCounter),
        );
        model
            .complete(&ChatRequest::new("x").with_max_tokens(2000))
            .await
            .unwrap();
        let mut stream = model.stream(&ChatRequest::new("y")).await.unwrap();
        while futures::StreamExt::next(&mut stream).await.is_some() {}
        let seen = scripted.requests();
        assert_eq!(
            (seen[0].temperature, seen[0].max_tokens),
            (Some(0.6), Some(300))
        );
        assert_eq!(seen[1].max_tokens, Some(300));
    }
}

#[cfg(test)]
mod window_tests {
    use super::*;
    use crate::ScriptedModel;
    use crate::tokens::counter::EstimateCounter;

    #[tokio::test]
    async fn a_profile_with_a_context_length_keeps_every_request_inside_it() {
        let scripted = ScriptedModel::new().reply("a");
        let model = tune(
            Arc::new(scripted.clone()),
            Sampling::default(),
            Some(Window {
                profile: "local".into(),
                context_length: 600,
                counter: Arc::new(EstimateCounter),
            }),
            Arc::new(EstimateCounter),
        );
        let req = ChatRequest::new("tide ".repeat(200)).with_max_tokens(2000);
        let prompt = crate::tokens::estimate_prompt_tokens(&req);
        model.complete(&req).await.unwrap();
        assert_eq!(scripted.requests()[0].max_tokens, Some(600 - prompt));
        // Nothing reaches the model when the prompt alone fills the window.
        let long = ChatRequest::new("tide ".repeat(700));
        assert!(matches!(
            model.stream(&long).await.err(),
            Some(LlmError::Config(_))
        ));
        assert_eq!(scripted.requests().len(), 1);
    }
}
