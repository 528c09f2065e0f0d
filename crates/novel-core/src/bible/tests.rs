//! The writer's edits to the story bible: validated like the agent's, in the history as the
//! writer's, undone by a rewind, and seen by the next tick's prompts.

use std::sync::Arc;

use novel_llm::ScriptedModel;
use serde_json::{Map, json};

use super::*;
use crate::control;
use crate::memory::{EntityUpdate, LoopEdit, LoreEdit, NewLore};
use crate::model::{BeatStatus, LoopStatus};
use crate::store;
use crate::tick::tests::{PROSE, clock, extraction, novel};
use crate::tick::{CancelToken, Models, TickOptions, preview_next, run_tick};

fn update(changes: serde_json::Value) -> EntityUpdate {
    EntityUpdate {
        changes: changes.as_object().cloned().unwrap_or_default(),
        append: Map::new(),
    }
}

fn dump(novel: &crate::novel::Novel) -> String {
    store::dump_story(novel.store().conn()).unwrap()
}

async fn tick_with(novel: &mut crate::novel::Novel, plan: serde_json::Value) {
    tick_judged(novel, plan, None).await;
}

/// A tick whose extractor also judges the plan (`verdict` is its `plan_verdict`). A scene
/// judged "not" is revised once toward its plan and judged again: here it misses again.
async fn tick_judged(
    novel: &mut crate::novel::Novel,
    plan: serde_json::Value,
    verdict: Option<serde_json::Value>,
) {
    let mut extracted = extraction();
    let missed = verdict.as_ref().is_some_and(|v| v["verdict"] == "not");
    if let Some(v) = verdict {
        extracted["plan_verdict"] = v;
    }
    let mut model = ScriptedModel::new()
        .reply_json(&plan)
        .reply(PROSE)
        .reply_json(&extracted);
    if missed {
        model = model.reply(PROSE).reply_json(&extracted);
    }
    run_tick(
        novel,
        &Models::single(Arc::new(model)),
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
    .unwrap();
}

fn plan(beat: Option<&str>) -> serde_json::Value {
    json!({"rationale": "r", "scene_intention": "Tamsin waits.", "pov_character": "C0",
           "target_location": "L0", "beat": beat, "actions": []})
}

#[test]
fn a_character_edit_is_validated_recorded_as_the_writers_and_can_override_a_fact() {
    let (_tmp, mut novel) = novel();
    let report = edit_record(
        &mut novel,
        "C0",
        &update(json!({"emotional_state": "furious", "arc": {"want": "revenge"}})),
        &clock(),
    )
    .unwrap();
    assert_eq!(report.applied.len(), 2);
    let conn = novel.store().conn();
    let c0 = store::get_character(conn, "C0").unwrap().unwrap();
    assert_eq!(c0.emotional_state.as_deref(), Some("furious"));
    assert_eq!(c0.arc.want, "revenge");
    let history = store::history_of(conn, "C0").unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.source == "writer" && h.field == "emotional_state")
    );
    // Invalid values are refused with the field named, and nothing changes.
    let before = dump(&novel);
    let err = edit_record(
        &mut novel,
        "C0",
        &update(json!({"status": "undead"})),
        &clock(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("status"), "{err}");
    assert_eq!(dump(&novel), before);
    // A dead character brought back: the writer may, and the history flags it.
    edit_record(
        &mut novel,
        "C0",
        &update(json!({"status": "dead"})),
        &clock(),
    )
    .unwrap();
    let report = edit_record(
        &mut novel,
        "C0",
        &update(json!({"status": "alive"})),
        &clock(),
    )
    .unwrap();
    assert_eq!(report.contradictions.len(), 1, "{report:?}");
    let conn = novel.store().conn();
    assert_eq!(
        store::get_character(conn, "C0").unwrap().unwrap().status,
        crate::model::LifeStatus::Alive
    );
    assert!(
        store::history_of(conn, "C0")
            .unwrap()
            .iter()
            .any(|h| h.flagged && h.change.contains("overrode"))
    );
}

