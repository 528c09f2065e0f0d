//! How every kind of tick starts: the tick's number told to the observer, and its run state
//! with the context budgets counted as its models count tokens.

use super::cancel::CancelToken;
use super::events::{TickEvent, TickObserver};
use super::options::{Models, TickOptions};
use super::outcome::TickError;
use super::state::{ContextUsed, TickRun};
use crate::clock::{Clock, timestamp};
use crate::model::TickUsage;
use crate::novel::Novel;

/// The number of the tick about to start on `novel` (which `what` must be able to write), told
/// to the observer.
pub(super) fn start(
    novel: &Novel,
    what: &str,
    observer: &dyn TickObserver,
) -> Result<u32, TickError> {
    if !novel.is_writable() {
        return Err(TickError::Setup(format!(
            "{} is open read-only; {what} needs to write",
            novel.root().display()
        )));
    }
    let state = novel.state().map_err(|e| TickError::Setup(e.to_string()))?;
    let tick = state.current_tick + 1;
    observer.on_event(TickEvent::Started { tick });
    Ok(tick)
}

/// `config` with its context budgets in estimated tokens for models that count
/// `tokens_per_estimate` of their own tokens per estimated one: what a tick (and the preview of
/// one) gathers the story's context with.
pub(crate) fn budgeted(
    config: &crate::config::NovelConfig,
    tokens_per_estimate: f64,
) -> crate::config::NovelConfig {
    let mut config = config.clone();
    config.generation.context = config.generation.context.for_tokenizer(tokens_per_estimate);
    config
}

/// A run of tick `tick`, its context budgets counted as its models count tokens.
pub(super) async fn new_run<'a>(
    novel: &Novel,
    tick: u32,
    models: &'a Models,
    options: &'a TickOptions,
    observer: &'a dyn TickObserver,
    cancel: &'a CancelToken,
    clock: &'a dyn Clock,
) -> TickRun<'a> {
    let config = budgeted(novel.config(), models.tokens_per_estimate().await);
    TickRun {
        tick,
        root: novel.root().to_path_buf(),
        config,
        retrieval: novel.retrieval(),
        models,
        options,
        observer,
        clock,
        cancel,
        started_at: timestamp(clock.now()),
        usage: TickUsage::default(),
        timings: Default::default(),
        context_used: ContextUsed::default(),
        notes: Vec::new(),
        partial: Default::default(),
        scene_context: None,
        writer_request: None,
        placed: false,
    }
}
