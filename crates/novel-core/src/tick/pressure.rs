//! What a committed scene does to the writer's guidance: the outline beat the plan realized is
//! done, every clock rises by its per-scene step (a threshold it passes is noted for the
//! timeline), and the events due by this scene have happened.

use rusqlite::Transaction;

use crate::model::{BeatStatus, EventStatus};
use crate::plan::Plan;
use crate::store::{self, StoreError};

/// Applies the scene's effect on the guidance inside the tick's transaction; returns notes.
pub(super) fn advance(
    tx: &Transaction<'_>,
    plan: &Plan,
    tick: u32,
) -> Result<Vec<String>, StoreError> {
    let mut notes = Vec::new();
    if let Some(id) = plan.beat.as_deref() {
        let beats = store::list_beats(tx)?;
        if let Some(beat) = beats
            .into_iter()
            .find(|b| b.id == id && b.status == BeatStatus::Open)
        {
            store::put_beat(
                tx,
                &crate::model::Beat {
                    status: BeatStatus::Done,
                    done_tick: Some(tick),
                    ..beat.clone()
                },
            )?;
            notes.push(format!("outline beat {} done: {}", beat.id, beat.text));
        }
    }
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
            notes.push(format!(
                "the event {} was due: {}",
                event.id, event.description
            ));
            store::put_event(tx, &event)?;
        }
    }
    Ok(notes)
}
