//! Provider profiles in the settings (shared with the `novel` CLI, in the user's config
//! directory): list, save, delete, make default, **Test connection** (which records what the
//! server accepts in the profile), and API keys in the OS keychain. A profile that would run a program the writer has not allowed yet (a new
//! `command` profile, or a changed program) is saved only after a native confirmation that
//! names the program, so a script in the web view cannot make the app run one; likewise a
//! profile whose API key would go to a server (or come from a variable) it was not saved for,
//! or that would read another tokenizer file, is saved only after a confirmation naming the
//! server or file. Deleting a profile deletes its keychain entry too.

use std::sync::Arc;

use novel_llm::{
    Keychain, ProbeReport, ProfileStore, ProviderConfig, ProviderKind, ProviderProfile,
};
use serde::Serialize;
use specta::Type;
use tauri::State;

use crate::dialogs::{Dialogs, Question};
use crate::error::{AppError, AppResult};
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

/// The question to ask before saving `profile` over `previous`, when it would run a program
/// the writer has not allowed before.
pub(crate) fn program_question(
    previous: Option<&ProviderProfile>,
    profile: &ProviderProfile,
) -> Option<Question> {
    if profile.kind != ProviderKind::Command {
        return None;
    }
    let allowed_before =
        previous.is_some_and(|p| p.kind == ProviderKind::Command && p.command == profile.command);
    if allowed_before {
        return None;
    }
    let program = visible(profile.command.first().map_or("", String::as_str));
    Some(Question {
        title: "Allow a program to run?".into(),
        message: format!(
            "The provider “{}” runs this program to write your scenes:\n\n{}\n\nIt runs with \
             your permissions and can read and change your files. Allow it only if you set it \
             up yourself and trust “{program}”.",
            visible(&profile.name),
            shell_words(&profile.command),
        ),
        accept: "Allow".into(),
    })
}

/// The question to ask before saving `profile` over `previous`, when its API key would go to
/// a server (or from a variable) it was not saved for, or it would read another tokenizer
/// file: what decides that is novel-llm's ([`novel_llm::key_change`]).
pub(crate) fn key_question(
    previous: Option<&ProviderProfile>,
    profile: &ProviderProfile,
) -> Option<KeyQuestion> {
    let change = novel_llm::key_change(previous, profile)?;
    let name = visible(&change.profile);
    let mut parts = Vec::new();
    if let Some(key) = &change.key {
        let server = visible(change.new_server.as_deref().unwrap_or("its server"));
        let mut part = format!(
            "The provider “{name}” would send {} to this server:\n\n{server}",
            visible(key)
        );
        if let Some(old) = &change.old_server {
            part.push_str(&format!("\n\nIt was saved to send it to {}.", visible(old)));
        }
        part.push_str(
            "\n\nWhoever runs that server can use the key as you. Allow it only if you entered \
             this address yourself and trust it.",
        );
        parts.push(part);
    }
    if let Some(file) = &change.tokenizer_file {
        parts.push(format!(
            "The provider “{name}” would read this file as its tokenizer:\n\n{}",
            visible(file)
        ));
    }
    let (title, accept, refused) = match (&change.key, &change.new_server) {
        (Some(_), Some(server)) => (
            "Send an API key to this server?",
            "Send the key",
            format!("to send its key to {}", visible(server)),
        ),
        (Some(_), None) => ("Send an API key?", "Send the key", "to send its key".into()),
        (None, _) => (
            "Read this tokenizer file?",
            "Allow",
            "to read another tokenizer file".into(),
        ),
    };
    Some(KeyQuestion {
        question: Question {
            title: title.into(),
            message: parts.join("\n\n"),
            accept: accept.into(),
        },
        refused,
    })
}

/// A [`key_question`] and the end of the sentence saying what a "no" refused.
pub(crate) struct KeyQuestion {
    pub question: Question,
    pub refused: String,
}

/// `text` with control characters written as escapes (`\n`, `\u{1b}`), so a name cannot add
/// lines of its own to the question or hide what follows it.
fn visible(text: &str) -> String {
    if text.chars().any(char::is_control) {
        text.escape_debug().to_string()
    } else {
        text.to_string()
    }
}

