//! Settings: the open novel's generation settings. (Provider profiles are in
//! [`super::providers`].)

use novel_core::config::GenerationSettings;
use novel_core::edits;
use novel_core::views::NovelOverview;
use tauri::{AppHandle, State};

use super::changed;
use super::library::current_overview;
use crate::error::AppResult;
use crate::events::ChangeReason;
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn save_generation_settings(
    app: AppHandle,
    state: State<'_, AppState>,
    settings: GenerationSettings,
) -> AppResult<NovelOverview> {
    let session = state.session()?;
    edits::set_generation_settings(&mut *session.write()?, settings)?;
    let overview = current_overview(&state)?;
    changed(
        &app,
        Some(session.path_string()),
        ChangeReason::SettingsSaved,
    );
    Ok(overview)
}
