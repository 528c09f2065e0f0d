//! The agent writing a scene at a place in the book from the writer's note, on the scripted
//! model: where it lands, what the writer model was shown, that the memory does not move, and
//! that undo and a failed call leave the book as it was.

use std::sync::Arc;

use novel_llm::{LlmError, ScriptedModel};

use super::tests::{assert_same_story, book, files_of, ids, story};
use super::*;
use crate::tick::tests::clock;
use crate::tick::{CancelToken, Models};

const NOTE: &str = "Tamsin finds the tide table in the lamp room. She keeps it from Bram.";

/// Short of the target (so the checks ask for the revision), long enough to be a scene.
const PROSE: &str = "The lamp room smelled of paraffin and salt. Tamsin found the tide table \
    folded under the oil can, its creases soft with damp.\n\nShe read it twice by the grey \
    window, then put it inside her coat and went down the stairs.\n\nThe keeper's chair still \
    stood by the stove, a blanket over its arm as if he meant to come back for it. She did not \
    sit. Below her the sea worked at the rocks with the patience of something that had never \
    once been asked to hurry, and the gulls quarrelled over the harbour wall.\n\nAt the foot \
    of the stairs she stopped and listened. Boots on the shingle, two men, maybe three, and the \
    creak of a lantern swinging on its hook. She pressed herself into the dark under the \
    landing, the tide table flat against her ribs, and counted her own breaths until the boots \
    went past and the lantern light slid away along the path to the town.";