#[test]
fn adding_lore_and_loops_and_acting_on_them() {
    let (_tmp, mut novel) = novel();
    let id = add_record(
        &mut novel,
        NewRecord::Lore(NewLore {
            fact: "The tide bells ring thirteen times when the harbour court sits.".into(),
            category: "custom".into(),
            importance: Default::default(),
            keywords: vec!["tide bell".into()],
            aliases: vec![],
            always_on: false,
        }),
        &clock(),
    )
    .unwrap();
    let edited = edit_lore(
        &mut novel,
        &id,
        &LoreEdit {
            always_on: Some(true),
            aliases: Some(vec!["the thirteen bells".into(), "  ".into()]),
            ..Default::default()
        },
        &clock(),
    )
    .unwrap();
    assert!(edited.always_on);
    assert_eq!(edited.aliases, vec!["the thirteen bells".to_string()]);
    assert!(
        edit_lore(
            &mut novel,
            &id,
            &LoreEdit {
                fact: Some(" ".into()),
                ..Default::default()
            },
            &clock()
        )
        .is_err()
    );
    // The goal loop O0: abandoned, reopened, its words changed.
    act_on_loop(
        &mut novel,
        "O0",
        LoopAction::Abandon,
        "she gives up",
        &clock(),
    )
    .unwrap();
    let conn = novel.store().conn();
    assert_eq!(
        store::get_loop(conn, "O0").unwrap().unwrap().status,
        LoopStatus::Abandoned
    );
    act_on_loop(&mut novel, "O0", LoopAction::Reopen, "not yet", &clock()).unwrap();
    edit_loop(
        &mut novel,
        "O0",
        &LoopEdit {
            description: Some("Free her brother before the court sits".into()),
            ..Default::default()
        },
        &clock(),
    )
    .unwrap();
    let l = store::get_loop(novel.store().conn(), "O0")
        .unwrap()
        .unwrap();
    assert_eq!(
        (l.status, l.description.as_str()),
        (LoopStatus::Open, "Free her brother before the court sits")
    );
    delete_lore(&mut novel, &id, &clock()).unwrap();
    assert!(
        store::get_lore(novel.store().conn(), &id)
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn the_authors_note_and_a_new_lore_entry_reach_the_next_prompt() {
    let (_tmp, mut novel) = novel();
    set_author_note(
        &mut novel,
        "Never name the sea; call it the grey.",
        &clock(),
    )
    .unwrap();
    add_record(
        &mut novel,
        NewRecord::Lore(NewLore {
            fact: "Dockhands swear on the drowned bell.".into(),
            category: "custom".into(),
            importance: Default::default(),
            keywords: vec![],
            aliases: vec![],
            always_on: true,
        }),
        &clock(),
    )
    .unwrap();
    let preview = preview_next(&novel, None).await.unwrap();
    assert!(
        preview.user.contains("Never name the sea"),
        "{}",
        preview.user
    );
    assert!(preview.user.contains("Dockhands swear on the drowned bell"));
    let toml = std::fs::read_to_string(novel.root().join("novel.toml")).unwrap();
    assert!(
        toml.contains("Never name the sea"),
        "novel.toml mirrors the note: {toml}"
    );
}

#[tokio::test]
async fn a_beat_stays_open_when_its_scene_did_not_realize_it_and_the_verdict_is_kept() {
    let (_tmp, mut novel) = novel();
    let beat = add_beat(&mut novel, "Bram betrays her.", None, &clock()).unwrap();
    tick_judged(
        &mut novel,
        plan(Some(&beat.id)),
        Some(json!({"verdict": "not", "missed": ["Bram never appears"]})),
    )
    .await;
    let conn = novel.store().conn();
    assert_eq!(store::list_beats(conn).unwrap()[0].status, BeatStatus::Open);
    let verdict = store::get_verdict(conn, 1).unwrap().unwrap();
    assert_eq!(verdict.verdict.verdict, crate::model::Realized::Not);
    assert_eq!(verdict.verdict.missed, ["Bram never appears"]);
    assert_eq!(verdict.judged_by, "extraction");
    let notes = store::get_tick(conn, 1).unwrap().unwrap().notes.join("\n");
    assert!(
        notes.contains("stays open") && notes.contains("Bram never appears"),
        "{notes}"
    );
    // The writer reads the beat by its words, never by its id.
    assert!(
        notes.contains("\"Bram betrays her.\"") && !notes.contains(&beat.id),
        "{notes}"
    );
    tick_judged(
        &mut novel,
        plan(Some(&beat.id)),
        Some(json!({"verdict": "partly", "missed": ["no witness"]})),
    )
    .await;
    let beats = store::list_beats(novel.store().conn()).unwrap();
    assert_eq!(
        (beats[0].status, beats[0].done_tick),
        (BeatStatus::Done, Some(2))
    );
}

#[tokio::test]
async fn beats_are_taken_in_order_and_done_by_the_tick_that_wrote_them() {
    let (_tmp, mut novel) = novel();
    let first = add_beat(
        &mut novel,
        "Tamsin finds the slate with her name.",
        None,
        &clock(),
    )
    .unwrap();
    let second = add_beat(&mut novel, "Bram betrays her to the watch.", None, &clock()).unwrap();
    let urgent = add_beat(&mut novel, "A storm closes the harbor.", Some(0), &clock()).unwrap();
    let order: Vec<String> = store::list_beats(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|b| b.id)
        .collect();
    assert_eq!(
        order,
        [urgent.id.clone(), first.id.clone(), second.id.clone()]
    );
    let preview = preview_next(&novel, None).await.unwrap();
    assert!(
        preview
            .user
            .contains(&format!("Next beat ({}): A storm", urgent.id))
    );
    tick_with(&mut novel, plan(Some(&urgent.id))).await;
    let beats = store::list_beats(novel.store().conn()).unwrap();
    assert_eq!(beats[0].status, BeatStatus::Done);
    assert_eq!(beats[0].done_tick, Some(1));
    let preview = preview_next(&novel, None).await.unwrap();
    assert!(
        preview
            .user
            .contains(&format!("Next beat ({}): Tamsin finds", first.id))
    );
    move_beat(&mut novel, &second.id, 1, &clock()).unwrap();
    remove_beat(&mut novel, &first.id, &clock()).unwrap();
    let open: Vec<String> = store::list_beats(novel.store().conn())
        .unwrap()
        .into_iter()
        .filter(|b| b.status == BeatStatus::Open)
        .map(|b| b.text)
        .collect();
    assert_eq!(open, ["Bram betrays her to the watch."]);
}

#[tokio::test]
async fn a_clock_rises_with_each_scene_and_an_event_comes_due() {
    let (_tmp, mut novel) = novel();
    add_clock(
        &mut novel,
        NewClock {
            name: "The watch closes in".into(),
            max: 4,
            value: 1,
            per_tick: 1,
            thresholds: vec![crate::model::Threshold {
                at: 2,
                note: "patrols double".into(),
            }],
            ..Default::default()
        },
        &clock(),
    )
    .unwrap();
    add_event(
        &mut novel,
        1,
        "The harbor bells ring for the court.",
        &clock(),
    )
    .unwrap();
    assert!(add_event(&mut novel, 0, "too late", &clock()).is_err());
    let preview = preview_next(&novel, None).await.unwrap();
    assert!(
        preview.user.contains("Must happen in this scene"),
        "{}",
        preview.user
    );
    let model = ScriptedModel::new()
        .reply_json(&plan(None))
        .reply(PROSE)
        .reply_json(&extraction());
    let done = run_tick(
        &mut novel,
        &Models::single(Arc::new(model)),
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
    .unwrap();
    let notes = done.notes.join("\n");
    assert!(notes.contains("reached 2/4: patrols double"), "{notes}");
    assert!(notes.contains("was due"), "{notes}");
    let conn = novel.store().conn();
    assert_eq!(store::list_clocks(conn).unwrap()[0].value, 2);
    assert!(
        add_clock(
            &mut novel,
            NewClock {
                name: "x".into(),
                max: 0,
                ..Default::default()
            },
            &clock()
        )
        .is_err()
    );
}

#[tokio::test]
async fn a_foundation_edit_is_undone_by_a_rewind_and_novel_toml_follows() {
    let (_tmp, mut novel) = novel();
    tick_with(&mut novel, plan(None)).await;
    let after_one = dump(&novel);
    edit_foundation(
        &mut novel,
        &FoundationEdit {
            premise: Some("A smuggler hunts the men who framed her brother.".into()),
            themes: Some(vec!["loyalty".into()]),
            goal: Some("Free her brother".into()),
            ..Default::default()
        },
        &clock(),
    )
    .unwrap();
    assert_eq!(novel.config().novel.themes, vec!["loyalty".to_string()]);
    assert!(
        edit_foundation(
            &mut novel,
            &FoundationEdit {
                title: Some(" ".into()),
                ..Default::default()
            },
            &clock()
        )
        .is_err(),
        "validated like a new novel"
    );
    tick_with(&mut novel, plan(None)).await;
    control::rewind(&mut novel, 1, &clock()).unwrap();
    assert_eq!(dump(&novel), after_one, "the edit after scene 1 is undone");
    assert!(novel.config().novel.themes.is_empty());
    let toml = std::fs::read_to_string(novel.root().join("novel.toml")).unwrap();
    assert!(!toml.contains("loyalty"), "{toml}");
}

#[test]
fn a_hand_edited_novel_toml_is_recorded_on_open() {
    let (_tmp, novel) = novel();
    let root = novel.root().to_path_buf();
    drop(novel);
    let path = root.join("novel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("genre = \"noir\"", "genre = \"gothic noir\""),
    )
    .unwrap();
    let novel = crate::novel::Novel::open(&root, crate::novel::Access::Write).unwrap();
    let conn = novel.store().conn();
    assert_eq!(
        store::get_foundation(conn).unwrap().unwrap().genre,
        "gothic noir"
    );
    assert!(
        store::head(conn).unwrap().head.is_some(),
        "the hand edit is a recorded change"
    );
}

#[tokio::test]
async fn an_edit_is_re_read_the_changes_trimmed_and_a_later_scene_flagged() {
    let (_tmp, mut novel) = novel();
    // Scene 1 brings Bram in (C1); scenes 2 and 3 have him on the page.
    let bram = json!({"rationale": "r", "scene_intention": "Tamsin meets Bram.", "pov_character": "C0",
        "target_location": "L0", "actions": [{"tool": "character.generate", "args": {"name": "Bram", "role": "dockhand", "location": "L0"}}]});
    tick_with(&mut novel, bram).await;
    tick_with(&mut novel, plan(None)).await;
    tick_with(&mut novel, plan(None)).await;
    let edited =
        format!("{PROSE}\n\nThe watch shot Bram on the quay, and he died before the tide turned.");
    crate::edits::edit_scene_prose(&mut novel, 2, &edited, &clock()).unwrap();
    let reread = json!({"title": "Bram Falls", "summary": ["The watch kills Bram.", "Tamsin runs."], "tension": 9,
        "character_updates": [{"id": "C1", "changes": {"status": "dead"}}, {"id": "C0", "changes": {"emotional_state": "grieving"}}]});
    let model = ScriptedModel::new().reply_json(&reread);
    let models = Models::single(Arc::new(model.clone()));
    let proposal = propose_after_edit(&novel, &models, 2).await.unwrap();
    assert_eq!(model.calls(), 1, "one extraction call");
    assert_eq!(proposal.title, "Bram Falls");
    assert_eq!(proposal.changes.len(), 2);
    assert_eq!(proposal.later.len(), 1, "{:?}", proposal.later);
    assert_eq!(proposal.later[0].tick, 3);
    assert!(
        proposal.later[0]
            .findings
            .iter()
            .any(|f| f.check == crate::evaluate::Check::DeadCharacter)
    );
    let before = dump(&novel);
    // Trimmed: the writer keeps Bram alive after all, but takes the new title and mood.
    let accepted = accept_edit_proposal(&mut novel, &proposal, &[0], &clock()).unwrap();
    assert!(accepted.later.is_empty(), "{:?}", accepted.later);
    let conn = novel.store().conn();
    assert_eq!(
        store::get_character(conn, "C1").unwrap().unwrap().status,
        crate::model::LifeStatus::Alive
    );
    assert_eq!(
        store::get_character(conn, "C0")
            .unwrap()
            .unwrap()
            .emotional_state
            .as_deref(),
        Some("grieving")
    );
    let scene = store::list_scenes(conn)
        .unwrap()
        .into_iter()
        .find(|s| s.tick == 2)
        .unwrap();
    assert_eq!(
        (scene.title.as_str(), scene.tension),
        ("Bram Falls", Some(9))
    );
    assert_ne!(dump(&novel), before);
    // Every change kept: scene 3 is flagged, not rewritten.
    let accepted = accept_edit_proposal(&mut novel, &proposal, &[], &clock()).unwrap();
    assert_eq!(accepted.later.len(), 1);
    let third = store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .find(|s| s.tick == 3)
        .unwrap();
    assert!(third.prose.contains("Bram"), "the later scene is untouched");
}

fn connected(novel: &crate::novel::Novel, a: &str, b: &str) -> bool {
    store::get_location(novel.store().conn(), a)
        .unwrap()
        .unwrap()
        .connections
        .iter()
        .any(|c| c == b)
}

#[tokio::test]
async fn places_are_connected_and_disconnected_by_the_writer_and_a_rewind_undoes_it() {
    let (_tmp, mut novel) = novel();
    let gate = add_record(
        &mut novel,
        NewRecord::Location(crate::memory::NewLocation {
            name: "Salt Gate".into(),
            ..Default::default()
        }),
        &clock(),
    )
    .unwrap();
    connect_places(&mut novel, "L0", &gate, "a flooded stair", &clock()).unwrap();
    assert!(connected(&novel, "L0", &gate) && connected(&novel, &gate, "L0"));
    assert_eq!(
        store::list_connections(novel.store().conn()).unwrap(),
        vec![("L0".into(), gate.clone(), "a flooded stair".into())]
    );
    // Refused with a reason, and nothing changes.
    let before = dump(&novel);
    for (a, b, want) in [
        ("L0", "L0", "itself"),
        ("L0", "L9", "does not exist"),
        ("L0", "C0", "not a place id"),
        (gate.as_str(), "L0", "already connected"),
    ] {
        let err = connect_places(&mut novel, a, b, "", &clock()).unwrap_err();
        assert!(err.to_string().contains(want), "{a}–{b}: {err}");
    }
    assert_eq!(dump(&novel), before);

    tick_with(&mut novel, plan(None)).await;
    let after_one = dump(&novel);
    disconnect_places(&mut novel, &gate, "L0", &clock()).unwrap();
    assert!(!connected(&novel, "L0", &gate) && !connected(&novel, &gate, "L0"));
    let history = store::history_of(novel.store().conn(), &gate).unwrap();
    let last = history.last().unwrap();
    assert_eq!(
        (last.field.as_str(), last.source.as_str()),
        ("connections", "writer")
    );
    assert_eq!(last.new_value, Some(json!([])));
    assert_eq!(
        last.change, "disconnected from Rainmarket Docks by the writer",
        "named, never by id: the place's panel shows it"
    );
    // A later update of the place does not bring the removed way back.
    edit_record(
        &mut novel,
        "L0",
        &update(json!({"description": "Piers and fish stalls"})),
        &clock(),
    )
    .unwrap();
    assert!(!connected(&novel, "L0", &gate));
    let err = disconnect_places(&mut novel, "L0", &gate, &clock()).unwrap_err();
    assert!(err.to_string().contains("not connected"), "{err}");

    tick_with(&mut novel, plan(None)).await;
    control::rewind(&mut novel, 1, &clock()).unwrap();
    assert_eq!(
        dump(&novel),
        after_one,
        "the removal after scene 1 is undone"
    );
    assert!(connected(&novel, "L0", &gate));
}

/// The app sends a new record as JSON: a relationship's own `kind` ("ally") must survive the
/// record's tag.
#[test]
fn a_relationship_added_as_json_keeps_its_kind_and_both_perspectives() {
    let (_tmp, mut novel) = novel();
    let bram = add_record(
        &mut novel,
        serde_json::from_value(json!({"record": "character", "name": "Bram"})).unwrap(),
        &clock(),
    )
    .unwrap();
    let record: NewRecord = serde_json::from_value(json!({
        "record": "relationship", "character_a": "C0", "character_b": bram, "kind": "ally",
        "status": "uneasy", "intensity": 4,
        "perspective_a": "a debt she cannot repay", "perspective_b": "trouble, but his trouble"
    }))
    .unwrap();
    let id = add_record(&mut novel, record, &clock()).unwrap();
    let r = store::get_relationship(novel.store().conn(), &id)
        .unwrap()
        .unwrap();
    assert_eq!(
        (r.kind.as_str(), r.status.as_str(), r.intensity),
        ("ally", "uneasy", 4)
    );
    assert_eq!(r.perspective_of(&bram), "trouble, but his trouble");
    // Its kind, intensity and each side's view are then the writer's to change.
    edit_record(
        &mut novel,
        &id,
        &update(json!({"kind": "rival", "intensity": 9, "perspective_a": "a knife at her back"})),
        &clock(),
    )
    .unwrap();
    let err =
        edit_record(&mut novel, &id, &update(json!({"intensity": 11})), &clock()).unwrap_err();
    assert!(err.to_string().contains("intensity"), "{err}");
    let r = store::get_relationship(novel.store().conn(), &id)
        .unwrap()
        .unwrap();
    assert_eq!((r.kind.as_str(), r.intensity), ("rival", 9));
    assert_eq!(r.perspective_a, "a knife at her back");
}
