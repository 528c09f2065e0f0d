//! The typed commands the UI calls, one module per view. Each is a thin adapter: it takes the
//! open novel from [`crate::state`], calls `novel-core`, and maps errors to [`crate::error`].

pub mod allowed;
pub mod audit;
pub mod bible;
pub mod chapters;
pub mod export;
pub mod graph;
pub mod history;
pub mod import;
pub mod library;
pub mod provider_discovery;
pub mod providers;
pub mod reader;
pub mod replace;
pub mod search;
pub mod settings;
pub mod shape;
pub mod synopsis;
#[cfg(test)]
mod test_novel;
pub mod timeline;
pub mod write;

use tauri::AppHandle;
use tauri_specta::Event;

use crate::error::{AppError, AppResult};
use crate::events::{ChangeReason, NovelChanged};

/// Runs one change on the open novel (under its writer's lock) and tells every view why.
pub(crate) fn edit_open_novel<T, E: Into<AppError>>(
    app: &AppHandle,
    state: &tauri::State<'_, crate::state::AppState>,
    reason: ChangeReason,
    change: impl FnOnce(&mut novel_core::novel::Novel) -> Result<T, E>,
) -> AppResult<T> {
    let session = state.session()?;
    let out = change(&mut *session.write()?).map_err(Into::into)?;
    changed(app, Some(session.path_string()), reason);
    Ok(out)
}

/// Tells every view that the open novel changed.
pub(crate) fn changed(app: &AppHandle, path: Option<String>, reason: ChangeReason) {
    if let Err(e) = (NovelChanged { path, reason }).emit(app) {
        tracing::warn!("could not emit novel-changed: {e}");
    }
}
