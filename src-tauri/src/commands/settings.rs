//! Settings of the open novel: its generation settings, which provider profile plays each
//! role of a tick (planner, writer, extractor, reviser, critic) and its spending limits, all in
//! its `novel.toml`.
//! (Provider profiles themselves are in [`super::providers`].)

use novel_core::config::{BudgetConfig, GenerationSettings, RoleProfiles};
use novel_core::edits;
use novel_core::views::NovelOverview;
use novel_llm::ProfileStore;
use tauri::{AppHandle, State};

use super::library::current_overview;
use super::open_novel::{changed, edit_open_novel};
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

/// The open novel's profile for each role; `null` is the default profile (the reviser then
/// follows the writer, the critic the extractor).
#[tauri::command]
#[specta::specta]
pub async fn role_profiles(state: State<'_, AppState>) -> AppResult<RoleProfiles> {
    let session = state.session()?;
    let models = session.read()?.config().models.clone();
    Ok(models)
}

/// Saves each role's profile in the open novel's `novel.toml`. A name no saved profile has is
/// refused as `invalid_input`, and nothing is written.
#[tauri::command]
#[specta::specta]
pub async fn save_role_profiles(
    app: AppHandle,
    state: State<'_, AppState>,
    models: RoleProfiles,
) -> AppResult<RoleProfiles> {
    let profiles = ProfileStore::from_env()?.load_or_empty()?;
    edit_open_novel(&app, &state, ChangeReason::SettingsSaved, |novel| {
        edits::set_role_profiles(novel, models, &profiles)
    })
    .map(|config| config.models)
}

/// The open novel's spending limits, per run and over the whole novel.
#[tauri::command]
#[specta::specta]
pub async fn novel_budget(state: State<'_, AppState>) -> AppResult<BudgetConfig> {
    let session = state.session()?;
    let budget = session.read()?.config().budget;
    Ok(budget)
}

/// Saves the open novel's spending limits; a cost below 0 is refused as `invalid_input`.
#[tauri::command]
#[specta::specta]
pub async fn save_budget(
    app: AppHandle,
    state: State<'_, AppState>,
    budget: BudgetConfig,
) -> AppResult<BudgetConfig> {
    edit_open_novel(&app, &state, ChangeReason::SettingsSaved, |novel| {
        edits::set_budget(novel, budget)
    })
    .map(|config| config.budget)
}
