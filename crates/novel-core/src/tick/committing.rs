//! The commit step: the extraction applied, the scene inserted and indexed, the roll-ups and the
//! story state moved on, the tick recorded with everything it planned, ran, found, noted and
//! cost — all in the transaction the plan's tools opened, committed once. Vectors for the new
//! passages are made inside it too (they are derived data: if embedding fails the passages stay
//! pending and the tick still commits). A cancel that arrives before the commit wins.

use rusqlite::Transaction;
use serde_json::{Value, json};

use super::checking::Checked;
use super::error::{AtStage, Failure, StepError};
use super::events::Stage;
use super::extraction::{ApplyReport, Extraction};
use super::planning::Acted;
use super::state::TickRun;
use crate::clock::timestamp;
use crate::executor::ExecutionReport;
use crate::ids::EntityKind;
use crate::memory::{self, EntityUpdate};
use crate::model::{Character, Scene, SceneVerdict, Step, TickRecord, count_words};
use crate::plan::Plan;
use crate::store::{self, ChangeKind, NewVersion, StoreError, VersionOrigin};

/// What the tick committed.
pub(super) struct Committed {
    pub plan: Plan,
    pub report: ExecutionReport,
    pub scene: Scene,
    pub applied: ApplyReport,
}

pub(super) async fn commit(
    run: &mut TickRun<'_>,
    acted: Acted<'_>,
    checked: &Checked,
    extraction: Extraction,
) -> Result<Committed, Failure> {
    run.stage(Stage::Committing);
    let Acted {
        plan,
        report,
        tx,
        mut recorder,
    } = acted;
    let applying = std::time::Instant::now();
    let applied = extraction.apply(&tx, run.tick);
    for skipped in &applied.skipped {
        run.note(format!("extraction: left out {skipped}"));
    }
    let scene = write_scene(run, &tx, checked, &extraction).at(Stage::Committing)?;
    let verdict = record_verdict(&tx, &plan, &extraction, run.tick).at(Stage::Committing)?;
    for note in super::pressure::advance(&tx, &plan, verdict, run.tick).at(Stage::Committing)? {
        run.note(note);
    }
    run.time(Step::Apply, applying);
    let embedding = std::time::Instant::now();
    if let Err(e) = run.retrieval.sync(&tx).await {
        tracing::warn!("tick {}: passages left without vectors: {e}", run.tick);
    }
    run.time(Step::Embed, embedding);
    // The tick's record is part of the recorded change, so it is written before the changeset
    // is taken: it carries every step's time up to here (the commit and the files are timed
    // on the outcome only).
    record_tick(run, &tx, &plan, &report, checked).at(Stage::Committing)?;
    let committing = std::time::Instant::now();
    let changeset = recorder.changeset().at(Stage::Committing)?;
    drop(recorder);
    record_history(run, &tx, &scene, checked, &changeset).at(Stage::Committing)?;
    run.time(Step::Commit, committing);
    // A provider that answers without ever yielding gives the caller's select no chance to see
    // a cancel, so the last word is had here: a cancelled tick never commits.
    if run.cancel.is_cancelled() {
        return Err(StepError::Cancelled.at(Stage::Committing));
    }
    let finishing = std::time::Instant::now();
    tx.commit()
        .map_err(StoreError::from)
        .at(Stage::Committing)?;
    run.time(Step::Commit, finishing);
    Ok(Committed {
        plan,
        report,
        scene,
        applied,
    })
}

/// Inserts and indexes the scene, places the POV character, rolls up and moves the state on.
fn write_scene(
    run: &TickRun<'_>,
    tx: &Transaction<'_>,
    checked: &Checked,
    extraction: &Extraction,
) -> Result<Scene, StoreError> {
    let location = extraction
        .location
        .clone()
        .filter(|id| store::get_location(tx, id).ok().flatten().is_some())
        .or(checked.location.clone());
    if let (Some(pov), Some(place)) = (&checked.pov, &location) {
        place_character(tx, pov, place, run.tick)?;
    }
    let scene = Scene {
        id: store::mint_id(tx, EntityKind::Scene)?.to_string(),
        tick: run.tick,
        title: extraction.title.clone(),
        pov_character: checked.pov.clone(),
        location,
        word_count: count_words(&checked.prose),
        prose: checked.prose.clone(),
        summary: extraction.summary.clone(),
        tension: Some(extraction.tension),
        created_at: timestamp(run.clock.now()),
    };
    store::insert_scene(tx, &scene)?;
    store::index_scene(tx, &scene)?;
    store::roll_up_after(tx, run.tick)?;
    let mut state = store::load_state(tx)?;
    state.current_tick = run.tick;
    state.active_character = checked.pov.clone().or(state.active_character);
    state.updated_at = scene.created_at.clone();
    store::save_state(tx, &state)?;
    Ok(scene)
}

