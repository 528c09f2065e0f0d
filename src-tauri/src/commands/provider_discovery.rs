//! Finding model servers and their models for the provider settings: **Find local servers**
//! (the usual ports of Ollama, LM Studio, llama.cpp, Jan and vLLM on this machine, each found
//! server with a profile ready to save) and the model dropdown (a saved profile's models, or
//! the form's profile before it is saved, each with its context length where the server says).
//! The probing and listing are novel-llm's; this shapes them for the UI.

use novel_llm::{
    DetectedServer, Keychain, ModelList, PROBE_TIMEOUT, ProbeTarget, ProfileStore, ProviderConfig,
    ProviderProfile, USUAL_PORTS,
};
use serde::{Deserialize, Serialize};
use specta::Type;

use crate::error::{AppError, AppResult};

/// A model server found on this machine.
#[derive(Debug, Clone, Serialize, Type)]
pub struct FoundServer {
    pub server: DetectedServer,
    /// A profile for it, ready for the form: its kind and address, the loaded (else the first)
    /// model with that model's context length, and a name no saved profile has.
    pub suggested: ProviderProfile,
    /// The saved profile that already talks to this address, if one does.
    pub saved_as: Option<String>,
}

/// Whose models to list.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum ModelsOf {
    /// A saved profile, by name.
    Saved { name: String },
    /// The form's profile before it is saved: its kind and address are used, with the key
    /// typed into the form, or the saved profile's key only while the form still points where
    /// that key was saved for (never a variable or keychain entry the form merely names).
    Unsaved {
        profile: Box<ProviderProfile>,
        /// A key the writer typed into the form and has not stored yet.
        #[serde(default)]
        key: Option<String>,
    },
}

fn profiles() -> AppResult<ProviderConfig> {
    Ok(ProfileStore::from_env()?.load_or_empty()?)
}

/// The servers answering on `targets`, each with a profile suggested against `config`.
pub(crate) async fn found_on(targets: &[ProbeTarget], config: &ProviderConfig) -> Vec<FoundServer> {
    let found = novel_llm::detect(targets, PROBE_TIMEOUT).await;
    let mut taken: Vec<String> = config.profiles.iter().map(|p| p.name.clone()).collect();
    found
        .into_iter()
        .map(|server| {
            let mut suggested = server.profile(None);
            suggested.name = free_name(&suggested.name, &taken);
            taken.push(suggested.name.clone());
            let address = suggested.effective_base_url();
            let saved_as = config
                .profiles
                .iter()
                .find(|p| {
                    p.kind != novel_llm::ProviderKind::Command && p.effective_base_url() == address
                })
                .map(|p| p.name.clone());
            FoundServer {
                server,
                suggested,
                saved_as,
            }
        })
        .collect()
}

/// `wanted`, or `wanted-2`, `wanted-3`… : the first that is not in `taken`, so adding a
/// found server never replaces a profile.
fn free_name(wanted: &str, taken: &[String]) -> String {
    let free = |name: &str| !taken.iter().any(|t| t == name);
    if free(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|n| format!("{wanted}-{n}"))
        .find(|name| free(name))
        .expect("some suffix is free")
}

/// The models of `of`: a saved profile's key read as a run would (`env`, the keychain), an
/// unsaved one's as [`novel_llm::key_for_unsaved`] allows.
pub(crate) async fn models_of(
    of: ModelsOf,
    config: &ProviderConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> AppResult<ModelList> {
    Ok(match of {
        ModelsOf::Saved { name } => {
            novel_llm::list_models(config.require(&name)?, env, &Keychain::system).await?
        }
        ModelsOf::Unsaved { profile, key } => {
            let saved = config.profile(&profile.name);
            novel_llm::list_unsaved_models(&profile, key.as_deref(), saved, env, &Keychain::system)
                .await?
        }
    })
}

/// Probes the usual ports of local model servers on 127.0.0.1 (never the network) and lists
/// what answered; an empty list when nothing runs.
#[tauri::command]
#[specta::specta]
pub async fn detect_providers() -> AppResult<Vec<FoundServer>> {
    let config = profiles()?;
    Ok(found_on(&USUAL_PORTS, &config).await)
}

/// The models a server offers, for the form's model dropdown. A server that lists none
/// answers an empty list with a note saying to type the name; one that cannot be reached is
/// a `provider` error naming the address.
#[tauri::command]
#[specta::specta]
pub async fn provider_models(of: ModelsOf) -> AppResult<ModelList> {
    let config = profiles()?;
    // The key readers novel-llm takes are not `Send`: the listing runs on a thread of its own.
    tauri::async_runtime::spawn_blocking(move || {
        let env = |name: &str| std::env::var(name).ok();
        tauri::async_runtime::block_on(models_of(of, &config, &env))
    })
    .await
    .map_err(|e| AppError::storage(format!("the model list thread stopped: {e}")))?
}

#[cfg(test)]
mod tests;
