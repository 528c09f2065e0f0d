//! One story tick, end to end: gather context → plan (validated, repaired once, replanned
//! with the reasons) → run the plan's tools → write (streamed) → check → revise at most once →
//! extract memory updates (and judge whether the scene did what was planned: one that went
//! elsewhere, with the revision unspent, is revised toward its plan and read again) → commit
//! everything in one transaction → write the scene and plan files. Three LLM calls on the
//! clean path. Any failure rolls the transaction back, records
//! `errors/error_NNN.*`, and leaves the story exactly as it was. Each step is a function of its
//! own module; `docs/ARCHITECTURE.md` walks through them.

mod adopting;
mod cancel;
mod checking;
mod committing;
mod critic;
mod error;
mod events;
mod extracting;
mod extraction;
mod judging;
mod keeping;
mod outputs;
mod placing;
mod planning;
mod pressure;
mod preview;
mod realizing;
mod reextract;
mod requests;
mod review;
mod review_words;
mod reviewing;
mod runner;
mod salvage;
mod state;
mod writing;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use novel_llm::LanguageModel;

pub use adopting::{BeforeCommit, IMPORTED_RATIONALE, WrittenScene, adopt_scene};
pub use cancel::CancelToken;
pub use error::ErrorKind;
pub use error::StepError;
pub use events::{Stage, TickEvent, TickObserver};
pub use extraction::{ApplyReport, Extraction, LoopProgress, RecordChange, RelationshipChange};
pub use judging::{Judged, judge_scenes};
pub use keeping::{KeepAs, keep_failed_draft, keep_failed_draft_as};
pub use placing::{PLACED_RATIONALE, PlacedBrief, PlacedScene, write_placed};
pub use preview::{PreviewError, PromptPreview, preview_next, preview_next_for, preview_writer};
pub use reextract::{SceneExtraction, extract_scene};
pub use review::{
    ChangeCategory, PlanVerdict, Proposal, ProposedChange, Reviewer, ToolOutcome, Verdict,
};
pub use review_words::{ChangeLine, capitalised, label as field_label, plain as plain_value};
pub use state::ContextUsed;

use crate::clock::{Clock, timestamp};
use crate::evaluate::Finding;
use crate::executor::{ExecutionReport, ExecutorConfig, HealthBook};
use crate::model::{Scene, TickUsage};
use crate::novel::Novel;
use crate::plan::Plan;
use crate::store::Store;
use error::Failure;
use state::TickRun;

/// The models a tick talks to; one model may fill every role.
#[derive(Clone)]
pub struct Models {
    pub planner: Arc<dyn LanguageModel>,
    pub writer: Arc<dyn LanguageModel>,
    pub extractor: Arc<dyn LanguageModel>,
    /// The second opinion, when the novel asks for one (`generation.critic`).
    pub critic: Arc<dyn LanguageModel>,
    /// Rewrites a draft the checks found fault with (usually the writer's model).
    pub reviser: Arc<dyn LanguageModel>,
}

impl Models {
    pub fn single(model: Arc<dyn LanguageModel>) -> Models {
        Models {
            planner: model.clone(),
            writer: model.clone(),
            extractor: model.clone(),
            critic: model.clone(),
            reviser: model,
        }
    }

    /// The model of `role`, as the tick names roles in its usage.
    pub fn for_role(&self, role: &str) -> &Arc<dyn LanguageModel> {
        match role {
            "planner" => &self.planner,
            "extractor" => &self.extractor,
            "reviser" => &self.reviser,
            "critic" => &self.critic,
            _ => &self.writer,
        }
    }

    /// The most model tokens per estimated token among the roles whose prompts carry the
    /// story's context, so budgets scaled by it fit every one of those models.
    pub async fn tokens_per_estimate(&self) -> f64 {
        let ratios = futures::future::join_all(
            [
                &self.planner,
                &self.writer,
                &self.reviser,
                &self.extractor,
                &self.critic,
            ]
            .map(|m| m.tokens_per_estimate()),
        )
        .await;
        ratios
            .into_iter()
            .filter(|r| r.is_finite() && *r > 0.0)
            .reduce(f64::max)
            .unwrap_or(1.0)
    }
}

/// The health of the tools across a run of ticks: a tool that keeps failing stays out of the
/// planner's catalog for the rest of the run, not just the tick it failed in.
#[derive(Debug, Clone, Default)]
pub struct RunHealth(Arc<Mutex<HealthBook>>);

impl RunHealth {
    fn snapshot(&self) -> HealthBook {
        self.0.lock().map(|h| h.clone()).unwrap_or_default()
    }

    fn store(&self, book: HealthBook) {
        if let Ok(mut h) = self.0.lock() {
            *h = book;
        }
    }
}

#[derive(Debug, Clone)]
pub struct TickOptions {
    /// The writer's steering note for this scene.
    pub steering: Option<String>,
    /// Plans tried before the tick gives up (each may include one repair call).
    pub max_plan_attempts: u32,
    pub executor: ExecutorConfig,
    /// Shared by the ticks of one run; a fresh one per tick when not.
    pub health: RunHealth,
    /// This tick writes again a scene that was undone: its version is a regeneration.
    pub regeneration: bool,
    /// Who reviews the plan and the result before anything commits (review mode); `None`
    /// commits without asking.
    pub reviewer: Option<ReviewBy>,
    /// How many more times a run tries a tick whose scene could not be kept (see
    /// `evaluate::blocks_commit`), each with a fresh plan and draft, before it stops.
    pub retries: u32,
}

