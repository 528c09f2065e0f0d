//! Write: **Next scene**, **Run N** and **Regenerate** with Stop. A run streams its progress
//! (stages, tool results, prose deltas, usage, each committed scene, the final report) over a
//! `Channel` and runs on a blocking thread of its own, so the window never waits for the model.
//! In review mode the tick waits at the session's review desk for `plan_decision` and
//! `review_decision` (see [`crate::review`]).

use std::sync::Arc;

use novel_core::Novel;
use novel_core::clock::SystemClock;
use novel_core::role_models;
use novel_core::run::{
    self, Models, PlanVerdict, ReviewBy, RunControl, RunEnd, RunEvent, RunReport, TickOptions,
    Verdict,
};
use novel_llm::{Limits, ProfileStore, ProviderConfig};
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tokio::sync::OwnedMutexGuard;

use super::open_novel::changed;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::review::{DeskReviewer, ReviewDesk};
use crate::state::AppState;

/// The most ticks one run may ask for; longer runs are a series of runs.
const MAX_TICKS: u32 = 50;

/// The user's provider profiles; a clear message when there are none.
pub(crate) fn profiles() -> AppResult<ProviderConfig> {
    let store = ProfileStore::from_env()?;
    if !store.path().exists() {
        return Err(AppError::Provider {
            message: "No AI provider is set up yet. Open Settings → Providers, add one (for \
                      example a local OpenAI-compatible server such as llama.cpp or Ollama), \
                      make it the default and press Test connection."
                .into(),
        });
    }
    Ok(store.load()?)
}

/// What a run does.
#[derive(Clone, Copy)]
enum Job {
    /// Up to this many new scenes.
    Ticks(u32),
    /// The latest scene written again.
    Regenerate,
    /// The failed draft of the next scene kept as it is: as a scene, or as a draft to finish.
    KeepFailedDraft(run::KeepAs),
}

/// Writes up to `n` scenes; `steering` guides the first. Resolves when the run ends, however
/// it ends: tick failures are part of the report, not errors.
#[tauri::command]
#[specta::specta]
pub async fn run_ticks(
    app: AppHandle,
    state: State<'_, AppState>,
    n: u32,
    steering: Option<String>,
    on_event: Channel<RunEvent>,
) -> AppResult<RunReport> {
    if n == 0 || n > MAX_TICKS {
        return Err(AppError::invalid(format!(
            "Ask for between 1 and {MAX_TICKS} scenes."
        )));
    }
    drive(app, &state, Job::Ticks(n), steering, on_event).await
}

/// Writes the latest scene again (guided by `steering` when given) as a run of one: its
/// memory changes are undone exactly, a new tick runs, the old scene stays as a version. A
/// failed, cancelled or rejected attempt brings the old scene back.
#[tauri::command]
#[specta::specta]
pub async fn regenerate_scene(
    app: AppHandle,
    state: State<'_, AppState>,
    steering: Option<String>,
    on_event: Channel<RunEvent>,
) -> AppResult<RunReport> {
    drive(app, &state, Job::Regenerate, steering, on_event).await
}

/// Keeps the draft of the scene that failed as it is, as a run of one: "Keep anyway" (only its
/// memory is extracted, and its tick record says the writer overrode the checks), or with
/// `to_finish` "Keep as a draft" (no model call: the writer finishes it in the editor).
#[tauri::command]
#[specta::specta]
pub async fn keep_failed_draft(
    app: AppHandle,
    state: State<'_, AppState>,
    to_finish: bool,
    on_event: Channel<RunEvent>,
) -> AppResult<RunReport> {
    let keep_as = if to_finish {
        run::KeepAs::Draft
    } else {
        run::KeepAs::Scene
    };
    drive(app, &state, Job::KeepFailedDraft(keep_as), None, on_event).await
}

/// One run from start to end: the models and options set up, the job on a thread of its own,
/// the desk released and a failure logged and announced however the run ends.
async fn drive(
    app: AppHandle,
    state: &AppState,
    job: Job,
    steering: Option<String>,
    on_event: Channel<RunEvent>,
) -> AppResult<RunReport> {
    let session = state.session()?;
    let novel = session.write()?;
    // Each role's profile from novel.toml's [models], metered against its [budget].
    let models = role_models::models_for(&novel, &profiles()?, None, Limits::default())?;
    let options = tick_options(&novel, &session.review, steering);
    let control = RunControl::new();
    session.set_run(Some(control.clone()));
    let path = Some(session.path_string());
    let forward = Forward {
        app: app.clone(),
        path: path.clone(),
        desk: session.review.clone(),
        channel: on_event,
    };
    let worker = tauri::async_runtime::spawn_blocking(move || {
        on_own_runtime(job, novel, &models, &options, &control, &forward)
    });
    let result = worker.await;
    session.set_run(None);
    session.review.release();
    let report =
        result.map_err(|e| AppError::storage(format!("the writing thread stopped: {e}")))???;
    if report.end == RunEnd::Failed {
        announce_failure(&app, path, &report);
    }
    Ok(report)
}

