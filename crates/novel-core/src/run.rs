//! A run of N ticks with a Stop control: what the desktop app's **Run N** and the CLI's
//! `run --n` share (and [`regenerate`], the latest scene written again as a run of one, so a
//! front end shows it like any other run). "Stop" lets the current tick finish and commit, "cancel" abandons it (its
//! transaction rolls back); either way nothing is half-committed. A failed tick ends the run
//! and is reported, not thrown: the failure is already recorded in the novel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::clock::Clock;
use crate::control::{self, ControlError};
use crate::evaluate::Finding;
use crate::model::TickUsage;
use crate::novel::Novel;
use crate::tick;

// The tick as the front ends drive it: its models and options, events, outcome and errors, the
// writer's review, a preview of the next prompts, a failed draft kept, and old scenes judged
// against their plans. The tick itself is an inner layer.
pub use crate::plan::Plan;
/// The failed draft of the next tick kept over its checks, as one tick (not a run): what
/// `novel tick --keep` prints.
pub use crate::tick::keep_failed_draft as keep_failed_tick_draft;
pub use crate::tick::{
    CancelToken, ErrorKind, KeepAs, Models, PlanVerdict, PreviewError, PromptPreview, Proposal,
    ReviewBy, Reviewer, RunHealth, Stage, TickError, TickEvent, TickObserver, TickOptions,
    TickOutcome, Verdict, dry_run, judge_scenes, preview_next_for, run_tick,
};

/// Shared between the run and whoever may stop it (a signal handler, a Stop button).
#[derive(Debug, Clone, Default)]
pub struct RunControl {
    stop_after: Arc<AtomicBool>,
    cancel: CancelToken,
}

impl RunControl {
    pub fn new() -> RunControl {
        RunControl::default()
    }

    /// Finish the tick in progress, then stop.
    pub fn stop_after_current(&self) {
        self.stop_after.store(true, Ordering::SeqCst);
    }

    /// Abandon the tick in progress; it changes nothing.
    pub fn cancel(&self) {
        self.stop_after_current();
        self.cancel.cancel();
    }

    pub fn stopping(&self) -> bool {
        self.stop_after.load(Ordering::SeqCst)
    }

    pub fn token(&self) -> &CancelToken {
        &self.cancel
    }
}

