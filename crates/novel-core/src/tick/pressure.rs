//! What a committed scene does to the writer's guidance: the outline beat the plan named is
//! done when the scene realized it, every clock rises by its per-scene step (a threshold it
//! passes is noted for the timeline), and the events due by this scene have happened.
//!
//! A beat is done on the extractor's verdict, not on the plan's word: realized or partly
//! ([`Realized::completes_beat`]) marks it done; "not" leaves it open for a later scene, with a
//! note saying what was missed. An extractor that gave no verdict (a weak model, an answer
//! salvaged without one) leaves the plan's word standing, noted as unjudged, so that a model
//! that never judges cannot freeze the outline.

use rusqlite::Transaction;

use crate::model::{BeatStatus, EventStatus, Realized, SceneVerdict};
use crate::plan::Plan;
use crate::store::{self, StoreError};

/// Applies the scene's effect on the guidance inside the tick's transaction; returns notes.
pub(super) fn advance(
    tx: &Transaction<'_>,
    plan: &Plan,
    verdict: Option<&SceneVerdict>,
    tick: u32,
) -> Result<Vec<String>, StoreError> {
    let mut notes = Vec::new();
    if let Some(id) = plan.beat.as_deref() {
        let beats = store::list_beats(tx)?;
        if let Some(beat) = beats
            .into_iter()
            .find(|b| b.id == id && b.status == BeatStatus::Open)
        {
            match verdict {
                Some(v) if !v.verdict.completes_beat() => {
                    notes.push(format!(
                        "the outline beat \"{}\" stays open: the scene did not realize it{}",
                        beat.text,
                        missed(v)
                    ));
                    return with_clocks_and_events(tx, tick, notes);
                }
                None => notes.push(format!(
                    "the outline beat \"{}\" is done on the plan's word: the scene was not judged against its plan",
                    beat.text
                )),
                Some(v) if v.verdict == Realized::Partly => notes.push(format!(
                    "the outline beat \"{}\" is done, in part{}",
                    beat.text,
                    missed(v)
                )),
                Some(_) => {}
            }
            store::put_beat(
                tx,
                &crate::model::Beat {
                    status: BeatStatus::Done,
                    done_tick: Some(tick),
                    ..beat.clone()
                },
            )?;
            notes.push(format!("the outline beat \"{}\" is done", beat.text));
        }
    }
    with_clocks_and_events(tx, tick, notes)
}

/// "; missed: …" from a verdict that names what the scene missed.
fn missed(v: &SceneVerdict) -> String {
    if v.missed.is_empty() {
        String::new()
    } else {
        format!(" (missed: {})", v.missed.join("; "))
    }
}

/// The clocks and events move with every scene, whatever became of the beat.
fn with_clocks_and_events(
    tx: &Transaction<'_>,
    tick: u32,
    mut notes: Vec<String>,
) -> Result<Vec<String>, StoreError> {
    for mut clock in store::list_clocks(tx)? {
        if clock.per_tick == 0 || clock.value >= clock.max {
            continue;
        }
        let before = clock.value;
        clock.value = (clock.value + clock.per_tick).min(clock.max);
        for t in clock.crossed_since(before) {
            notes.push(format!(
                "{} reached {}/{}: {}",
                clock.name, t.at, clock.max, t.note
            ));
        }
        store::put_clock(tx, &clock)?;
    }
    for mut event in store::list_events(tx)? {
        if event.status == EventStatus::Pending && event.tick <= tick {
            event.status = EventStatus::Done;
            notes.push(format!("an event was due: {}", event.description));
            store::put_event(tx, &event)?;
        }
    }
    Ok(notes)
}
