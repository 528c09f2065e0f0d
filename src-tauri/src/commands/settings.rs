//! Settings: provider profiles (shared with the `novel` CLI, in the user's config directory),
//! API keys in the OS keychain, **Test connection**, and the open novel's generation settings.

use novel_core::config::GenerationSettings;
use novel_core::edits;
use novel_core::views::NovelOverview;
use novel_llm::{KeySource, ProbeReport, ProfileStore, ProviderConfig, ProviderProfile};
use serde::Serialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::changed;
use super::library::current_overview;
use crate::error::{AppError, AppResult};
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

fn load(store: &ProfileStore) -> AppResult<ProviderConfig> {
    if store.path().exists() {
        Ok(store.load()?)
    } else {
        Ok(ProviderConfig {
            default_profile: None,
            profiles: Vec::new(),
        })
    }
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
    let config = load(&store)?;
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
    let mut config = load(&store)?;
    let name = profile.name.clone();
    config.upsert(profile);
    if make_default || config.default_profile.is_none() {
        config.default_profile = Some(name);
    }
    store.save(&config)?;
    Ok(view(&store, config))
}

#[tauri::command]
#[specta::specta]
pub async fn delete_provider(name: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = load(&store)?;
    let before = config.profiles.len();
    config.profiles.retain(|p| p.name != name);
    if config.profiles.len() == before {
        return Err(AppError::NotFound {
            message: format!("There is no provider profile called {name}."),
        });
    }
    if config.default_profile.as_deref() == Some(name.as_str()) {
        config.default_profile = config.profiles.first().map(|p| p.name.clone());
    }
    store.save(&config)?;
    Ok(view(&store, config))
}

#[tauri::command]
#[specta::specta]
pub async fn set_default_provider(name: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = load(&store)?;
    config.require(&name)?;
    config.default_profile = Some(name);
    store.save(&config)?;
    Ok(view(&store, config))
}

/// Sends one small request through the profile and reports how it went.
#[tauri::command]
#[specta::specta]
pub async fn test_provider(name: String) -> AppResult<ProbeReport> {
    let store = store()?;
    let config = load(&store)?;
    let model = novel_llm::connect(config.require(&name)?)?;
    Ok(novel_llm::probe(&*model).await?)
}

/// Stores the API key of profile `name` in the OS keychain and switches the profile to it.
/// The key goes nowhere else: not into a file, not into a log.
#[tauri::command]
#[specta::specta]
pub async fn store_provider_key(name: String, key: String) -> AppResult<ProvidersView> {
    let store = store()?;
    let mut config = load(&store)?;
    let mut profile = config.require(&name)?.clone();
    novel_llm::keychain::store_key(&name, &key)?;
    profile.key_source = KeySource::Keychain;
    config.upsert(profile);
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
