//! Settings: provider profiles (shared with the `novel` CLI, in the user's config directory),
//! API keys in the OS keychain, **Test connection**, and the open novel's generation settings.

use novel_core::config::GenerationSettings;
use novel_core::edits;
use novel_core::views::NovelOverview;
use novel_llm::{ProbeReport, ProfileStore, ProviderConfig, ProviderProfile};
use serde::Serialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::changed;
use super::library::current_overview;
use crate::error::AppResult;
use crate::events::ChangeReason;
use crate::state::{AppState, display};

#[derive(Debug, Clone, Serialize, Type)]
pub struct ProvidersView {
    /// The file the profiles live in.
    pub file: String,
    pub default_profile: Option<String>,
    pub profiles: Vec<ProfileRow>,
}

#[derive(Debug, Clone, Serialize, Type)]
pub struct ProfileRow {
    pub profile: ProviderProfile,
    /// The profile's key can be found (or it needs none).
    pub key_ready: bool,
    /// Why it cannot, and what to do.
    pub key_problem: Option<String>,
}

fn store() -> AppResult<ProfileStore> {
    Ok(ProfileStore::from_env()?)
}

fn view(store: &ProfileStore, config: ProviderConfig) -> ProvidersView {
    let env = |name: &str| std::env::var(name).ok();
    ProvidersView {
        file: display(store.path()),
        default_profile: config.default_profile.clone(),
        profiles: config
            .profiles
            .into_iter()
            .map(|profile| {
                let key = novel_llm::resolve_key(&profile, &env);
                ProfileRow {
                    key_ready: key.is_ok(),
                    key_problem: key.err().map(|e| e.to_string()),
                    profile,
                }
            })
            .collect(),
    }
}

#[tauri::command]
#[specta::specta]
pub async fn list_providers() -> AppResult<ProvidersView> {
    let store = store()?;
    let config = store.load_or_empty()?;
    Ok(view(&store, config))
}

/// Adds or replaces the profile with the same name; the first profile becomes the default.
#[tauri::command]
#[specta::specta]
pub async fn save_provider(
    profile: ProviderProfile,
    make_default: bool,
) -> AppResult<ProvidersView> {
    profile.validate()?;
    let store = store()?;
    let mut config = store.load_or_empty()?;
    config.add(profile, make_default);
    store.save(&config)?;
    Ok(view(&store, config))
}

#[tauri::command]
#[specta::specta]
pub async fn delete_provider(name: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = store.load_or_empty()?;
    config.remove(&name)?;
    store.save(&config)?;
    Ok(view(&store, config))
}

#[tauri::command]
#[specta::specta]
pub async fn set_default_provider(name: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = store.load_or_empty()?;
    config.set_default(&name)?;
    store.save(&config)?;
    Ok(view(&store, config))
}

/// Sends one small request through the profile and reports how it went.
#[tauri::command]
#[specta::specta]
pub async fn test_provider(name: String) -> AppResult<ProbeReport> {
    let store = store()?;
    let config = store.load_or_empty()?;
    let model = novel_llm::connect(config.require(&name)?)?;
    Ok(novel_llm::probe(&*model).await?)
}

/// Stores the API key of profile `name` in the OS keychain and switches the profile to it.
/// The key goes nowhere else: not into a file, not into a log.
#[tauri::command]
#[specta::specta]
pub async fn store_provider_key(name: String, key: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = store.load_or_empty()?;
    // Switched (and checked) before the key is stored, so a refused profile stores nothing.
    config.use_keychain(&name)?;
    novel_llm::keychain::store_key(&name, &key)?;
    store.save(&config)?;
    Ok(view(&store, config))
}

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
