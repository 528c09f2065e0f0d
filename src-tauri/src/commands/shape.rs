//! The writer shaping the book by hand in the manuscript: add a scene they wrote at a place (or
//! ask the agent to write it there from a note), move, split, merge, rename or delete a scene,
//! delete or move a chapter — and undo the latest change. Thin: each is one call to
//! `novel_core::shape`, which renumbers the scenes, records the change and names the scenes to
//! re-read.

use novel_core::clock::SystemClock;
use novel_core::shape::{self, Place, Shaped, Undone};
use serde::Deserialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::open_novel::edit_open_novel;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

/// One change to the shape of the book. Scene and chapter numbers are as the book is now.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum SceneChange {
    /// A scene the writer wrote goes in at `place`.
    Add {
        place: Place,
        title: String,
        prose: String,
    },
    /// Scene `scene` goes to `place`.
    Move {
        scene: u32,
        place: Place,
    },
    /// Scene `scene` is split after its paragraph `after_paragraph` (1-based).
    Split {
        scene: u32,
        after_paragraph: u32,
    },
    /// Scene `scene` is split where the editor's cursor is: its text becomes `prose` (the
    /// editor's, unsaved edits included) cut at character `at` (a code point, not a UTF-16
    /// unit); inside a paragraph, the paragraph is split.
    SplitAt {
        scene: u32,
        prose: String,
        at: u32,
    },
    /// Scene `scene` and the next become one.
    Merge {
        scene: u32,
    },
    Rename {
        scene: u32,
        title: String,
    },
    Delete {
        scene: u32,
    },
    /// Chapter `chapter` and its scenes are deleted.
    DeleteChapter {
        chapter: u32,
    },
    /// Chapter `chapter` goes before chapter `before` (`None`: to the end).
    MoveChapter {
        chapter: u32,
        before: Option<u32>,
    },
}

/// Makes `change`; returns what it did (the scene to show, the scenes to re-read).
#[tauri::command]
#[specta::specta]
pub async fn shape_book(
    app: AppHandle,
    state: State<'_, AppState>,
    change: SceneChange,
) -> AppResult<Shaped> {
    edit_open_novel(&app, &state, ChangeReason::SceneEdited, |novel| {
        let clock = SystemClock;
        match change {
            SceneChange::Add {
                place,
                title,
                prose,
            } => shape::add_scene(novel, place, &title, &prose, &clock),
            SceneChange::Move { scene, place } => shape::move_scene(novel, scene, place, &clock),
            SceneChange::Split {
                scene,
                after_paragraph,
            } => shape::split_scene(novel, scene, after_paragraph as usize, None, &clock),
            SceneChange::SplitAt { scene, prose, at } => {
                shape::split_scene_at(novel, scene, &prose, at as usize, &clock)
            }
            SceneChange::Merge { scene } => shape::merge_scenes(novel, scene, &clock),
            SceneChange::Rename { scene, title } => {
                shape::rename_scene(novel, scene, &title, &clock)
            }
            SceneChange::Delete { scene } => shape::delete_scene(novel, scene, &clock),
            SceneChange::DeleteChapter { chapter } => shape::delete_chapter(novel, chapter, &clock),
            SceneChange::MoveChapter { chapter, before } => {
                shape::move_chapter(novel, chapter, before, &clock)
            }
        }
    })
}

/// Asks the agent to write a scene at `place` doing what `note` says (the book as it stands
/// before the place is its story so far); returns the change as `shape_book` does. A failed
/// call leaves the book as it was.
#[tauri::command]
#[specta::specta]
pub async fn write_scene_at(
    app: AppHandle,
    state: State<'_, AppState>,
    place: Place,
    note: String,
) -> AppResult<Shaped> {
    let session = state.session()?;
    let mut novel = session.write()?;
    let models = novel_core::role_models::models_for(
        &novel,
        &super::write::profiles()?,
        None,
        novel_llm::Limits::default(),
    )?;
    let path = Some(session.path_string());
    let shaped = tauri::async_runtime::spawn_blocking(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(AppError::from)?
            .block_on(shape::write_scene(
                &mut novel,
                &models,
                place,
                &note,
                None,
                &(),
                &novel_core::run::CancelToken::new(),
                &SystemClock,
            ))
            .map_err(AppError::from)
    })
    .await
    .map_err(|e| AppError::storage(format!("the writing thread stopped: {e}")))??;
    super::open_novel::changed(&app, path, ChangeReason::SceneEdited);
    Ok(shaped)
}

/// Undoes the writer's latest change (the story returns exactly to the state before it).
#[tauri::command]
#[specta::specta]
pub async fn undo_change(app: AppHandle, state: State<'_, AppState>) -> AppResult<Undone> {
    edit_open_novel(&app, &state, ChangeReason::SceneEdited, shape::undo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_read_the_shape_the_bindings_send() {
        let add: SceneChange = serde_json::from_value(serde_json::json!({
            "change": "add", "place": {"kind": "before", "at": 3},
            "title": "Fog", "prose": "The fog came in."
        }))
        .unwrap();
        assert!(matches!(
            add,
            SceneChange::Add {
                place: Place::Before(3),
                ..
            }
        ));
        let moved: SceneChange = serde_json::from_value(serde_json::json!({
            "change": "move", "scene": 4, "place": {"kind": "end_of_chapter", "at": 2}
        }))
        .unwrap();
        assert!(matches!(
            moved,
            SceneChange::Move {
                scene: 4,
                place: Place::EndOfChapter(2)
            }
        ));
    }
}
