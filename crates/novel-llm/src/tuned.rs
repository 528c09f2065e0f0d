//! A profile's sampling settings on every request its model sends: [`Tuned`] wraps any
//! provider and applies [`Sampling`] (temperature and top_p where the request sets none, the
//! output ceiling) before handing the request on. `connect` wraps each model it builds, so the
//! settings hold for every caller: the engine's roles, `providers test`, the app.

use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::error::LlmError;
use crate::model::{EventStream, LanguageModel};
use crate::settings::Sampling;
use crate::types::{ChatRequest, Completion, ModelInfo};

/// A model whose requests get the profile's sampling settings.
pub(crate) struct Tuned {
    inner: Arc<dyn LanguageModel>,
    sampling: Sampling,
}

/// `model` with `sampling` applied to its requests (itself when there is nothing to apply).
pub(crate) fn tune(model: Arc<dyn LanguageModel>, sampling: Sampling) -> Arc<dyn LanguageModel> {
    if sampling.is_empty() {
        return model;
    }
    Arc::new(Tuned {
        inner: model,
        sampling,
    })
}

impl LanguageModel for Tuned {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        async move {
            let req = self.sampling.apply(req);
            self.inner.complete(&req).await
        }
        .boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        async move {
            let req = self.sampling.apply(req);
            self.inner.stream(&req).await
        }
        .boxed()
    }

    fn describe(&self) -> ModelInfo {
        self.inner.describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScriptedModel;

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
