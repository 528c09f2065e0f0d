//! Graph: characters and locations with their relationships and connections, and one entity
//! in full with its history.

use novel_core::views::{self, EntityDetail, StoryGraph};
use tauri::State;

use crate::error::{AppError, AppResult};
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn story_graph(state: State<'_, AppState>) -> AppResult<StoryGraph> {
    let novel = state.session()?.read()?;
    Ok(views::story_graph(novel.store().conn())?)
}

#[tauri::command]
#[specta::specta]
pub async fn entity_detail(state: State<'_, AppState>, id: String) -> AppResult<EntityDetail> {
    let novel = state.session()?.read()?;
    views::entity_detail(novel.store().conn(), &id)?.ok_or_else(|| AppError::NotFound {
        message: format!("There is no character, place or other record called {id}."),
    })
}
