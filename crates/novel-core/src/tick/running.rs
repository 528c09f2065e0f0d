//! A story tick from start to commit, and the planner alone for a dry run: the steps in
//! order, each mapping its own errors to its stage.

use super::cancel::CancelToken;
use super::error::{self, Failure};
use super::events::{Stage, TickEvent, TickObserver};
use super::options::{Models, TickOptions};
use super::outcome::{TickError, TickOutcome};
use super::starting::{new_run, start};
use super::state::TickRun;
use super::{checking, committing, extracting, outputs, planning, realizing, reviewing, writing};
use crate::clock::Clock;
use crate::model::TickUsage;
use crate::novel::Novel;
use crate::plan::Plan;
use crate::store::Store;

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
