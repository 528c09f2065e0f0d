//! "Write scene N again" only for the agent's own latest scene: an imported scene and a scene
//! written by hand are refused with the reason, the overview says so before the writer asks,
//! and nothing in the story moves.

use std::sync::Arc;

use novel_llm::ScriptedModel;

use super::*;
use crate::shape::{self, Place};
use crate::synthetic;
use crate::tick::tests::{clock, imported_two_scenes};
use crate::views;

fn refusal(novel: &Novel) -> Option<String> {
    views::overview(novel.store().conn(), novel.root(), novel.config())
        .unwrap()
        .write_again_refusal
}

async fn write_again(novel: &mut Novel) -> Result<TickOutcome, ControlError> {
    // No model call is made: the scripted model has nothing to say.
    let models = Models::single(Arc::new(ScriptedModel::new()));
    regenerate(
        novel,
        &models,
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
}

fn prose(novel: &Novel) -> Vec<String> {
    store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|s| s.prose)
        .collect()
}

#[tokio::test]
async fn an_imported_scene_is_not_written_again() {
    let (_tmp, mut novel) = imported_two_scenes().await;
    let before = prose(&novel);
    assert_eq!(before.len(), 2);

    let why = refusal(&novel).expect("the overview says the last scene cannot be written again");
    assert!(why.contains("imported manuscript"), "{why}");
    let err = write_again(&mut novel).await.unwrap_err();
    assert!(err.to_string().contains("imported manuscript"), "{err}");
    assert_eq!(prose(&novel), before, "the imported scene is untouched");

    // A scene added before the first moves the imported ones on: the last (now scene 3) is
    // still the manuscript's, though the import recorded it as scene 2.
    shape::add_scene(
        &mut novel,
        Place::Before(1),
        "Prologue",
        "Mara wrote a prologue herself.",
        &clock(),
    )
    .unwrap();
    let why = refusal(&novel).expect("the last scene is still the imported one");
    assert!(why.contains("imported manuscript"), "{why}");
}

#[tokio::test]
async fn a_scene_written_by_hand_is_not_written_again_but_the_agents_is() {
    let tmp = tempfile::tempdir().unwrap();
    let mut novel = synthetic::generate(&tmp.path().join("n"), 3, &[]).unwrap();
    assert_eq!(refusal(&novel), None, "the agent wrote scene 3");

    shape::add_scene(
        &mut novel,
        Place::EndOfChapter(1),
        "By hand",
        "Mara wrote this one herself, every word of it.",
        &clock(),
    )
    .unwrap();
    let before = prose(&novel);
    assert_eq!(before.len(), 4);
    let why = refusal(&novel).expect("scene 4 was written by hand");
    assert!(why.contains("written by hand"), "{why}");
    let err = write_again(&mut novel).await.unwrap_err();
    assert!(err.to_string().contains("written by hand"), "{err}");
    assert_eq!(prose(&novel), before, "the writer's scene is untouched");
}

#[tokio::test]
async fn the_agents_last_scene_moved_on_by_a_scene_added_before_it_is_refused_as_reshaped() {
    let tmp = tempfile::tempdir().unwrap();
    let mut novel = synthetic::generate(&tmp.path().join("n"), 3, &[]).unwrap();
    shape::add_scene(
        &mut novel,
        Place::Before(1),
        "Prologue",
        "Mara wrote a prologue herself.",
        &clock(),
    )
    .unwrap();
    let before = prose(&novel);
    let why = refusal(&novel).expect("the agent's scene is now scene 4");
    assert!(why.contains("reshaped"), "{why}");
    let err = write_again(&mut novel).await.unwrap_err();
    assert!(err.to_string().contains("reshaped"), "{err}");
    assert_eq!(prose(&novel), before);
}
