//! `novel providers list|add|set|remove|set-key|delete-key` (detection, model lists and the
//! connection test are in `provider_discovery`, each role's model in `roles`) and the
//! profiles a run reads, with a how-to when there are none. Keys never pass through a file of
//! ours: `set-key` reads one from standard input (hidden when typed at a terminal) straight
//! into the OS keychain.

use std::io::{IsTerminal, Read};

use anyhow::{Context, Result, bail};
use novel_llm::{
    KeyRemoval, KeySource, Keychain, ProfileStore, ProviderConfig, ProviderKind, ProviderProfile,
    keychain,
};

use super::{provider_discovery, provider_settings};

use crate::cli::ProvidersCommand;

/// The user's profiles, with a how-to when nothing is configured.
pub fn configured() -> Result<ProviderConfig> {
    let store = ProfileStore::from_env()?;
    if !store.path().exists() {
        bail!(
            "no LLM provider is configured.\nFind the model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM, Jan) and save a profile for each:\n  novel providers detect --add\nor add one by hand, for example a local OpenAI-compatible server (llama.cpp, Ollama, LM Studio, vLLM):\n  novel providers add --name local --base-url http://127.0.0.1:8080/v1 --model <model> --default\nor OpenAI with the key in an environment variable:\n  novel providers add --name openai --base-url https://api.openai.com/v1 --model gpt-4o-mini --api-key-env OPENAI_API_KEY --default\nor with the key in the OS keychain instead (then `novel providers set-key openai` asks for it):\n  novel providers add --name openai --base-url https://api.openai.com/v1 --model gpt-4o-mini --key-in-keychain --default\nProfiles are stored in {}",
            store.path().display()
        );
    }
    Ok(store.load()?)
}

pub fn run(cmd: ProvidersCommand, json: bool) -> Result<()> {
    let store = ProfileStore::from_env()?;
    match cmd {
        ProvidersCommand::List => list(&store, json),
        cmd @ ProvidersCommand::Add { .. } => add(&store, cmd),
        ProvidersCommand::SetKey { profile } => set_key(&store, &profile, json),
        ProvidersCommand::Remove { name } => remove(&store, &name, json),
        ProvidersCommand::DeleteKey { profile } => delete_key(&profile, json),
        ProvidersCommand::Test { profile } => {
            provider_discovery::test(&store, profile.as_deref(), json)
        }
        ProvidersCommand::Detect { ports, add } => {
            provider_discovery::detect(&store, &ports, add, json)
        }
        ProvidersCommand::Models { profile } => {
            provider_discovery::models(&store, profile.as_deref(), json)
        }
        ProvidersCommand::Set {
            profile,
            model,
            settings,
        } => set(&store, &profile, model, &settings, json),
    }
}

/// One line per profile (and its settings), the default one marked.
fn list(store: &ProfileStore, json: bool) -> Result<()> {
    let config = store.load_or_empty()?;
    if json {
        return crate::output::json(&config);
    }
    if config.profiles.is_empty() {
        crate::output::say!(
            "No profiles yet ({}). Add one with `novel providers add`.",
            store.path().display()
        );
    }
    for p in &config.profiles {
        let default = if config.default_profile.as_deref() == Some(&p.name) {
            " (default)"
        } else {
            ""
        };
        let key = match (p.key_source, p.effective_api_key_env()) {
            (KeySource::Keychain, _) => " (key in the OS keychain)".to_string(),
            (KeySource::Env, Some(var)) => format!(" (key in ${var})"),
            (KeySource::Env, None) => String::new(),
        };
        crate::output::say!(
            "{}{}: {} {} {}{key}",
            p.name,
            default,
            p.kind.as_str(),
            p.effective_base_url().unwrap_or_default(),
            p.model
        );
        let settings = provider_settings::describe(p);
        if !settings.is_empty() {
            crate::output::say!("  {settings}");
        }
    }
    Ok(())
}

/// `novel providers add`: a new profile saved (made the default when asked).
fn add(store: &ProfileStore, cmd: ProvidersCommand) -> Result<()> {
    let ProvidersCommand::Add {
        name,
        kind,
        base_url,
        model,
        api_key_env,
        key_in_keychain,
        command,
        default,
        settings,
    } = cmd
    else {
        unreachable!("called for `providers add` only")
    };
    let kind: ProviderKind = kind.into();
    let mut profile = if kind == ProviderKind::Command {
        let argv: Vec<&str> = command.iter().map(String::as_str).collect();
        ProviderProfile::command(&name, &argv)
    } else {
        ProviderProfile::new(&name, kind, &model)
    };
    if let Some(url) = base_url {
        profile = profile.with_base_url(url);
    }
    if let Some(var) = api_key_env {
        profile = profile.with_api_key_env(var);
    }
    if key_in_keychain {
        profile = profile.with_key_in_keychain();
    }
    provider_settings::apply(&mut profile, &settings)?;
    profile.validate()?;
    let mut config = store.load_or_empty()?;
    config.add(profile, default);
    store.save(&config)?;
    crate::output::say!("Saved profile `{name}` in {}", store.path().display());
    if key_in_keychain {
        // The profile is saved either way; the keychain only decides what to say next.
        match keychain::has_key(&name) {
            Ok(true) => crate::output::say!("Its API key is already in the OS keychain."),
            Ok(false) => crate::output::say!(
                "Now store its API key in the OS keychain: novel providers set-key {name}"
            ),
            Err(e) => crate::output::say_err!("warning: {e}"),
        }
    }
    Ok(())
}