/// Stores the extractor's plan verdict when the scene had a plan to judge it by (an adopted
/// scene has none, and a verdict given anyway means nothing); returns it for the outline.
fn record_verdict<'e>(
    tx: &Transaction<'_>,
    plan: &Plan,
    extraction: &'e Extraction,
    tick: u32,
) -> Result<Option<&'e SceneVerdict>, StoreError> {
    let verdict = extraction
        .plan_verdict
        .as_ref()
        .filter(|_| !plan.scene_intention.trim().is_empty());
    if let Some(v) = verdict {
        store::put_verdict(tx, tick, v, "extraction")?;
    }
    Ok(verdict)
}

/// Where the POV character is is a fact of the scene, not a model's opinion.
fn place_character(
    tx: &Transaction<'_>,
    character: &str,
    place: &str,
    tick: u32,
) -> Result<(), StoreError> {
    let mut changes = serde_json::Map::new();
    changes.insert("last_location".into(), Value::String(place.to_string()));
    let update = EntityUpdate {
        changes,
        append: Default::default(),
    };
    match memory::update_record::<Character>(tx, character, &update, tick, "tick") {
        Ok(_) => Ok(()),
        Err(memory::MemoryError::Store(e)) => Err(e),
        // The checks already chose a POV and place that exist; anything else is not worth
        // losing the scene over, and is logged.
        Err(e) => {
            tracing::warn!("tick {tick}: could not place {character} at {place}: {e}");
            Ok(())
        }
    }
}

/// The tick as a recorded change of the story's history, and its scene's versions.
fn record_history(
    run: &TickRun<'_>,
    tx: &Transaction<'_>,
    scene: &Scene,
    checked: &Checked,
    changeset: &[u8],
) -> Result<(), StoreError> {
    let label = format!("scene {}: {}", run.tick, scene.title);
    let seq = store::append_change(
        tx,
        ChangeKind::Tick,
        run.tick,
        &label,
        changeset,
        &scene.created_at,
    )?;
    let branch = store::head(tx)?.branch_name;
    let base = NewVersion {
        tick: run.tick,
        branch: &branch,
        origin: VersionOrigin::Draft,
        title: &scene.title,
        prose: "",
        words: 0,
        change_seq: None,
        created_at: &scene.created_at,
    };
    if let Some(draft) = &checked.draft {
        store::insert_version(
            tx,
            &NewVersion {
                prose: draft,
                words: count_words(draft),
                ..base.clone()
            },
        )?;
    }
    let origin = if run.options.regeneration {
        VersionOrigin::Regeneration
    } else {
        VersionOrigin::Revision
    };
    store::insert_version(
        tx,
        &NewVersion {
            origin,
            prose: &scene.prose,
            words: scene.word_count,
            change_seq: seq,
            ..base
        },
    )?;
    // A regeneration that commits ends the pending return to the scene it replaces.
    store::set_restore_to(tx, None)
}

fn record_tick(
    run: &TickRun<'_>,
    tx: &Transaction<'_>,
    plan: &Plan,
    report: &ExecutionReport,
    checked: &Checked,
) -> Result<(), StoreError> {
    store::insert_tick(
        tx,
        &TickRecord {
            tick: run.tick,
            plan: serde_json::to_value(plan).ok(),
            execution: serde_json::to_value(report).ok(),
            findings: json!(checked.findings),
            usage: serde_json::to_value(&run.usage).unwrap_or_default(),
            timings: json!(run.timings),
            started_at: run.started_at.clone(),
            finished_at: timestamp(run.clock.now()),
            notes: run.notes.clone(),
            context_used: serde_json::to_value(&run.context_used).ok(),
        },
    )?;
    store::resolve_failures(tx, run.tick)
}