async fn write(
    novel: &mut Novel,
    model: &ScriptedModel,
    place: Place,
) -> Result<Shaped, ShapeError> {
    let models = Models::single(Arc::new(model.clone()));
    write_scene(
        novel,
        &models,
        place,
        NOTE,
        None,
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
}

/// The whole text a request sent.
fn sent(model: &ScriptedModel, call: usize) -> String {
    let request = &model.requests()[call];
    let mut text = request.system.clone().unwrap_or_default();
    for m in &request.messages {
        text.push_str(&m.content);
    }
    text
}

#[tokio::test]
async fn the_agent_writes_a_scene_between_two_and_three_from_the_note_and_undo_takes_it_out() {
    let (_tmp, mut novel) = book(12);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let before_ids = ids(&novel);
    let conn = novel.store().conn();
    let characters = store::list_characters(conn).unwrap();
    let scenes = store::list_scenes(conn).unwrap();
    let model = ScriptedModel::new().otherwise(PROSE);

    let shaped = write(&mut novel, &model, Place::Before(3)).await.unwrap();

    assert_eq!(shaped.label, "scene 3 written from your note");
    assert_eq!(shaped.scene, Some(3));
    assert_eq!(
        shaped.reread,
        vec![3],
        "its memory is proposed by a re-read"
    );
    assert_eq!(shaped.scenes, 13);
    let now = ids(&novel);
    assert_eq!(now[..2], before_ids[..2]);
    assert_eq!(now[3..], before_ids[2..], "the old scene 3 is scene 4 now");
    let conn = novel.store().conn();
    let new = &store::list_scenes(conn).unwrap()[2];
    assert_eq!(new.prose, PROSE);
    assert_eq!(new.title, "Tamsin finds the tide table in the lamp room");
    assert_eq!(
        new.pov_character, scenes[1].pov_character,
        "the scene before's eyes"
    );

    // The writer model saw the book up to the place: scene 2 and the note, not the scenes
    // after; the scene it leads into is named by its summary.
    let prompt = sent(&model, 0);
    assert!(prompt.contains(NOTE));
    assert!(
        prompt.contains(&scenes[1].title),
        "the scene before is in view"
    );
    for later in &scenes[2..] {
        assert!(
            !prompt.contains(&later.title),
            "{} is after the place",
            later.title
        );
    }
    assert!(
        prompt.contains(&scenes[2].summary[0]),
        "it leads into the next scene"
    );
    assert!(prompt.contains("# Scene 3"));

    // The memory did not move on as if the scene came last; the scene keeps its note as its
    // plan, the checks' findings, and a version as the agent's.
    assert_eq!(store::list_characters(conn).unwrap(), characters);
    let record = store::get_tick(conn, 3).unwrap().unwrap();
    assert_eq!(record.plan.unwrap()["scene_intention"], NOTE);
    assert!(record.findings.is_array());
    // The scene is short of its length, so it was revised once: the draft, then the revision.
    let versions = store::versions_of(conn, 3).unwrap();
    let origins: Vec<_> = versions.iter().map(|v| v.origin).collect();
    assert_eq!(
        origins,
        [store::VersionOrigin::Draft, store::VersionOrigin::Revision]
    );
    assert!(crate::files::scene_path(novel.root(), 3).exists());
    assert!(crate::files::plan_path(novel.root(), 3).exists());
    let hits = store::search(conn, "paraffin", &[], 5).unwrap();
    assert_eq!(hits[0].entity_id, new.id);

    let undone = undo(&mut novel).unwrap();
    assert_eq!(undone.label, "scene 3 written from your note");
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
}

#[tokio::test]
async fn a_failed_call_leaves_the_book_as_it_was_and_records_the_failure() {
    let (_tmp, mut novel) = book(6);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let model = ScriptedModel::new().fail(LlmError::Auth {
        provider: "local".into(),
        status: 401,
        setting_hint: "check the key".into(),
    });

    let err = write(&mut novel, &model, Place::Before(2))
        .await
        .unwrap_err();

    assert!(matches!(err, ShapeError::Writing(_)), "{err}");
    assert!(err.to_string().contains("the book is unchanged"), "{err}");
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
    let failures = store::list_failures(novel.store().conn()).unwrap();
    assert_eq!(failures.len(), 1);
    assert!(
        failures[0]
            .error_file
            .ends_with("errors/error_002_note_1.json")
    );
    assert!(std::path::Path::new(&failures[0].error_file).exists());
    assert!(
        failures[0].resolved,
        "it is not the next scene's failure to retry"
    );
    // Nothing to undo: the failure changed nothing of the writer's.
    assert!(undo(&mut novel).is_err());
}

#[tokio::test]
async fn the_first_draft_is_kept_as_an_earlier_version_when_the_checks_ask_for_the_revision() {
    let (_tmp, mut novel) = book(6);
    let leaky =
        format!("{PROSE}\n\nShe didn't realize that Bram had already seen her from the stairs.");
    let model = ScriptedModel::new().reply(leaky.clone()).otherwise(PROSE);

    let shaped = write(&mut novel, &model, Place::Before(3)).await.unwrap();

    assert_eq!(shaped.scene, Some(3));
    let conn = novel.store().conn();
    assert_eq!(store::list_scenes(conn).unwrap()[2].prose, PROSE);
    // As a tick keeps it: the draft first, not the scene's text by any change, then the
    // revision the change put in.
    let versions = store::versions_of(conn, 3).unwrap();
    let origins: Vec<_> = versions.iter().map(|v| v.origin).collect();
    assert_eq!(
        origins,
        [store::VersionOrigin::Draft, store::VersionOrigin::Revision]
    );
    assert_eq!(versions[0].prose, leaky);
    assert_eq!(versions[0].change_seq, None);
    assert_eq!(versions[1].prose, PROSE);
    assert!(versions[1].change_seq.is_some());
}

#[tokio::test]
async fn a_cancel_that_comes_while_the_scene_is_checked_still_leaves_the_book_as_it_was() {
    let (_tmp, mut novel) = book(4);
    let before_story = story(&novel);
    let before_files = files_of(novel.root());
    let model = ScriptedModel::new().otherwise(PROSE);
    let models = Models::single(Arc::new(model.clone()));
    let cancel = CancelToken::new();
    // The writer presses cancel once the scene is written, before it goes in.
    let observer = |event: crate::tick::TickEvent| {
        if matches!(
            event,
            crate::tick::TickEvent::Stage {
                stage: crate::tick::Stage::Checking
            }
        ) {
            cancel.cancel();
        }
    };

    let err = write_scene(
        &mut novel,
        &models,
        Place::Before(2),
        NOTE,
        None,
        &observer,
        &cancel,
        &clock(),
    )
    .await
    .unwrap_err();

    assert!(matches!(err, ShapeError::Cancelled), "{err}");
    assert_same_story(&story(&novel), &before_story);
    assert_eq!(files_of(novel.root()), before_files);
    assert!(
        store::list_failures(novel.store().conn())
            .unwrap()
            .is_empty()
    );
    assert!(undo(&mut novel).is_err(), "nothing went in to undo");
}

/// A failure no model can get past: the key was refused.
fn refused() -> LlmError {
    LlmError::Auth {
        provider: "local".into(),
        status: 401,
        setting_hint: "check the key".into(),
    }
}

#[tokio::test]
async fn two_failed_writes_at_one_place_leave_two_error_files_and_spare_the_next_scenes() {
    let (_tmp, mut novel) = book(4);
    // The next scene (5) failed as a tick would: its error file holds a draft to keep.
    let tick_error = crate::files::error_paths(novel.root(), 5).0;
    std::fs::create_dir_all(tick_error.parent().unwrap()).unwrap();
    std::fs::write(&tick_error, r#"{"prose": "The next scene's draft."}"#).unwrap();
    let model = ScriptedModel::new().fail(refused()).fail(refused());

    for _ in 0..2 {
        let err = write(&mut novel, &model, Place::EndOfChapter(1))
            .await
            .unwrap_err();
        assert!(matches!(err, ShapeError::Writing(_)), "{err}");
    }

    assert_eq!(
        std::fs::read_to_string(&tick_error).unwrap(),
        r#"{"prose": "The next scene's draft."}"#,
        "the next scene's error file is not overwritten"
    );
    let failures = store::list_failures(novel.store().conn()).unwrap();
    assert_eq!(failures.len(), 2);
    assert_ne!(failures[0].error_file, failures[1].error_file);
    for failure in &failures {
        let path = std::path::Path::new(&failure.error_file);
        assert_ne!(path, tick_error);
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(record["tick"], 5);
        assert!(record["error"]["message"].is_string());
        // What to do names asking again, never retrying a next scene it was not.
        let instructions = record["instructions"].as_str().unwrap();
        assert!(instructions.contains("novel scene write"), "{instructions}");
        assert!(!instructions.contains("--retry"), "{instructions}");
        assert!(path.with_extension("log").exists(), "{}", path.display());
    }
}

#[tokio::test]
async fn a_scene_written_from_a_note_is_not_written_again_as_the_next_scene() {
    let (_tmp, mut novel) = book(4);
    let model = ScriptedModel::new().otherwise(PROSE);
    let shaped = write(&mut novel, &model, Place::EndOfChapter(1))
        .await
        .unwrap();
    assert_eq!(shaped.scene, Some(5), "at the end of the book");
    let why = crate::control::write_again_refusal(novel.store().conn(), 5)
        .unwrap()
        .expect("refused");
    assert!(why.contains("from your note"), "{why}");
}

#[tokio::test]
async fn an_empty_note_or_a_missing_place_asks_nothing_of_the_model() {
    let (_tmp, mut novel) = book(3);
    let model = ScriptedModel::new();
    let models = Models::single(Arc::new(model.clone()));
    let cancel = CancelToken::new();
    let empty = write_scene(
        &mut novel,
        &models,
        Place::Before(2),
        "  ",
        None,
        &(),
        &cancel,
        &clock(),
    )
    .await;
    assert!(matches!(empty, Err(ShapeError::EmptyNote)));
    let nowhere = write(&mut novel, &model, Place::Before(9)).await;
    assert!(matches!(
        nowhere,
        Err(ShapeError::NoSuchScene { tick: 9, .. })
    ));
    assert_eq!(model.calls(), 0);
}
