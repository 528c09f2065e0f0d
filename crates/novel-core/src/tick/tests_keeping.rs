//! Nothing a writer saw is lost: a scene whose stream broke off leaves what had streamed in its
//! error file (and in the overview, for after a restart); "Keep as a draft" commits it with no
//! model call for the writer to finish; a keep that fails in turn leaves the draft in place.

use std::cell::RefCell;
use std::sync::Arc;

use novel_llm::{LlmError, ScriptedModel};
use serde_json::json;

use super::tests::{PROSE, clock, extraction, novel, tick};
use super::*;
use crate::novel::Novel;
use crate::store;

fn plan() -> serde_json::Value {
    json!({"rationale": "r", "scene_intention": "i", "pov_character": "C0",
           "target_location": "L0", "actions": []})
}

fn cut() -> LlmError {
    LlmError::StreamCut {
        provider: "scripted".into(),
        detail: "connection reset".into(),
    }
}

/// The first half of the fixture's prose, as a stream cut mid-scene delivers it.
fn half() -> String {
    let words: Vec<&str> = PROSE.split_inclusive(' ').collect();
    words[..words.len() / 2].concat()
}

async fn fail_mid_stream(novel: &mut Novel) {
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .cut(half(), cut())
        .fail(cut());
    let events = RefCell::new(Vec::new());
    let err = tick(novel, &model, &events).await.unwrap_err();
    assert!(matches!(err, TickError::Failed { tick: 1, .. }), "{err:?}");
}

fn error_record(novel: &Novel) -> serde_json::Value {
    let (path, _) = crate::files::error_paths(novel.root(), 1);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn keep(
    novel: &mut Novel,
    model: &ScriptedModel,
    keep_as: KeepAs,
) -> Result<TickOutcome, TickError> {
    let models = Models::single(Arc::new(model.clone()));
    keep_failed_draft_as(
        novel,
        &models,
        keep_as,
        &|_| {},
        &CancelToken::new(),
        &clock(),
    )
    .await
}

#[tokio::test]
async fn a_stream_cut_mid_scene_keeps_what_streamed_in_the_error_file_and_the_overview() {
    let (_tmp, mut novel) = novel();
    fail_mid_stream(&mut novel).await;
    let record = error_record(&novel);
    let draft = record["prose"].as_str().unwrap();
    assert_eq!(draft, half().trim(), "what the writer saw streaming");
    let overview =
        crate::views::overview(novel.store().conn(), novel.root(), novel.config()).unwrap();
    assert_eq!(overview.pending_failure.unwrap().tick, 1);
    assert_eq!(overview.failed_draft.as_deref(), Some(half().trim()));
}

#[tokio::test]
async fn keep_as_a_draft_commits_the_partial_scene_without_a_model_call() {
    let (_tmp, mut novel) = novel();
    fail_mid_stream(&mut novel).await;
    let model = ScriptedModel::new();
    let done = keep(&mut novel, &model, KeepAs::Draft).await.unwrap();
    assert_eq!(
        model.calls(),
        0,
        "no model call: the provider may still be down"
    );
    assert_eq!(done.tick, 1);
    assert_eq!(done.scene.prose, half().trim());
    assert!(!done.scene.title.is_empty());
    let conn = novel.store().conn();
    assert_eq!(store::load_state(conn).unwrap().current_tick, 1);
    let record = store::get_tick(conn, 1).unwrap().unwrap();
    assert!(
        record.notes.iter().any(|n| n.contains("finish by hand")),
        "{:?}",
        record.notes
    );
    let overview = crate::views::overview(conn, novel.root(), novel.config()).unwrap();
    assert!(overview.pending_failure.is_none() && overview.failed_draft.is_none());
    assert_eq!(overview.last_scene.unwrap().tick, 1);
}

#[tokio::test]
async fn a_keep_that_fails_leaves_the_draft_in_the_error_file() {
    let (_tmp, mut novel) = novel();
    fail_mid_stream(&mut novel).await;
    // Keeping as a scene reads its memory: the provider is still down.
    let model = ScriptedModel::new().fail(cut()).fail(cut()).fail(cut());
    keep(&mut novel, &model, KeepAs::Scene).await.unwrap_err();
    assert_eq!(error_record(&novel)["prose"].as_str(), Some(half().trim()));
    // And once it answers, the same draft is kept with its memory read.
    let model = ScriptedModel::new().reply_json(&extraction());
    let done = keep(&mut novel, &model, KeepAs::Scene).await.unwrap();
    assert_eq!(done.scene.title, "Low Tide");
    assert_eq!(done.scene.prose, half().trim());
}
