//! Export: the manuscript as Markdown, to the file the writer chose in the save dialog.

use std::path::PathBuf;

use novel_core::export;
use tauri::State;

use crate::error::{AppError, AppResult};
use crate::state::{AppState, display};

/// Writes the manuscript to `path` (a `.md` extension is added when missing); returns the
/// file written.
#[tauri::command]
#[specta::specta]
pub async fn export_markdown(state: State<'_, AppState>, path: String) -> AppResult<String> {
    let mut dest = PathBuf::from(path.trim());
    if dest.as_os_str().is_empty() {
        return Err(AppError::invalid("Choose where to save the manuscript."));
    }
    if dest.extension().is_none() {
        dest.set_extension("md");
    }
    let novel = state.session()?.read()?;
    Ok(display(&export::write_manuscript(&novel, Some(&dest))?))
}
