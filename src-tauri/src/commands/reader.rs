//! Manuscript reader: every scene in order, the contents (chapters and parts), and saving the
//! writer's edit of one scene.

use novel_core::checks::{self, Finding};
use novel_core::clock::SystemClock;
use novel_core::edits;
use novel_core::views::{self, ChapterView, SceneView};
use tauri::{AppHandle, State};

use super::open_novel::changed;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn manuscript(state: State<'_, AppState>) -> AppResult<Vec<SceneView>> {
    let novel = state.session()?.read()?;
    Ok(views::manuscript(novel.store().conn())?)
}

/// The book's chapters in order (stored or proposed), each with its part and scenes.
#[tauri::command]
#[specta::specta]
pub async fn book_contents(state: State<'_, AppState>) -> AppResult<Vec<ChapterView>> {
    let novel = state.session()?.read()?;
    Ok(views::contents(novel.store().conn())?)
}

/// Replaces the prose of the scene of `tick`.
#[tauri::command]
#[specta::specta]
pub async fn save_scene(
    app: AppHandle,
    state: State<'_, AppState>,
    tick: u32,
    prose: String,
) -> AppResult<SceneView> {
    let session = state.session()?;
    {
        let mut novel = session.write()?;
        edits::edit_scene_prose(&mut novel, tick, &prose, &SystemClock)?;
    }
    changed(&app, Some(session.path_string()), ChangeReason::SceneEdited);
    let novel = session.read()?;
    views::manuscript(novel.store().conn())?
        .into_iter()
        .find(|s| s.tick == tick)
        .ok_or_else(|| AppError::NotFound {
            message: format!("there is no scene for tick {tick}"),
        })
}

/// Every check on the scene of `tick` as it stands now (after the writer's edits too), read
/// through its own POV character's eyes against the story memory.
#[tauri::command]
#[specta::specta]
pub async fn check_scene(state: State<'_, AppState>, tick: u32) -> AppResult<Vec<Finding>> {
    let novel = state.session()?.read()?;
    Ok(checks::check_scene(
        novel.store().conn(),
        novel.config(),
        tick,
    )?)
}
