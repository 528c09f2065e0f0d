//! Spending limits on a sequence of calls: a [`Budget`] holds a limit for the current run and
//! one for everything spent so far (the caller says what was spent before the run), in tokens
//! and in cost, and [`metered`] wraps a model so that each call is checked *before* it is sent
//! — the prompt's estimated tokens plus the most the answer may take (`max_tokens`) — and
//! refused with [`LlmError::LimitReached`] when it would go past a limit; what each call spent
//! (the server's usage, else an estimate) is added after it. Several models (one per role) can
//! share one budget. Cost comes from the wrapped profile's prices; a model without prices is
//! free.

use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt};
use serde::{Deserialize, Serialize};

use crate::error::{LimitScope, LlmError};
use crate::model::{EventStream, LanguageModel};
use crate::prices::Prices;
use crate::tokens::{count_tokens, estimate_prompt_tokens};
use crate::types::{ChatRequest, Completion, ModelInfo, StreamEvent, Usage};

/// Limits on tokens and cost; `None` is no limit.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<u32>))]
    pub tokens: Option<u64>,
    /// In the prices' currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

impl Limits {
    pub fn is_unlimited(&self) -> bool {
        self.tokens.is_none() && self.cost.is_none()
    }
}

/// Tokens and cost spent.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Spent {
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub tokens: u64,
    pub cost: f64,
}

impl Spent {
    fn plus(self, other: Spent) -> Spent {
        Spent {
            tokens: self.tokens.saturating_add(other.tokens),
            cost: self.cost + other.cost,
        }
    }

    fn of(usage: &Usage, prices: Option<Prices>) -> Spent {
        let (prompt, completion) = (
            u64::from(usage.prompt_tokens),
            u64::from(usage.completion_tokens),
        );
        Spent {
            tokens: prompt.saturating_add(completion),
            cost: prices.map_or(0.0, |p| p.cost_of(usage)),
        }
    }
}

/// A run's limits and what it has spent; shared by the models of one run.
#[derive(Debug)]
pub struct Budget {
    run: Limits,
    total: Limits,
    before: Spent,
    spent: Mutex<Spent>,
}

impl Budget {
    /// A budget for a run with `run` limits, `total` limits on everything, and `before` spent
    /// before the run.
    pub fn new(run: Limits, total: Limits, before: Spent) -> Arc<Budget> {
        Arc::new(Budget {
            run,
            total,
            before,
            spent: Mutex::default(),
        })
    }

    /// Spent in this run.
    pub fn spent(&self) -> Spent {
        *self.spent.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn add(&self, more: Spent) {
        let mut spent = self.spent.lock().unwrap_or_else(PoisonError::into_inner);
        *spent = spent.plus(more);
    }

    /// Refuses a call that would take `next` past a limit.
    pub fn check(&self, next: Spent) -> Result<(), LlmError> {
        let run = self.spent();
        let total = self.before.plus(run);
        for (scope, limits, spent) in [
            (LimitScope::Run, self.run, run),
            (LimitScope::Total, self.total, total),
        ] {
            let after = spent.plus(next);
            if let Some(limit) = limits.tokens
                && after.tokens > limit
            {
                return Err(LlmError::LimitReached {
                    scope,
                    limit: format!("{limit} tokens"),
                    spent: format!("{} tokens", spent.tokens),
                    next: format!("{} tokens", next.tokens),
                });
            }
            if let Some(limit) = limits.cost
                && after.cost > limit
            {
                return Err(LlmError::LimitReached {
                    scope,
                    limit: format!("{limit:.4} in cost"),
                    spent: format!("{:.4}", spent.cost),
                    next: format!("{:.4}", next.cost),
                });
            }
        }
        Ok(())
    }
}

/// `model` with each call checked against and counted in `budget`, priced at `prices`.
pub fn metered(
    model: Arc<dyn LanguageModel>,
    budget: Arc<Budget>,
    prices: Option<Prices>,
) -> Arc<dyn LanguageModel> {
    Arc::new(Metered {
        inner: model,
        budget,
        prices,
    })
}

struct Metered {
    inner: Arc<dyn LanguageModel>,
    budget: Arc<Budget>,
    prices: Option<Prices>,
}

impl Metered {
    /// The most `req` can spend: its prompt, estimated, and the longest answer it allows.
    fn worst_case(&self, req: &ChatRequest) -> Spent {
        let usage = Usage {
            prompt_tokens: estimate_prompt_tokens(req),
            completion_tokens: req.max_tokens.unwrap_or(0),
            estimated: true,
            ..Usage::default()
        };
        Spent::of(&usage, self.prices)
    }
}

impl LanguageModel for Metered {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        async move {
            self.budget.check(self.worst_case(req))?;
            let done = self.inner.complete(req).await?;
            self.budget.add(Spent::of(&done.usage, self.prices));
            Ok(done)
        }
        .boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        async move {
            self.budget.check(self.worst_case(req))?;
            let events = self.inner.stream(req).await?;
            // Counted as the answer arrives: the server's usage where it sends one, else the
            // prompt's estimate and the text's tokens when the stream ends.
            let tally = Arc::new(Mutex::new((None::<Usage>, String::new())));
            let seen = tally.clone();
            let watched = events.map(move |event| {
                let mut t = seen.lock().unwrap_or_else(PoisonError::into_inner);
                match &event {
                    Ok(StreamEvent::Usage(u)) => t.0 = Some(*u),
                    Ok(StreamEvent::TextDelta(text)) => t.1.push_str(text),
                    _ => {}
                }
                event
            });
            let budget = self.budget.clone();
            let prices = self.prices;
            let prompt = estimate_prompt_tokens(req);
            let settle = futures::stream::once(async move {
                let t = tally.lock().unwrap_or_else(PoisonError::into_inner);
                let usage = t.0.unwrap_or(Usage {
                    prompt_tokens: prompt,
                    completion_tokens: count_tokens(&t.1),
                    estimated: true,
                    ..Usage::default()
                });
                budget.add(Spent::of(&usage, prices));
            })
            .filter_map(|()| futures::future::ready(None));
            Ok(watched.chain(settle).boxed())
        }
        .boxed()
    }

