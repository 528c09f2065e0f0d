//! The timeline is the book's: a line per scene in book order, whoever wrote it — the agent,
//! the writer by hand, or the imported manuscript — with who wrote it still right after the
//! book is reshaped.

use std::cell::RefCell;

use novel_llm::ScriptedModel;
use serde_json::json;

use super::*;
use crate::shape::{self, Place};
use crate::tick::tests::{PROSE, clock, extraction, imported_two_scenes, tick};

fn lines(rows: &[TimelineRow]) -> Vec<(u32, String, WrittenBy)> {
    rows.iter()
        .map(|r| (r.tick, r.title.clone().unwrap_or_default(), r.written_by))
        .collect()
}

#[tokio::test]
async fn every_scene_has_a_line_saying_who_wrote_it_in_book_order() {
    let (_tmp, mut novel) = imported_two_scenes().await;
    let agent = ScriptedModel::new()
        .reply_json(&json!({
            "rationale": "She needs an ally.", "scene_intention": "Tamsin finds a dockhand.",
            "pov_character": "C0", "target_location": "L0", "actions": [],
            "expected_outcomes": ["an ally"]
        }))
        .reply(PROSE)
        .reply_json(&extraction());
    tick(&mut novel, &agent, &RefCell::new(Vec::new()))
        .await
        .unwrap();
    shape::add_scene(
        &mut novel,
        Place::Before(2),
        "By hand",
        "Mara wrote this one herself, every word of it.",
        &clock(),
    )
    .unwrap();

    let rows = timeline(novel.store().conn()).unwrap();
    assert_eq!(
        lines(&rows),
        [
            (1, "Quay".into(), WrittenBy::Import),
            (2, "By hand".into(), WrittenBy::Hand),
            (3, "Watch".into(), WrittenBy::Import),
            (4, "Low Tide".into(), WrittenBy::Agent),
        ]
    );
    let by_hand = &rows[1];
    assert_eq!(by_hand.status, TickStatus::Committed);
    assert_eq!(
        by_hand.chapter, rows[0].chapter,
        "filtered by chapter like any scene"
    );
    assert!(by_hand.chapter.is_some());
    assert_eq!((by_hand.calls, by_hand.rationale.as_deref()), (0, None));
    assert_eq!(rows[3].pov.as_deref(), Some("Tamsin Vale"));
    assert!(rows[3].characters.contains(&"Tamsin Vale".to_string()));

    // Who wrote a scene follows it when the book is reshaped.
    shape::move_scene(&mut novel, 4, Place::Before(1), &clock()).unwrap();
    let rows = timeline(novel.store().conn()).unwrap();
    assert_eq!(
        lines(&rows),
        [
            (1, "Low Tide".into(), WrittenBy::Agent),
            (2, "Quay".into(), WrittenBy::Import),
            (3, "By hand".into(), WrittenBy::Hand),
            (4, "Watch".into(), WrittenBy::Import),
        ]
    );
}
