//! A scene written outside the engine (a chapter of an imported manuscript) adopted as a tick:
//! no plan and no writing, only the extract and commit steps, so its memory updates (people,
//! places, relationships, loops, summary, tension) are made and recorded exactly as a written
//! scene's are. The caller's `before_commit` runs inside the same transaction (an import marks
//! its own progress and shapes its chapters there), so the scene, its memory and the caller's
//! bookkeeping commit together or not at all.

use rusqlite::Transaction;

use super::cancel::CancelToken;
use super::checking::Checked;
use super::error::{AtStage, Failure, StepError};
use super::events::{Stage, TickEvent, TickObserver};
use super::options::{Models, TickOptions};
use super::outcome::{TickError, TickOutcome};
use super::planning::Acted;
use super::starting::{new_run, start};
use super::state::TickRun;
use super::{committing, extracting, outputs};
use crate::clock::Clock;
use crate::evaluate::Finding;
use crate::executor::ExecutionReport;
use crate::novel::Novel;
use crate::plan::Plan;
use crate::store::{Recorder, Store, StoreError};

/// A scene to adopt: its prose and, when the manuscript gave one, its title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenScene {
    pub prose: String,
    pub title: Option<String>,
}

/// Work done in the adopting transaction just before it commits, given the scene's tick.
pub type BeforeCommit<'a> = &'a (dyn Fn(&Transaction<'_>, u32) -> Result<(), StoreError> + Sync);

/// Adopts `scene` as the next tick: one extraction call, then one commit.
pub async fn adopt_scene(
    novel: &mut Novel,
    models: &Models,
    scene: &WrittenScene,
    before_commit: BeforeCommit<'_>,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, TickError> {
    let tick = start(novel, "adopting a scene", observer)?;
    let options = TickOptions::default();
    let mut run = new_run(novel, tick, models, &options, observer, cancel, clock).await;
    let adopted = Adopted::manuscript(scene);
    run_steps(novel, &mut run, scene, adopted, before_commit, cancel).await
}

/// The adopting steps of `run`, cancellable; a failure is recorded like a tick's.
pub(super) async fn run_steps(
    novel: &mut Novel,
    run: &mut TickRun<'_>,
    scene: &WrittenScene,
    adopted: Adopted,
    before_commit: BeforeCommit<'_>,
    cancel: &CancelToken,
) -> Result<TickOutcome, TickError> {
    let tick = run.tick;
    let result = tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(StepError::Cancelled.at(Stage::Extracting)),
        r = steps(run, novel.store(), scene, adopted, before_commit) => r,
    };
    match result {
        Ok(outcome) => Ok(outcome),
        Err(Failure {
            error: StepError::Cancelled,
            ..
        }) => Err(TickError::Cancelled { tick }),
        Err(failure) => Err(outputs::record_failure(novel, run, failure)),
    }
}

/// What the tick record says of an adopted scene: its plan and what the checks found.
pub(super) struct Adopted {
    pub plan: Plan,
    pub findings: Vec<Finding>,
    pub revised: bool,
    /// Read the scene's memory with the extractor; without it the scene is committed with no
    /// model call, titled and summarised from its own sentences.
    pub read_memory: bool,
}

impl Adopted {
    fn manuscript(scene: &WrittenScene) -> Adopted {
        Adopted {
            plan: plan_of(scene),
            findings: Vec::new(),
            revised: false,
            read_memory: true,
        }
    }
}

async fn steps(
    run: &mut TickRun<'_>,
    store: &Store,
    scene: &WrittenScene,
    adopted: Adopted,
    before_commit: BeforeCommit<'_>,
) -> Result<TickOutcome, Failure> {
    let tx = store.begin().at(Stage::Extracting)?;
    let recorder = Recorder::start(store.conn()).at(Stage::Extracting)?;
    let acted = Acted {
        plan: adopted.plan,
        report: ExecutionReport::nothing_run(),
        tx,
        recorder,
    };
    let (findings, revised, read_memory) = (
        adopted.findings.clone(),
        adopted.revised,
        adopted.read_memory,
    );
    let checked = Checked {
        prose: scene.prose.clone(),
        draft: None,
        findings: adopted.findings,
        revised: adopted.revised,
        pov: None,
        location: None,
    };
    let mut extraction = if read_memory {
        extracting::extract(run, &acted, &checked).await?
    } else {
        extracting::unread(&acted, &checked).at(Stage::Extracting)?
    };
    if let Some(title) = scene.title.as_deref().map(crate::text::clean_line)
        && !title.is_empty()
    {
        extraction.title = title;
    }
    before_commit(&acted.tx, run.tick).at(Stage::Committing)?;
    let committed = committing::commit(run, acted, &checked, extraction).await?;
    run.emit(TickEvent::Committed {
        tick: run.tick,
        scene_id: committed.scene.id.clone(),
        title: committed.scene.title.clone(),
        words: committed.scene.word_count,
    });
    Ok(outputs::write_files(run, committed, findings, revised))
}

/// The reason recorded in an imported scene's plan: with no tools, it is how the timeline
/// tells a scene of the imported manuscript from one the agent wrote (its tick record follows
/// the scene when the book is reshaped; the import's own bookkeeping does not).
pub const IMPORTED_RATIONALE: &str = "A scene of the imported manuscript, adopted as written.";

/// The plan recorded for an adopted scene: no tools, and what it is.
fn plan_of(scene: &WrittenScene) -> Plan {
    Plan {
        rationale: IMPORTED_RATIONALE.into(),
        scene_intention: scene
            .title
            .clone()
            .unwrap_or_else(|| "The manuscript's next scene.".into()),
        pov_character: None,
        beat: None,
        target_location: None,
        actions: Vec::new(),
        expected_outcomes: Vec::new(),
    }
}