    fn describe(&self) -> ModelInfo {
        self.inner.describe()
    }

    fn prices(&self) -> Option<Prices> {
        self.prices
    }

    fn tokens_per_estimate(&self) -> BoxFuture<'_, f64> {
        self.inner.tokens_per_estimate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScriptedModel;
    use crate::model::collect_stream;

    fn prices() -> Prices {
        Prices {
            prompt_per_million: 1_000_000.0,
            completion_per_million: 2_000_000.0,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn a_call_that_would_pass_the_run_limit_is_refused_before_it_is_sent() {
        let scripted = ScriptedModel::new().reply("one two three").reply("four");
        let budget = Budget::new(
            Limits {
                tokens: Some(60),
                cost: None,
            },
            Limits::default(),
            Spent::default(),
        );
        let model = metered(Arc::new(scripted.clone()), budget.clone(), None);
        let req = ChatRequest::new("hello there").with_max_tokens(10);
        let first = model.complete(&req).await.unwrap();
        let spent = budget.spent().tokens;
        assert_eq!(
            spent,
            u64::from(first.usage.prompt_tokens + first.usage.completion_tokens)
        );
        // Room for the prompt but not for the longest answer it allows.
        let big = ChatRequest::new("hello there").with_max_tokens(60 - spent as u32);
        let err = model.complete(&big).await.unwrap_err();
        assert!(
            matches!(
                err,
                LlmError::LimitReached {
                    scope: LimitScope::Run,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("60 tokens"), "{err}");
        assert_eq!(
            scripted.requests().len(),
            1,
            "the refused call was not sent"
        );
    }

    #[tokio::test]
    async fn cost_counts_against_the_total_with_what_was_spent_before() {
        let scripted = ScriptedModel::new().reply("a b c");
        let budget = Budget::new(
            Limits::default(),
            Limits {
                tokens: None,
                cost: Some(100.0),
            },
            Spent {
                tokens: 0,
                cost: 95.0,
            },
        );
        let model = metered(Arc::new(scripted.clone()), budget.clone(), Some(prices()));
        assert_eq!(model.prices(), Some(prices()));
        let err = model
            .complete(&ChatRequest::new("x y z"))
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                LlmError::LimitReached {
                    scope: LimitScope::Total,
                    ..
                }
            ),
            "{err}"
        );
        assert!(scripted.requests().is_empty());
    }

    #[tokio::test]
    async fn a_stream_is_counted_when_it_ends() {
        let scripted = ScriptedModel::new().reply("four words of prose");
        let budget = Budget::new(Limits::default(), Limits::default(), Spent::default());
        let model = metered(Arc::new(scripted), budget.clone(), Some(prices()));
        let req = ChatRequest::new("write");
        let stream = model.stream(&req).await.unwrap();
        let done = collect_stream(stream, &req, "m", |_| {}).await.unwrap();
        let tokens = u64::from(done.usage.prompt_tokens + done.usage.completion_tokens);
        assert!(tokens > 0);
        assert_eq!(budget.spent().tokens, tokens);
        assert!(budget.spent().cost > 0.0);
    }
}
