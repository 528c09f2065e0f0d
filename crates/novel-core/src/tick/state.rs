//! What the steps of one tick share: who to tell about progress, the models and options, and
//! what the tick has gathered so far — usage, timings, the context each prompt used, notes on
//! what the engine repaired or dropped, and the partial plan, execution and draft an error
//! file records when a later step fails.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use novel_llm::Completion;
use serde::Serialize;
use serde_json::Value;

use super::cancel::CancelToken;
use super::events::{Stage, TickEvent, TickObserver};
use super::options::{Models, TickOptions};
use crate::clock::Clock;
use crate::config::{NovelConfig, Role};
use crate::context::SectionReport;
use crate::model::{Step, TickUsage, Timings};
use crate::retrieval::Retrieval;

/// What a failing tick had got to, for the error files: nothing the model produced is lost.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Partial {
    pub plan: Option<Value>,
    pub execution: Option<Value>,
    /// The scene as written (or revised) before the failure.
    pub prose: Option<String>,
    /// The checks' findings on that prose, when they kept it from being committed.
    pub findings: Option<Value>,
}

/// The prompt sections a tick's requests carried, with their tokens against budget.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ContextUsed {
    pub planner: Vec<SectionReport>,
    pub writer: Vec<SectionReport>,
}

pub(super) struct TickRun<'a> {
    pub tick: u32,
    pub root: PathBuf,
    pub config: NovelConfig,
    pub retrieval: Arc<Retrieval>,
    pub models: &'a Models,
    pub options: &'a TickOptions,
    pub observer: &'a dyn TickObserver,
    pub clock: &'a dyn Clock,
    pub cancel: &'a CancelToken,
    pub started_at: String,
    pub usage: TickUsage,
    /// Microseconds per step: the engine's own (gather, validate, tools, checks, apply, embed,
    /// commit, files) and those that wait on a model (planning, writing, revising, extracting).
    pub timings: Timings,
    pub context_used: ContextUsed,
    /// What the engine repaired, clamped or dropped on the way, shown on the timeline.
    pub notes: Vec<String>,
    pub partial: Partial,
    /// The story as the scene starts ([`super::requests::scene_context`]), gathered once for
    /// the writer and reused by the reviser and the extractor.
    pub scene_context: Option<crate::context::StoryContext>,
    /// The writer's request exactly as sent: the extractor continues its conversation.
    pub writer_request: Option<novel_llm::ChatRequest>,
    /// A scene written at a place the writer chose in the book (`placing`): the records
    /// describe later scenes than this one, and its failure is not the next scene's.
    pub placed: bool,
}

impl TickRun<'_> {
    pub fn stage(&self, stage: Stage) {
        self.observer.on_event(TickEvent::Stage { stage });
    }

    pub fn emit(&self, event: TickEvent) {
        self.observer.on_event(event);
    }

    /// Adds one call to the tick's usage and tells the observer.
    pub fn record_usage(&mut self, role: Role, c: &Completion) {
        let prices = self.models.for_role(role).prices();
        self.usage.record(role, c, prices);
        self.emit(TickEvent::Usage {
            role,
            prompt_tokens: c.usage.prompt_tokens,
            completion_tokens: c.usage.completion_tokens,
        });
    }

    /// Adds the time since `since` to `step`.
    pub fn time(&mut self, step: Step, since: Instant) {
        self.add_time(step, since.elapsed());
    }

    /// Adds `spent` to `step`. Timings are microseconds: the engine's own steps take well
    /// under a millisecond, and a benchmark must see them.
    pub fn add_time(&mut self, step: Step, spent: std::time::Duration) {
        let us = u64::try_from(spent.as_micros()).unwrap_or(u64::MAX);
        let total = self.timings.entry(step).or_default();
        *total = total.saturating_add(us);
    }

    pub fn note(&mut self, note: impl Into<String>) {
        let note = note.into();
        tracing::info!(tick = self.tick, "{note}");
        self.notes.push(note);
    }
}