/// `novel providers delete-key`: the profile's key taken out of the OS keychain.
fn delete_key(profile: &str, json: bool) -> Result<()> {
    let removed = keychain::delete_key(profile)?;
    if json {
        return crate::output::json(&serde_json::json!({ "profile": profile, "removed": removed }));
    }
    if removed {
        crate::output::say!("Removed the API key of profile `{profile}` from the OS keychain.");
    } else {
        crate::output::say!("The OS keychain held no API key for profile `{profile}`.");
    }
    Ok(())
}

/// Changes a profile's model or settings.
fn set(
    store: &ProfileStore,
    name: &str,
    model: Option<String>,
    settings: &crate::cli::SettingsArgs,
    json: bool,
) -> Result<()> {
    let mut config = store.load()?;
    let mut profile = config.require(name)?.clone();
    if let Some(model) = model {
        profile.model = model;
    }
    provider_settings::apply(&mut profile, settings)?;
    profile.validate()?;
    config.upsert(profile.clone());
    store.save(&config)?;
    if json {
        return crate::output::json(&profile);
    }
    crate::output::say!(
        "Profile `{name}`: model `{}`{}",
        profile.model,
        match provider_settings::describe(&profile) {
            d if d.is_empty() => String::new(),
            d => format!(", {d}"),
        }
    );
    Ok(())
}

/// Deletes a profile and the key it kept in the OS keychain.
fn remove(store: &ProfileStore, name: &str, json: bool) -> Result<()> {
    let removal = store.delete_profile(name, &Keychain::system)?;
    if json {
        return crate::output::json(&removal);
    }
    crate::output::say!("Removed profile `{name}` from {}.", store.path().display());
    match &removal.key {
        KeyRemoval::Deleted => crate::output::say!("Its API key was deleted from the OS keychain."),
        KeyRemoval::NoneStored => crate::output::say!("The OS keychain held no API key for it."),
        KeyRemoval::NotInKeychain => {}
    }
    match &removal.default_profile {
        Some(default) => crate::output::say!("The default profile is `{default}`."),
        None => crate::output::say!("No profiles are left; add one with `novel providers add`."),
    }
    Ok(())
}

/// Reads a key from standard input into the keychain and points the profile at it.
fn set_key(store: &ProfileStore, name: &str, json: bool) -> Result<()> {
    let mut config = store.load_or_empty()?;
    let Some(profile) = config.profile(name) else {
        bail!(
            "there is no provider profile named `{name}` in {}; add it first, e.g.\n  novel providers add --name {name} --base-url <url> --model <model> --key-in-keychain",
            store.path().display()
        );
    };
    if profile.kind == ProviderKind::Command {
        bail!("profile `{name}` runs a command, which handles its own login; it takes no API key");
    }
    // Opened before asking, so nobody types a key only to learn there is nowhere to put it.
    let keychain = Keychain::system()?;
    let key = read_key(name)?;
    keychain.store_key(name, &key)?;
    let switched = config.use_keychain(name)?;
    if let Some(previous) = &switched {
        store.save(&config)?;
        if !json {
            match previous {
                Some(var) => crate::output::say!(
                    "Profile `{name}` now reads its API key from the OS keychain instead of ${var}."
                ),
                None => crate::output::say!(
                    "Profile `{name}` now reads its API key from the OS keychain."
                ),
            }
        }
    }
    if json {
        return crate::output::json(
            &serde_json::json!({ "profile": name, "stored": true, "profile_updated": switched.is_some() }),
        );
    }
    crate::output::say!("Stored the API key of profile `{name}` in the OS keychain.");
    Ok(())
}

/// The key from standard input: typed at a terminal with echo off, or piped (`pass show x |
/// novel providers set-key p`).
fn read_key(name: &str) -> Result<String> {
    let key = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("API key for profile `{name}` (input hidden): "))
            .context("cannot read the key from the terminal")?
    } else {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the key from standard input")?;
        text
    };
    let key = key.trim().to_string();
    if key.is_empty() {
        bail!("no API key on standard input: type it at the prompt or pipe it in");
    }
    if key.lines().count() > 1 {
        bail!("standard input held several lines; an API key is one line");
    }
    Ok(key)
}
