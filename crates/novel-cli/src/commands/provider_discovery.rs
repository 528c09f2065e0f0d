//! `novel providers detect`, `models` and `test`: the model servers running on this machine,
//! the models a profile's server offers, and a connection test that records what the server
//! accepts in the profile. The probing itself is novel-llm's; this prints and saves.

use anyhow::{Context, Result, bail};
use novel_llm::{
    DetectedServer, Keychain, LocalServer, ModelEntry, PROBE_TIMEOUT, ProbeTarget, ProfileStore,
    ProviderConfig, USUAL_PORTS,
};

use crate::output::{say, say_err};

fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The profile named, or the default one, from the user's profiles.
fn chosen(config: &ProviderConfig, name: Option<&str>) -> Result<novel_llm::ProviderProfile> {
    Ok(match name {
        Some(name) => config.require(name)?,
        None => config.default()?,
    }
    .clone())
}

fn context(entry: &ModelEntry) -> String {
    let mut notes = Vec::new();
    if let Some(n) = entry.context_length {
        notes.push(format!("context {n} tokens"));
    }
    if entry.loaded == Some(true) {
        notes.push("loaded".to_string());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

pub fn detect(store: &ProfileStore, ports: &[u16], add: bool, json: bool) -> Result<()> {
    let targets: Vec<ProbeTarget> = if ports.is_empty() {
        USUAL_PORTS.to_vec()
    } else {
        ports
            .iter()
            .map(|&port| ProbeTarget {
                usual: LocalServer::OpenaiCompatible,
                port,
            })
            .collect()
    };
    let found = runtime()?.block_on(novel_llm::detect(&targets, PROBE_TIMEOUT));
    let added = if add {
        add_found(store, &found)?
    } else {
        Vec::new()
    };
    if json {
        return crate::output::json(&serde_json::json!({ "servers": found, "added": added }));
    }
    if found.is_empty() {
        let probed: Vec<String> = targets.iter().map(|t| t.port.to_string()).collect();
        say!(
            "No model server answered on 127.0.0.1 (ports {}).\nStart one (Ollama: `ollama serve`; LM Studio: its local server; llama.cpp: `llama-server -m model.gguf`), or add a hosted API with `novel providers add`.",
            probed.join(", ")
        );
        return Ok(());
    }
    for server in &found {
        say!("{} at {}", server.label, server.base_url);
        if server.models.is_empty() {
            say!("  (lists no models; name one with --model when you add it)");
        }
        for model in &server.models {
            say!("  {}{}", model.id, context(model));
        }
    }
    if add {
        for name in &added {
            say!("Saved profile `{name}` in {}", store.path().display());
        }
        if added.is_empty() {
            say!("Every server found already has a profile of its name; nothing was added.");
        }
    } else {
        say!("Save a profile for each with `novel providers detect --add`.");
    }
    Ok(())
}

/// Saves a profile for each server whose name is free; returns the names saved.
fn add_found(store: &ProfileStore, found: &[DetectedServer]) -> Result<Vec<String>> {
    let mut config = store.load_or_empty()?;
    let mut added = Vec::new();
    for server in found {
        let profile = server.profile(None);
        if config.profile(&profile.name).is_some() {
            continue;
        }
        if profile.model.is_empty() {
            say_err!(
                "{} lists no models: add it by hand with `novel providers add --name {} --base-url {} --model <model>`",
                server.label,
                profile.name,
                server.base_url
            );
            continue;
        }
        let make_default = config.default_profile.is_none();
        added.push(profile.name.clone());
        config.add(profile, make_default);
    }
    if !added.is_empty() {
        store.save(&config)?;
    }
    Ok(added)
}

pub fn models(store: &ProfileStore, profile: Option<&str>, json: bool) -> Result<()> {
    let config = store.load()?;
    let profile = chosen(&config, profile)?;
    let list = runtime()?
        .block_on(novel_llm::list_models(&profile, &env, &Keychain::system))
        .with_context(|| format!("cannot list the models of profile `{}`", profile.name))?;
    if json {
        return crate::output::json(&list);
    }
    say!("Models of `{}` ({}):", profile.name, list.source);
    for model in &list.models {
        let current = if model.id == profile.model {
            " <- the profile's model"
        } else {
            ""
        };
        say!("  {}{}{current}", model.id, context(model));
    }
    if let Some(note) = &list.note {
        say!("{note}");
    }
    Ok(())
}

pub fn test(store: &ProfileStore, profile: Option<&str>, json: bool) -> Result<()> {
    let mut config = store.load()?;
    let profile = chosen(&config, profile)?;
    let tested =
        match runtime()?.block_on(novel_llm::test_profile(&profile, &env, &Keychain::system)) {
            Ok(tested) => tested,
            Err(e) => bail!("{} ({}) failed: {e}", profile.name, profile.kind.as_str()),
        };
    if tested.changed {
        config.upsert(tested.profile.clone());
        store.save(&config)?;
    }
    let r = &tested.report;
    if json {
        return crate::output::json(&serde_json::json!({
            "report": r, "profile_updated": tested.changed,
        }));
    }
    say!(
        "OK: {} ({}) answered as model `{}` in {} ms",
        r.profile,
        r.kind,
        r.model,
        r.latency_ms
    );
    say!(
        "  structured output: {} (asked as {})",
        if r.structured_output {
            "works"
        } else {
            "needed a repair"
        },
        r.json_mode.as_str()
    );
    let accepts = |v: Option<bool>| match v {
        Some(true) => "accepted",
        Some(false) => "refused",
        None => "not checked",
    };
    say!(
        "  json_schema {}, json_object {}, temperature {}",
        accepts(r.capabilities.json_schema),
        accepts(r.capabilities.json_object),
        accepts(r.capabilities.temperature)
    );
    say!("  tokens counted by {}", r.tokens.describe());
    match r.context_length {
        Some(n) => say!("  context length {n} tokens"),
        None => say!(
            "  context length unknown (set it with `novel providers set {} --context-length N`)",
            r.profile
        ),
    }
    if tested.changed {
        say!("Recorded in {}", store.path().display());
    }
    Ok(())
}