/// The command as a shell would show it: arguments with spaces or quotes quoted, control
/// characters escaped.
fn shell_words(argv: &[String]) -> String {
    argv.iter()
        .map(|arg| {
            if arg.chars().any(char::is_control) {
                format!("\"{}\"", arg.escape_debug())
            } else if !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_alphanumeric() || "-_./=:@+,%".contains(c))
            {
                arg.clone()
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks `profile` field by field, asks before a new program may run, then saves it.
pub(crate) fn save_profile(
    store: &ProfileStore,
    profile: ProviderProfile,
    make_default: bool,
    dialogs: &dyn Dialogs,
) -> AppResult<ProviderConfig> {
    let problems = profile.problems();
    if !problems.is_empty() {
        return Err(AppError::profile_problems(problems));
    }
    let mut config = store.load_or_empty()?;
    let previous = config.profile(&profile.name);
    if let Some(question) = program_question(previous, &profile)
        && !dialogs.confirm(&question)
    {
        return Err(AppError::Declined {
            message: format!(
                "Not saved: running “{}” was not allowed.",
                visible(&profile.command[0])
            ),
        });
    }
    if let Some(question) = key_question(previous, &profile)
        && !dialogs.confirm(&question.question)
    {
        return Err(AppError::Declined {
            message: format!(
                "Not saved: “{}” was not allowed {}.",
                visible(&profile.name),
                question.refused
            ),
        });
    }
    config.add(profile, make_default);
    store.save(&config)?;
    Ok(config)
}

#[tauri::command]
#[specta::specta]
pub async fn list_providers() -> AppResult<ProvidersView> {
    let store = store()?;
    let config = store.load_or_empty()?;
    Ok(view(&store, config))
}

/// Adds or replaces the profile with the same name; the first profile becomes the default.
/// A profile with problems is refused as `invalid_form` (each problem beside its field); a
/// program the writer does not allow in the native dialog is refused as `declined`.
#[tauri::command]
#[specta::specta]
pub async fn save_provider(
    state: State<'_, AppState>,
    profile: ProviderProfile,
    make_default: bool,
) -> AppResult<ProvidersView> {
    let store = store()?;
    let dialogs: Arc<dyn Dialogs> = state.dialogs();
    let (store, config) = tauri::async_runtime::spawn_blocking(move || {
        let config = save_profile(&store, profile, make_default, &*dialogs);
        (store, config)
    })
    .await
    .map_err(|e| AppError::storage(format!("the settings thread stopped: {e}")))?;
    Ok(view(&store, config?))
}

#[tauri::command]
#[specta::specta]
pub async fn delete_provider(name: String) -> AppResult<ProvidersView> {
    let store = store()?;
    store.delete_profile(&name, &Keychain::system)?;
    let config = store.load_or_empty()?;
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

/// Tests profile `name` as `novel providers test` does (what its server accepts, its model's
/// context length, how tokens are counted, one small request) and records what was found in
/// the profile, unless the profile changed while the test ran.
pub(crate) async fn test_and_record(
    store: &ProfileStore,
    name: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> AppResult<ProbeReport> {
    let tested_from = store.load_or_empty()?.require(name)?.clone();
    let tested = novel_llm::test_profile(&tested_from, env, &Keychain::system).await?;
    if tested.changed {
        let mut config = store.load_or_empty()?;
        if config.profile(name) == Some(&tested_from) {
            config.upsert(tested.profile);
            store.save(&config)?;
        }
    }
    Ok(tested.report)
}

/// Test connection: what the profile's server accepts, its model's context length, how tokens
/// are counted and one small request, with what was found recorded in the profile.
#[tauri::command]
#[specta::specta]
pub async fn test_provider(name: String) -> AppResult<ProbeReport> {
    let store = store()?;
    // The key readers novel-llm takes are not `Send`: the test runs on a thread of its own.
    tauri::async_runtime::spawn_blocking(move || {
        let env = |var: &str| std::env::var(var).ok();
        tauri::async_runtime::block_on(test_and_record(&store, &name, &env))
    })
    .await
    .map_err(|e| AppError::storage(format!("the connection test thread stopped: {e}")))?
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

#[cfg(test)]
mod key_tests;
#[cfg(test)]
mod tests;
