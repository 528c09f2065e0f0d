//! `novel providers list|add|test` and the one place the CLI turns a profile into a model.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use novel_llm::{
    ChatRequest, LanguageModel, ProfileStore, ProviderConfig, ProviderKind, ProviderProfile,
};

use crate::cli::ProvidersCommand;

/// The model of the named (or default) profile, with a how-to when nothing is configured.
pub fn connect(profile: Option<&str>) -> Result<Arc<dyn LanguageModel>> {
    let store = ProfileStore::from_env()?;
    if !store.path().exists() {
        bail!(
            "no LLM provider is configured.\nAdd one, for example a local OpenAI-compatible server (llama.cpp, Ollama, LM Studio, vLLM):\n  novel providers add --name local --base-url http://127.0.0.1:8080/v1 --model <model> --default\nor OpenAI with the key in an environment variable:\n  novel providers add --name openai --base-url https://api.openai.com/v1 --model gpt-4o-mini --api-key-env OPENAI_API_KEY --default\nProfiles are stored in {}",
            store.path().display()
        );
    }
    let config = store.load()?;
    let chosen = match profile {
        Some(name) => config.require(name)?,
        None => config.default()?,
    };
    Ok(novel_llm::connect(chosen)?)
}

pub fn run(cmd: ProvidersCommand, json: bool) -> Result<()> {
    let store = ProfileStore::from_env()?;
    match cmd {
        ProvidersCommand::List => {
            let config = if store.path().exists() {
                store.load()?
            } else {
                ProviderConfig {
                    default_profile: None,
                    profiles: vec![],
                }
            };
            if json {
                return crate::output::json(&config);
            }
            if config.profiles.is_empty() {
                println!(
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
                println!(
                    "{}{}: {} {} {}",
                    p.name,
                    default,
                    p.kind.as_str(),
                    p.effective_base_url().unwrap_or_default(),
                    p.model
                );
            }
            Ok(())
        }
        ProvidersCommand::Add {
            name,
            kind,
            base_url,
            model,
            api_key_env,
            command,
            default,
        } => {
            let kind: ProviderKind = serde_json::from_value(serde_json::Value::String(
                kind.clone(),
            ))
            .with_context(|| {
                format!(
                    "--kind {kind:?}: use openai-compatible, ollama, anthropic, gemini or command"
                )
            })?;
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
            profile.validate()?;
            let mut config = if store.path().exists() {
                store.load()?
            } else {
                ProviderConfig {
                    default_profile: None,
                    profiles: vec![],
                }
            };
            config.upsert(profile);
            if default || config.default_profile.is_none() {
                config.default_profile = Some(name.clone());
            }
            store.save(&config)?;
            println!("Saved profile `{name}` in {}", store.path().display());
            Ok(())
        }
        ProvidersCommand::Test { profile } => {
            let model = connect(profile.as_deref())?;
            let info = model.describe();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let started = Instant::now();
            let schema = serde_json::json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
            let request =
                ChatRequest::new("Reply with the JSON object {\"ok\": true} and nothing else.")
                    .with_max_tokens(20)
                    .with_json_schema("connection_test", schema.clone());
            let validator = novel_llm::validator_from_schema(&schema)?;
            let result = runtime.block_on(novel_llm::complete_structured(
                &*model, &request, &validator,
            ));
            let latency = started.elapsed().as_millis();
            match result {
                Ok(done) => {
                    let c = done.completions.last().context("no completion")?;
                    if json {
                        return crate::output::json(&serde_json::json!({
                            "profile": info.profile, "kind": info.kind, "model": c.model, "latency_ms": latency,
                            "structured_output": !done.repaired, "usage": c.usage,
                        }));
                    }
                    println!(
                        "OK: {} ({}) answered as model `{}` in {latency} ms",
                        info.profile, info.kind, c.model
                    );
                    println!(
                        "  structured output: {}",
                        if done.repaired {
                            "needed a repair"
                        } else {
                            "works"
                        }
                    );
                    Ok(())
                }
                Err(e) => bail!("{} ({}) failed: {e}", info.profile, info.kind),
            }
        }
    }
}
