//! Timeline and loops board: a row per tick (failed ones with Retry / Skip) and every open loop.

use novel_core::edits;
use novel_core::views::{self, LoopCard, TimelineRow};
use tauri::{AppHandle, State};

use super::open_novel::changed;
use crate::error::AppResult;
use crate::events::ChangeReason;
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn timeline(state: State<'_, AppState>) -> AppResult<Vec<TimelineRow>> {
    let novel = state.session()?.read()?;
    Ok(views::timeline(novel.store().conn())?)
}

/// Gives up on the failed tick: the next scene starts fresh. (Retry is simply the next run.)
#[tauri::command]
#[specta::specta]
pub async fn skip_failed_tick(
    app: AppHandle,
    state: State<'_, AppState>,
    tick: u32,
) -> AppResult<()> {
    let session = state.session()?;
    edits::skip_failed_tick(&mut *session.write()?, tick)?;
    changed(
        &app,
        Some(session.path_string()),
        ChangeReason::FailureSkipped,
    );
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn loops_board(state: State<'_, AppState>) -> AppResult<Vec<LoopCard>> {
    let novel = state.session()?.read()?;
    Ok(views::loops_board(novel.store().conn())?)
}