/// What a run reports as it goes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    /// Progress of tick `index` (1-based) of `total`.
    Tick {
        index: u32,
        total: u32,
        event: TickEvent,
    },
    TickCommitted {
        summary: TickSummary,
    },
    /// Tick `index` failed in a way a fresh draft may not (its scene could not be kept); the
    /// run tries it again, `attempt` of `retries`.
    Retrying {
        index: u32,
        attempt: u32,
        retries: u32,
        failure: RunFailure,
    },
    Finished {
        report: RunReport,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TickSummary {
    pub tick: u32,
    pub scene_id: String,
    pub title: String,
    pub words: u32,
    pub summary: Vec<String>,
    pub calls: u32,
    pub tokens: u32,
    pub revised: bool,
    pub findings: Vec<Finding>,
    pub usage: TickUsage,
    /// What the engine repaired, clamped or dropped on the way.
    pub notes: Vec<String>,
    /// The scene and plan files written.
    pub files: Vec<String>,
}

impl From<&TickOutcome> for TickSummary {
    fn from(o: &TickOutcome) -> Self {
        TickSummary {
            tick: o.tick,
            scene_id: o.scene.id.clone(),
            title: o.scene.title.clone(),
            words: o.scene.word_count,
            summary: o.scene.summary.clone(),
            calls: o.usage.calls(),
            tokens: o.usage.total_tokens(),
            revised: o.revised,
            findings: o.findings.clone(),
            usage: o.usage.clone(),
            notes: o.notes.clone(),
            files: o.files.iter().map(|f| f.display().to_string()).collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum RunEnd {
    /// All requested ticks committed.
    Completed,
    /// Stopped after a committed tick, as asked.
    Stopped,
    /// The tick in progress was cancelled and rolled back.
    Cancelled,
    /// The writer rejected the tick in review; it changed nothing.
    Rejected,
    /// A tick failed; see `failure`.
    Failed,
}

impl RunEnd {
    /// How a run ends when one of its ticks does not commit.
    fn of(e: &TickError) -> RunEnd {
        match e {
            TickError::Cancelled { .. } => RunEnd::Cancelled,
            TickError::Rejected { .. } => RunEnd::Rejected,
            _ => RunEnd::Failed,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunFailure {
    pub tick: Option<u32>,
    /// The stage the tick was in, when it got that far.
    pub stage: Option<Stage>,
    pub kind: ErrorKind,
    pub message: String,
    pub error_file: Option<String>,
    /// The whole error as a sentence for the writer: what failed, that the story is unchanged,
    /// and where the details are.
    pub text: String,
}

impl From<&TickError> for RunFailure {
    fn from(e: &TickError) -> Self {
        let text = e.to_string();
        match e {
            TickError::Failed {
                tick,
                stage,
                kind,
                message,
                error_file,
            } => RunFailure {
                tick: Some(*tick),
                stage: Some(*stage),
                kind: *kind,
                message: message.clone(),
                error_file: Some(error_file.display().to_string()),
                text,
            },
            TickError::Cancelled { tick } | TickError::Rejected { tick } => RunFailure {
                tick: Some(*tick),
                stage: None,
                kind: e.kind(),
                message: e.to_string(),
                error_file: None,
                text,
            },
            TickError::Setup(message) => RunFailure {
                tick: None,
                stage: None,
                kind: ErrorKind::Setup,
                message: message.clone(),
                error_file: None,
                text,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunReport {
    pub requested: u32,
    pub committed: Vec<TickSummary>,
    pub end: RunEnd,
    pub failure: Option<RunFailure>,
}

/// A failure another draft may not have: the scene itself could not be kept.
fn retry_with_fresh_draft(e: &TickError) -> bool {
    e.kind() == ErrorKind::ProseRejected
}

/// Runs up to `n` ticks, reporting through `on_event`, until done, stopped, cancelled or failed.
pub async fn run_ticks(
    novel: &mut Novel,
    models: &Models,
    n: u32,
    options: &TickOptions,
    control: &RunControl,
    clock: &dyn Clock,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> RunReport {
    // A tool that keeps failing stays out of the catalog for the rest of this run.
    let health = RunHealth::default();
    let mut report = RunReport {
        requested: n,
        committed: Vec::new(),
        end: RunEnd::Completed,
        failure: None,
    };
    for index in 1..=n {
        if control.stopping() {
            report.end = RunEnd::Stopped;
            break;
        }
        // The steering note is for the next scene only, not every scene of the run.
        let options = TickOptions {
            steering: if index == 1 {
                options.steering.clone()
            } else {
                None
            },
            health: health.clone(),
            ..options.clone()
        };
        let observer = |event: TickEvent| {
            on_event(RunEvent::Tick {
                index,
                total: n,
                event,
            })
        };
        let mut attempt = 0;
        let result = loop {
            let result =
                tick::run_tick(novel, models, &options, &observer, control.token(), clock).await;
            match result {
                Err(e)
                    if retry_with_fresh_draft(&e)
                        && attempt < options.retries
                        && !control.stopping() =>
                {
                    attempt += 1;
                    on_event(RunEvent::Retrying {
                        index,
                        attempt,
                        retries: options.retries,
                        failure: RunFailure::from(&e),
                    });
                }
                other => break other,
            }
        };
        match result {
            Ok(outcome) => {
                // Every tenth tick leaves a backup of novel.db; a failed backup is not worth
                // the run, only a warning.
                if let Err(e) = crate::backup::after_commit(
                    novel.store().conn(),
                    novel.root(),
                    outcome.tick,
                    clock,
                ) {
                    tracing::warn!("tick {}: the periodic backup failed: {e}", outcome.tick);
                }
                let summary = TickSummary::from(&outcome);
                on_event(RunEvent::TickCommitted {
                    summary: summary.clone(),
                });
                report.committed.push(summary);
            }
            Err(e) => {
                report.end = RunEnd::of(&e);
                report.failure = Some(RunFailure::from(&e));
                break;
            }
        }
    }
    if report.end == RunEnd::Completed && report.committed.len() < n as usize {
        report.end = RunEnd::Stopped;
    }
    on_event(RunEvent::Finished {
        report: report.clone(),
    });
    report
}

/// Writes the latest scene again ([`control::regenerate`]) with the events and the report of a
/// one-tick run: a failed, cancelled or rejected attempt is in the report (the old scene is
/// back); only a regeneration that cannot start (no scene yet, a read-only novel) is an error.
pub async fn regenerate(
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    control: &RunControl,
    clock: &dyn Clock,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> Result<RunReport, ControlError> {
    let observer = observer_of_one(on_event);
    match control::regenerate(novel, models, options, &observer, control.token(), clock).await {
        Ok(outcome) => Ok(report_of_one(Ok(outcome), on_event)),
        Err(ControlError::Tick(e)) => Ok(report_of_one(Err(e), on_event)),
        Err(other) => Err(other),
    }
}

/// Keeps the failed draft of the next tick over the checks (see
/// [`tick::keep_failed_draft`]) as a run of one, so a front end shows it like any other.
pub async fn keep_failed_draft(
    novel: &mut Novel,
    models: &Models,
    control: &RunControl,
    clock: &dyn Clock,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> RunReport {
    keep_failed_draft_as(novel, models, tick::KeepAs::Scene, control, clock, on_event).await
}

/// [`keep_failed_draft`], or with [`tick::KeepAs::Draft`] with no model call at all, for the
/// writer to finish by hand ("Keep as a draft").
pub async fn keep_failed_draft_as(
    novel: &mut Novel,
    models: &Models,
    keep_as: tick::KeepAs,
    control: &RunControl,
    clock: &dyn Clock,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> RunReport {
    let observer = observer_of_one(on_event);
    let result =
        tick::keep_failed_draft_as(novel, models, keep_as, &observer, control.token(), clock).await;
    report_of_one(result, on_event)
}

/// Tick events of a run of one, as run events.
fn observer_of_one(on_event: &(dyn Fn(RunEvent) + Sync)) -> impl Fn(TickEvent) + Sync + '_ {
    move |event: TickEvent| {
        on_event(RunEvent::Tick {
            index: 1,
            total: 1,
            event,
        })
    }
}

/// The report of a run of one tick, its committed and finished events sent.
fn report_of_one(
    result: Result<TickOutcome, TickError>,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> RunReport {
    let mut report = RunReport {
        requested: 1,
        committed: Vec::new(),
        end: RunEnd::Completed,
        failure: None,
    };
    match result {
        Ok(outcome) => {
            let summary = TickSummary::from(&outcome);
            on_event(RunEvent::TickCommitted {
                summary: summary.clone(),
            });
            report.committed.push(summary);
        }
        Err(e) => {
            report.end = RunEnd::of(&e);
            report.failure = Some(RunFailure::from(&e));
        }
    }
    on_event(RunEvent::Finished {
        report: report.clone(),
    });
    report
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use novel_llm::ScriptedModel;
    use serde_json::json;

    use super::*;
    use crate::store;
    use crate::tick::tests::{PROSE, clock, extraction, fingerprint, novel};

    fn quiet_plan() -> serde_json::Value {
        json!({"rationale": "Breathe.", "scene_intention": "Tamsin waits out the rain.",
               "pov_character": "C0", "target_location": "L0", "actions": []})
    }

    fn clean_tick(model: ScriptedModel) -> ScriptedModel {
        model
            .reply_json(&quiet_plan())
            .reply(PROSE)
            .reply_json(&extraction())
    }

    #[tokio::test]
    async fn stop_lets_the_current_tick_commit_then_ends_the_run() {
        let (_tmp, mut novel) = novel();
        let model = clean_tick(clean_tick(ScriptedModel::new()));
        let models = Models::single(Arc::new(model.clone()));
        let control = RunControl::new();
        let events = Mutex::new(Vec::new());
        let on_event = |e: RunEvent| {
            // The writer presses Stop while the first scene is being written.
            if let RunEvent::Tick {
                event: TickEvent::ProseDelta { .. },
                ..
            } = &e
            {
                control.stop_after_current();
            }
            events.lock().unwrap().push(e);
        };
        let options = TickOptions {
            steering: Some("Let it rain.".into()),
            ..TickOptions::default()
        };
        let report = run_ticks(
            &mut novel,
            &models,
            5,
            &options,
            &control,
            &clock(),
            &on_event,
        )
        .await;
        assert_eq!(report.end, RunEnd::Stopped);
        assert_eq!(report.committed.len(), 1);
        assert_eq!(model.calls(), 3);
        assert_eq!(store::list_scenes(novel.store().conn()).unwrap().len(), 1);
        let events = events.lock().unwrap();
        assert!(
            matches!(events.last(), Some(RunEvent::Finished { report: r }) if r.committed.len() == 1)
        );
        assert!(events.iter().any(
            |e| matches!(e, RunEvent::TickCommitted { summary } if summary.title == "Low Tide")
        ));
    }

    /// The app's Run N and the CLI's `run --n --note` both call [`run_ticks`]: the steering
    /// note guides the run's first scene only, while the author's note (standing guidance)
    /// reaches every scene's planner and writer.
    #[tokio::test]
    async fn the_steering_note_guides_the_first_scene_of_a_run_and_the_authors_note_every_scene() {
        let (_tmp, mut novel) = novel();
        crate::bible::set_author_note(&mut novel, "Never name the sea.", &clock()).unwrap();
        let model = clean_tick(clean_tick(ScriptedModel::new()));
        let models = Models::single(Arc::new(model.clone()));
        let options = TickOptions {
            steering: Some("Let the lamps go out one by one.".into()),
            ..TickOptions::default()
        };
        let report = run_ticks(
            &mut novel,
            &models,
            2,
            &options,
            &RunControl::new(),
            &clock(),
            &|_| {},
        )
        .await;
        assert_eq!(report.end, RunEnd::Completed);
        let prompts: Vec<String> = model
            .requests()
            .iter()
            .map(novel_llm::render_prompt)
            .collect();
        assert_eq!(prompts.len(), 6, "plan, write and extract, twice");
        let steered = |i: usize| prompts[i].contains("Let the lamps go out one by one.");
        let noted = |i: usize| prompts[i].contains("Never name the sea.");
        assert!(steered(0) && steered(1), "scene 1's planner and writer");
        assert!(!steered(3) && !steered(4), "scene 2 is not steered");
        assert!(
            [0, 1, 3, 4].into_iter().all(noted),
            "the author's note is in every planner and writer prompt"
        );
    }

    #[tokio::test]
    async fn a_failed_tick_ends_the_run_with_its_error_and_keeps_earlier_scenes() {
        let (_tmp, mut novel) = novel();
        // The second tick's provider fails for good: no replies left after the first tick.
        let model = clean_tick(ScriptedModel::new());
        let models = Models::single(Arc::new(model));
        let control = RunControl::new();
        let report = run_ticks(
            &mut novel,
            &models,
            3,
            &TickOptions::default(),
            &control,
            &clock(),
            &|_| {},
        )
        .await;
        assert_eq!(report.end, RunEnd::Failed);
        assert_eq!(report.committed.len(), 1);
        let failure = report.failure.unwrap();
        assert_eq!(failure.tick, Some(2));
        assert!(failure.error_file.unwrap().ends_with("error_002.json"));
        assert_eq!(
            store::load_state(novel.store().conn())
                .unwrap()
                .current_tick,
            1
        );
    }

    #[tokio::test]
    async fn cancel_rolls_the_tick_in_progress_back() {
        let (_tmp, mut novel) = novel();
        let before = fingerprint(&novel);
        let model = clean_tick(ScriptedModel::new());
        let models = Models::single(Arc::new(model));
        let control = RunControl::new();
        let on_event = |e: RunEvent| {
            if let RunEvent::Tick {
                event: TickEvent::ProseDelta { .. },
                ..
            } = e
            {
                control.cancel();
            }
        };
        let report = run_ticks(
            &mut novel,
            &models,
            2,
            &TickOptions::default(),
            &control,
            &clock(),
            &on_event,
        )
        .await;
        assert_eq!(report.end, RunEnd::Cancelled);
        assert!(report.committed.is_empty());
        assert_eq!(fingerprint(&novel), before);
    }

    #[tokio::test]
    async fn regenerate_reports_like_a_run_of_one_and_keeps_the_old_scene() {
        let (_tmp, mut novel) = novel();
        let models = Models::single(Arc::new(clean_tick(ScriptedModel::new())));
        run_ticks(
            &mut novel,
            &models,
            1,
            &TickOptions::default(),
            &RunControl::new(),
            &clock(),
            &|_| {},
        )
        .await;
        let events = Mutex::new(Vec::new());
        let again = ScriptedModel::new()
            .reply_json(&quiet_plan())
            .reply(format!("{PROSE}\n\nThe rain stopped."))
            .reply_json(&extraction());
        let report = regenerate(
            &mut novel,
            &Models::single(Arc::new(again)),
            &TickOptions::default(),
            &RunControl::new(),
            &clock(),
            &|e| events.lock().unwrap().push(e),
        )
        .await
        .unwrap();
        assert_eq!(report.end, RunEnd::Completed);
        assert_eq!(report.committed[0].tick, 1, "the same scene, written again");
        let events = events.lock().unwrap();
        assert!(matches!(
            events.first(),
            Some(RunEvent::Tick {
                index: 1,
                total: 1,
                event: TickEvent::Started { tick: 1 }
            })
        ));
        assert!(
            matches!(events.last(), Some(RunEvent::Finished { report: r }) if r.committed.len() == 1)
        );
        let versions = store::versions_of(novel.store().conn(), 1).unwrap();
        assert_eq!(versions.len(), 2, "the old scene stays as a version");
        assert!(versions[1].prose.ends_with("The rain stopped."));
    }

    #[tokio::test]
    async fn a_failed_regeneration_is_in_the_report_and_nothing_to_regenerate_is_an_error() {
        let (_tmp, mut novel) = novel();
        let none = regenerate(
            &mut novel,
            &Models::single(Arc::new(ScriptedModel::new())),
            &TickOptions::default(),
            &RunControl::new(),
            &clock(),
            &|_| {},
        )
        .await;
        assert!(matches!(none, Err(ControlError::NothingToRegenerate)));
        let models = Models::single(Arc::new(clean_tick(ScriptedModel::new())));
        run_ticks(
            &mut novel,
            &models,
            1,
            &TickOptions::default(),
            &RunControl::new(),
            &clock(),
            &|_| {},
        )
        .await;
        let before = fingerprint(&novel);
        // The model has nothing more to say: the new attempt fails and the old scene stays.
        let report = regenerate(
            &mut novel,
            &Models::single(Arc::new(ScriptedModel::new())),
            &TickOptions::default(),
            &RunControl::new(),
            &clock(),
            &|_| {},
        )
        .await
        .unwrap();
        assert_eq!(report.end, RunEnd::Failed);
        assert_eq!(report.failure.unwrap().tick, Some(1));
        assert_eq!(fingerprint(&novel), before);
    }
}
