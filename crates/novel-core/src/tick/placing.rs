//! A scene the agent writes at a place the writer chose in the book, from the writer's note
//! (ARCHITECTURE.md, "Shaping the book"): the write and check steps of a tick only, with the
//! note as the scene's intention instead of a planner's plan, and nothing committed — the
//! caller (`shape::write_scene`) puts the prose in the book as a writer's change. The story is
//! read as it stands just before the place: in a transaction that is always rolled back, the
//! scenes from the place on are taken out, so the recent scenes, the summary, the previous
//! scene's last words and recall all end where the new scene begins. The records (cast,
//! places, what was lost or who died) still describe the end of the book, so the checks that
//! read them give warnings here, never a revision. A failure is recorded like a tick's, and
//! resolved at once: it is not the next scene's, to be retried by Next scene.

use rusqlite::Transaction;

use super::cancel::CancelToken;
use super::checking::{self, Checked};
use super::error::{AtStage, Failure, StepError};
use super::events::{Stage, TickEvent, TickObserver};
use super::options::{Models, TickOptions};
use super::outcome::TickError;
use super::planning::Acted;
use super::starting::new_run;
use super::{outputs, writing};
use crate::clock::{Clock, timestamp};
use crate::evaluate::Finding;
use crate::executor::ExecutionReport;
use crate::model::TickRecord;
use crate::novel::Novel;
use crate::plan::Plan;
use crate::store::{self, Recorder, Store, StoreError};

/// The reason recorded in the plan of a scene written at a place from the writer's note: it is
/// how such a scene is told from one a tick wrote (its record follows it when the book is
/// reshaped).
pub const PLACED_RATIONALE: &str =
    "Written from the writer's note at a place they chose in the book.";

/// What the writer asked for and what the book around the place says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlacedBrief {
    /// The writer's note: what the scene must do.
    pub note: String,
    /// Whose eyes (a character id), when known: the neighbouring scene's.
    pub pov: Option<String>,
    /// Where (a place id), when known.
    pub location: Option<String>,
    /// How the scene after the place begins, so the new one leads into it.
    pub next: Option<String>,
}

/// The scene written for a place, checked, not yet in the book.
#[derive(Debug, Clone)]
pub struct PlacedScene {
    pub prose: String,
    /// The writer model's first draft, when the checks asked for the revision that replaced
    /// it: kept as an earlier version of the scene, as a tick keeps its own.
    pub draft: Option<String>,
    pub findings: Vec<Finding>,
    pub revised: bool,
    pub pov: Option<String>,
    pub location: Option<String>,
    /// The scene's record (its plan is the note, its findings and usage), numbered `tick`.
    pub record: TickRecord,
}

/// Writes the scene that will be number `tick` of the book (the scenes from `tick` on come
/// after it) from `brief`. The story is not changed; a failure is recorded in `errors/`.
pub async fn write_placed(
    novel: &mut Novel,
    models: &Models,
    tick: u32,
    brief: &PlacedBrief,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<PlacedScene, TickError> {
    if !novel.is_writable() {
        return Err(TickError::Setup(format!(
            "{} is open read-only; writing a scene needs to write",
            novel.root().display()
        )));
    }
    observer.on_event(TickEvent::Started { tick });
    let options = TickOptions::default();
    let mut run = new_run(novel, tick, models, &options, observer, cancel, clock).await;
    run.placed = true;
    let plan = plan_of(brief);
    run.partial.plan = serde_json::to_value(&plan).ok();
    let result = tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(StepError::Cancelled.at(Stage::Gathering)),
        r = steps(&mut run, novel.store(), plan.clone()) => r,
    };
    match result {
        Ok(checked) => {
            let record = TickRecord {
                tick,
                plan: serde_json::to_value(&plan).ok(),
                execution: None,
                findings: serde_json::json!(checked.findings),
                usage: serde_json::to_value(&run.usage).unwrap_or_default(),
                timings: serde_json::json!(run.timings),
                started_at: run.started_at.clone(),
                finished_at: timestamp(clock.now()),
                notes: run.notes.clone(),
                context_used: serde_json::to_value(&run.context_used).ok(),
            };
            Ok(PlacedScene {
                prose: checked.prose,
                draft: checked.draft,
                findings: checked.findings,
                revised: checked.revised,
                pov: checked.pov,
                location: checked.location,
                record,
            })
        }
        Err(Failure {
            error: StepError::Cancelled,
            ..
        }) => Err(TickError::Cancelled { tick }),
        Err(failure) => Err(outputs::record_failure(novel, &run, failure)),
    }
}

/// The plan the writer renders: the note as the intention, the next scene as where it leads.
fn plan_of(brief: &PlacedBrief) -> Plan {
    let mut outcomes = vec![
        "It follows on from the scenes before it; the cast and places above may be described as they stand later in the book.".to_string(),
    ];
    if let Some(next) = brief.next.as_deref().filter(|n| !n.trim().is_empty()) {
        outcomes.push(crate::text::truncate_words(
            &format!("It leads into the next scene: {}", next.trim()),
            50,
        ));
    }
    Plan {
        rationale: PLACED_RATIONALE.into(),
        scene_intention: brief
            .note
            .trim()
            .chars()
            .take(crate::plan::MAX_TEXT_CHARS)
            .collect(),
        pov_character: brief.pov.clone(),
        target_location: brief.location.clone(),
        beat: None,
        actions: Vec::new(),
        expected_outcomes: outcomes,
    }
}

/// Write, then check and revise, in a transaction where the book ends before the place.
async fn steps(
    run: &mut super::state::TickRun<'_>,
    store: &Store,
    plan: Plan,
) -> Result<Checked, Failure> {
    run.stage(Stage::Gathering);
    let tx = store.begin().at(Stage::Gathering)?;
    end_before(&tx, run.tick).at(Stage::Gathering)?;
    let recorder = Recorder::start(store.conn()).at(Stage::Gathering)?;
    let acted = Acted {
        plan,
        report: ExecutionReport::nothing_run(),
        tx,
        recorder,
    };
    let draft = writing::write(run, &acted).await?;
    checking::check_and_revise(run, &acted, draft).await
    // `acted` goes out of scope here: its transaction rolls back, the book is as it was.
}

/// Takes the scenes from `tick` on out of the story (in a transaction that is rolled back):
/// the story then reads as it stood before the place.
fn end_before(tx: &Transaction<'_>, tick: u32) -> Result<(), StoreError> {
    for scene in store::list_scenes(tx)?
        .into_iter()
        .filter(|s| s.tick >= tick)
    {
        store::remove_scene(tx, &scene.id, scene.tick)?;
    }
    let mut state = store::load_state(tx)?;
    state.current_tick = tick.saturating_sub(1);
    store::save_state(tx, &state)?;
    store::rebuild_rollups(tx)?;
    Ok(())
}
