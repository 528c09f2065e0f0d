//! Changing the open novel from a command: one change run under the novel's writer's lock, and
//! the event that tells every view the novel changed and why. Every command that edits the
//! novel goes through it.

use tauri::AppHandle;
use tauri_specta::Event;

use crate::error::{AppError, AppResult};
use crate::events::{ChangeReason, NovelChanged};

/// Runs one change on the open novel (under its writer's lock) and tells every view why.
pub(crate) fn edit_open_novel<T, E: Into<AppError>>(
    app: &AppHandle,
    state: &tauri::State<'_, crate::state::AppState>,
    reason: ChangeReason,
    change: impl FnOnce(&mut novel_core::Novel) -> Result<T, E>,
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