/// The reviewer of a tick, shareable between the ticks of a run.
#[derive(Clone)]
pub struct ReviewBy(pub Arc<dyn Reviewer>);

impl std::fmt::Debug for ReviewBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReviewBy(..)")
    }
}

impl TickOptions {
    fn health_snapshot(&self) -> HealthBook {
        self.health.snapshot()
    }

    fn store_health(&self, book: HealthBook) {
        self.health.store(book);
    }
}

impl Default for TickOptions {
    fn default() -> Self {
        TickOptions {
            steering: None,
            max_plan_attempts: 3,
            executor: ExecutorConfig::default(),
            health: RunHealth::default(),
            regeneration: false,
            reviewer: None,
            retries: 2,
        }
    }
}

/// What a committed tick produced.
#[derive(Debug, Clone)]
pub struct TickOutcome {
    pub tick: u32,
    pub scene: Scene,
    pub plan: Plan,
    pub execution: ExecutionReport,
    pub findings: Vec<Finding>,
    pub revised: bool,
    pub applied: ApplyReport,
    pub usage: TickUsage,
    /// What the engine repaired, clamped or dropped on the way.
    pub notes: Vec<String>,
    pub files: Vec<PathBuf>,
    /// Microseconds per step, the commit and the files included.
    pub timings: std::collections::BTreeMap<String, u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum TickError {
    #[error("tick {tick} failed while {}: {message}\nThe story is unchanged. Details: {}", stage.label(), error_file.display())]
    Failed {
        tick: u32,
        stage: Stage,
        kind: ErrorKind,
        message: String,
        error_file: PathBuf,
    },
    #[error("tick {tick} was cancelled; the story is unchanged")]
    Cancelled { tick: u32 },
    #[error("tick {tick} was rejected in review; the story is unchanged")]
    Rejected { tick: u32 },
    #[error("{0}")]
    Setup(String),
}

impl TickError {
    pub fn tick(&self) -> Option<u32> {
        match self {
            TickError::Failed { tick, .. }
            | TickError::Cancelled { tick }
            | TickError::Rejected { tick } => Some(*tick),
            TickError::Setup(_) => None,
        }
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            TickError::Failed { kind, .. } => *kind,
            TickError::Cancelled { .. } => ErrorKind::Cancelled,
            TickError::Rejected { .. } => ErrorKind::Rejected,
            TickError::Setup(_) => ErrorKind::Setup,
        }
    }
}

/// The plan the next tick would start from, without running its tools or writing anything
/// (`novel tick --dry-run`). Costs the planner's calls only; records nothing.
pub async fn dry_run(
    novel: &Novel,
    models: &Models,
    options: &TickOptions,
    observer: &dyn TickObserver,
    clock: &dyn Clock,
) -> Result<(Plan, TickUsage), TickError> {
    let state = novel.state().map_err(|e| TickError::Setup(e.to_string()))?;
    let cancel = CancelToken::new();
    let mut run = new_run(
        novel,
        state.current_tick + 1,
        models,
        options,
        observer,
        &cancel,
        clock,
    )
    .await;
    match planning::plan_alone(&mut run, novel.store()).await {
        Ok(plan) => Ok((plan, run.usage)),
        Err(failure) => Err(TickError::Setup(format!(
            "no plan while {}: {}",
            failure.stage.label(),
            crate::text::strip_controls(&failure.error.to_string())
        ))),
    }
}

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
async fn new_run<'a>(
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

/// Runs one tick on a novel opened for writing.
pub async fn run_tick(
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, TickError> {
    let tick = start(novel, "a tick", observer)?;
    let mut run = new_run(novel, tick, models, options, observer, cancel, clock).await;
    let result = tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(error::StepError::Cancelled.at(Stage::Gathering)),
        r = steps(&mut run, novel.store()) => r,
    };
    match result {
        Ok(outcome) => Ok(outcome),
        Err(Failure {
            error: error::StepError::Cancelled,
            ..
        }) => Err(TickError::Cancelled { tick }),
        Err(Failure {
            error: error::StepError::Rejected,
            ..
        }) => Err(TickError::Rejected { tick }),
        Err(failure) => Err(outputs::record_failure(novel, &run, failure)),
    }
}

/// The tick's steps in order; each maps its own errors to its stage.
async fn steps(run: &mut TickRun<'_>, store: &Store) -> Result<TickOutcome, Failure> {
    let acted = planning::plan_and_act(run, store).await?;
    let draft = writing::write(run, &acted).await?;
    let checked = checking::check_and_revise(run, &acted, draft).await?;
    let extraction = extracting::extract(run, &acted, &checked).await?;
    let (checked, extraction) = realizing::hold_to_plan(run, &acted, checked, extraction).await?;
    let (checked, extraction) = reviewing::review(run, &acted, checked, extraction).await?;
    let committed = committing::commit(run, acted, &checked, extraction).await?;
    run.emit(TickEvent::Committed {
        tick: run.tick,
        scene_id: committed.scene.id.clone(),
        title: committed.scene.title.clone(),
        words: committed.scene.word_count,
    });
    Ok(outputs::write_files(
        run,
        committed,
        checked.findings,
        checked.revised,
    ))
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_cache;
#[cfg(test)]
mod tests_grammar;
#[cfg(test)]
mod tests_keeping;
#[cfg(test)]
mod tests_records;
#[cfg(test)]
mod tests_story_mind;
