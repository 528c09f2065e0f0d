//! The views a writer plans with: the loops board's columns (open, advancing, stale, resolved)
//! and the scenes each loop was touched in; the timeline's characters and chapter per scene.

use crate::context::fixture;
use crate::model::{Importance, LoopNote, LoopStatus, OpenLoop};
use crate::store::{self, HistoryEntry};

use super::*;

fn set_tick(fx: &mut fixture::Fixture, tick: u32) {
    let tx = fx.store.transaction().unwrap();
    let mut state = store::load_state(&tx).unwrap();
    state.current_tick = tick;
    store::save_state(&tx, &state).unwrap();
    tx.commit().unwrap();
}

fn add_loop(fx: &mut fixture::Fixture, l: OpenLoop) {
    let tx = fx.store.transaction().unwrap();
    store::insert_loop(&tx, &l).unwrap();
    tx.commit().unwrap();
}

fn a_loop(id: &str, opened: u32, notes: &[u32], status: LoopStatus) -> OpenLoop {
    OpenLoop {
        id: id.into(),
        description: format!("loop {id}"),
        category: "mystery".into(),
        importance: Importance::Low,
        status,
        opened_tick: opened,
        resolved_tick: (status != LoopStatus::Open).then_some(opened + 1),
        notes: notes
            .iter()
            .map(|t| LoopNote {
                tick: *t,
                note: "moved on".into(),
            })
            .collect(),
    }
}

#[test]
fn loops_stand_in_the_column_their_last_touch_and_advances_put_them() {
    let mut fx = fixture::novel(3);
    // The fixture's O0 opened in scene 1 and advanced in 2; O1 opened in 2, never advanced.
    add_loop(&mut fx, a_loop("O7", 0, &[], LoopStatus::Open));
    add_loop(&mut fx, a_loop("O8", 1, &[], LoopStatus::Abandoned));
    add_loop(&mut fx, a_loop("O9", 3, &[3, 3], LoopStatus::Open));
    set_tick(&mut fx, 6);
    let board = loops_board(fx.store.conn()).unwrap();
    let card = |id: &str| board.iter().find(|c| c.id == id).unwrap();
    assert_eq!(
        card("O0").column,
        LoopColumn::Advancing,
        "touched 4 scenes ago"
    );
    assert_eq!(card("O0").idle_scenes, 4);
    assert_eq!(card("O1").column, LoopColumn::Open);
    assert_eq!(
        card("O7").column,
        LoopColumn::Stale,
        "set up before scene 1"
    );
    assert_eq!(
        card("O8").column,
        LoopColumn::Resolved,
        "abandoned is closed too"
    );
    assert_eq!(
        card("O9").column,
        LoopColumn::Open,
        "notes in its opening scene are no advance"
    );
    assert_eq!(card("O0").scenes, vec![1, 2]);
    assert_eq!(card("O7").scenes, Vec::<u32>::new(), "no scene 0");
    assert_eq!(card("O8").scenes, vec![1, 2], "opened and closed");
    set_tick(&mut fx, 7);
    let board = loops_board(fx.store.conn()).unwrap();
    let card = |id: &str| board.iter().find(|c| c.id == id).unwrap();
    assert_eq!(
        card("O0").column,
        LoopColumn::Stale,
        "{STALE_AFTER_SCENES} scenes untouched"
    );
    assert_eq!(card("O1").column, LoopColumn::Stale);
    assert_eq!(
        card("O8").column,
        LoopColumn::Resolved,
        "closed never goes stale"
    );
}

#[test]
fn a_timeline_row_names_the_scenes_characters_and_chapter() {
    let mut fx = fixture::novel(3);
    let tx = fx.store.transaction().unwrap();
    for scene in store::list_scenes(&tx).unwrap() {
        store::insert_tick(&tx, &fixture_tick(scene.tick)).unwrap();
    }
    let entry = |entity: &str, tick: u32, source: &str| HistoryEntry {
        entity_id: entity.into(),
        tick,
        field: "emotional_state".into(),
        change: "update".into(),
        old_value: None,
        new_value: Some(serde_json::json!("wary")),
        flagged: false,
        source: source.into(),
    };
    // Scene 2 changed the relationship (both sides in it); the writer's own edit at scene 3
    // puts nobody in scene 3.
    store::append_history(&tx, &entry("R0", 2, "extractor")).unwrap();
    store::append_history(&tx, &entry("C1", 3, crate::memory::WRITER)).unwrap();
    tx.commit().unwrap();
    let rows = timeline(fx.store.conn()).unwrap();
    let names = store::list_characters(fx.store.conn()).unwrap();
    let mut both: Vec<String> = names.iter().map(|c| c.name.clone()).collect();
    both.sort();
    let row = |t: u32| rows.iter().find(|r| r.tick == t).unwrap();
    assert_eq!(row(2).characters, both);
    let pov_only: Vec<String> = row(3).pov.clone().into_iter().collect();
    assert_eq!(row(3).characters, pov_only);
    assert_eq!(row(1).chapter, Some(1));
    assert!(row(1).chapter_title.is_some());
}

fn fixture_tick(tick: u32) -> crate::model::TickRecord {
    crate::model::TickRecord {
        tick,
        plan: None,
        execution: None,
        findings: serde_json::json!([]),
        usage: serde_json::json!({}),
        timings: serde_json::json!({}),
        notes: Vec::new(),
        context_used: None,
        started_at: fixture::NOW.into(),
        finished_at: fixture::NOW.into(),
    }
}