/// The run's options: the writer's steering (blank is none) and, in review mode, the desk.
fn tick_options(novel: &Novel, desk: &Arc<ReviewDesk>, steering: Option<String>) -> TickOptions {
    TickOptions {
        steering: steering
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
        reviewer: novel
            .config()
            .generation
            .review_before_commit
            .then(|| ReviewBy(Arc::new(DeskReviewer(desk.clone())))),
        ..TickOptions::default()
    }
}

/// Where a run's events go: the window's channel, the desk, and the novel-changed event.
struct Forward {
    app: AppHandle,
    path: Option<String>,
    desk: Arc<ReviewDesk>,
    channel: Channel<RunEvent>,
}

impl Forward {
    fn send(&self, event: RunEvent) {
        match &event {
            RunEvent::TickCommitted { .. } => {
                changed(&self.app, self.path.clone(), ChangeReason::TickCommitted)
            }
            // The answer's slot opens before the window can see the question.
            RunEvent::Tick { event, .. } => self.desk.observe(event),
            RunEvent::Retrying { .. } | RunEvent::Finished { .. } => {}
        }
        // A closed window drops the channel; the run goes on and still commits.
        let _ = self.channel.send(event);
    }
}

/// The job on a runtime of the blocking thread's own, so the window never waits for it.
fn on_own_runtime(
    job: Job,
    mut novel: OwnedMutexGuard<Novel>,
    models: &Models,
    options: &TickOptions,
    control: &RunControl,
    forward: &Forward,
) -> std::io::Result<AppResult<RunReport>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let on_event = |event: RunEvent| forward.send(event);
    Ok(runtime.block_on(run_job(
        job, &mut novel, models, options, control, &on_event,
    )))
}

/// The engine's run for the job; tick failures are part of its report.
async fn run_job(
    job: Job,
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    control: &RunControl,
    on_event: &(dyn Fn(RunEvent) + Sync),
) -> AppResult<RunReport> {
    let clock = &SystemClock;
    match job {
        Job::Ticks(n) => {
            Ok(run::run_ticks(novel, models, n, options, control, clock, on_event).await)
        }
        Job::Regenerate => run::regenerate(novel, models, options, control, clock, on_event)
            .await
            .map_err(AppError::from),
        Job::KeepFailedDraft(keep_as) => {
            Ok(run::keep_failed_draft_as(novel, models, keep_as, control, clock, on_event).await)
        }
    }
}

/// A failed run goes to the log and tells the window the novel changed.
fn announce_failure(app: &AppHandle, path: Option<String>, report: &RunReport) {
    // By kind, stage and error file only: the message may quote what a server said.
    if let Some(failure) = &report.failure {
        tracing::warn!(
            tick = ?failure.tick,
            kind = failure.kind.as_str(),
            stage = ?failure.stage,
            error_file = ?failure.error_file,
            "a tick failed"
        );
    }
    changed(app, path, ChangeReason::TickFailed);
}

/// Stops the run: after the current scene commits, or at once (`cancel`), rolling it back. A
/// cancel also withdraws a scene waiting for review.
#[tauri::command]
#[specta::specta]
pub async fn stop_run(state: State<'_, AppState>, cancel: bool) -> AppResult<bool> {
    let Some(session) = state.current() else {
        return Ok(false);
    };
    let Some(control) = session.run_control() else {
        return Ok(false);
    };
    if cancel {
        control.cancel();
        session.review.release();
    } else {
        control.stop_after_current();
    }
    Ok(true)
}

/// Review mode: the writer's answer to the plan the tick is waiting on (accept, edit, reject).
#[tauri::command]
#[specta::specta]
pub async fn plan_decision(state: State<'_, AppState>, verdict: PlanVerdict) -> AppResult<()> {
    state.session()?.review.decide_plan(verdict)
}

/// Review mode: the writer's answer to the scene and memory changes the tick is waiting on
/// (accept, perhaps with edited prose and unticked changes, or reject).
#[tauri::command]
#[specta::specta]
pub async fn review_decision(state: State<'_, AppState>, verdict: Verdict) -> AppResult<()> {
    state.session()?.review.decide(verdict)
}
