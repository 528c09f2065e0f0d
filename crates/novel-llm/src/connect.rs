//! From a profile to a live model: reads the API key from the environment variable the profile
//! names (the only place keys come from) and builds the provider for the profile's kind.

use std::sync::Arc;

use crate::anthropic::AnthropicModel;
use crate::command::CommandModel;
use crate::error::LlmError;
use crate::gemini::GeminiModel;
use crate::model::LanguageModel;
use crate::openai::OpenAiModel;
use crate::profile::{ProviderKind, ProviderProfile};
use crate::secret::ApiKey;

/// The model described by `profile`, with its key read from the process environment.
pub fn connect(profile: &ProviderProfile) -> Result<Arc<dyn LanguageModel>, LlmError> {
    connect_with_env(profile, &|name| std::env::var(name).ok())
}

/// [`connect`] with the environment passed in.
pub fn connect_with_env(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Arc<dyn LanguageModel>, LlmError> {
    profile.validate()?;
    if profile.kind == ProviderKind::Command {
        let model = CommandModel::new(&profile.name, profile.command.clone(), profile.timeout())?;
        return Ok(Arc::new(model));
    }
    let key = resolve_key(profile, env)?;
    Ok(match profile.kind {
        ProviderKind::OpenAiCompatible | ProviderKind::Ollama => {
            Arc::new(OpenAiModel::new(profile, key)?)
        }
        ProviderKind::Anthropic => Arc::new(AnthropicModel::new(profile, key)?),
        ProviderKind::Gemini => Arc::new(GeminiModel::new(profile, key)?),
        ProviderKind::Command => unreachable!("handled above"),
    })
}

/// The key from the profile's variable; a named but unset variable is an error that says how
/// to fix it, a profile naming none gets no key (local servers).
pub fn resolve_key(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ApiKey>, LlmError> {
    let Some(var) = profile.effective_api_key_env() else {
        return Ok(None);
    };
    match env(var).map(|value| value.trim().to_string()) {
        Some(value) if !value.is_empty() => Ok(Some(ApiKey::new(value))),
        _ => Err(LlmError::Config(format!(
            "the API key for {} is read from the environment variable {var}, which is not set: \
             set {var} or change `api_key_env` in {}",
            profile.name,
            profile.location()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn missing_key_names_the_variable_and_the_file() {
        let mut profile = ProviderProfile::new("openai", ProviderKind::OpenAiCompatible, "gpt-4.1")
            .with_api_key_env("OPENAI_API_KEY");
        profile.source = Some(PathBuf::from("/home/u/.config/novel-agent/providers.toml"));
        let err = connect_with_env(&profile, &|_| None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("set OPENAI_API_KEY or change `api_key_env`"),
            "{err}"
        );
        assert!(
            err.contains("/home/u/.config/novel-agent/providers.toml"),
            "{err}"
        );
        let blank = connect_with_env(&profile, &|_| Some("  ".into()));
        assert!(blank.is_err());
    }

    #[test]
    fn builds_each_kind_and_reads_the_key_from_the_named_variable() {
        let env = |name: &str| {
            (name == "MY_KEY" || name == "ANTHROPIC_API_KEY").then(|| "k-123456789".to_string())
        };
        let openai = ProviderProfile::new("o", ProviderKind::OpenAiCompatible, "m")
            .with_api_key_env("MY_KEY");
        assert_eq!(
            connect_with_env(&openai, &env).unwrap().describe().kind,
            "openai-compatible"
        );
        let local = ProviderProfile::new("l", ProviderKind::Ollama, "llama3.1");
        assert_eq!(
            connect_with_env(&local, &|_| None)
                .unwrap()
                .describe()
                .model,
            "llama3.1"
        );
        let claude = ProviderProfile::new("c", ProviderKind::Anthropic, "claude-sonnet-4-5");
        assert_eq!(
            connect_with_env(&claude, &env).unwrap().describe().kind,
            "anthropic"
        );
        let gemini = ProviderProfile::new("g", ProviderKind::Gemini, "gemini-2.5-flash");
        let err = connect_with_env(&gemini, &env).err().unwrap().to_string();
        assert!(err.contains("GEMINI_API_KEY"), "{err}");
        let agent = ProviderProfile::command("codex", &["codex", "exec", "-"]);
        assert_eq!(
            connect_with_env(&agent, &|_| None).unwrap().describe().kind,
            "command"
        );
    }

    #[test]
    fn key_never_shows_in_debug_of_the_resolved_key() {
        let profile =
            ProviderProfile::new("o", ProviderKind::OpenAiCompatible, "m").with_api_key_env("K");
        let key = resolve_key(&profile, &|_| Some("sk-very-secret-value".into())).unwrap();
        assert!(!format!("{key:?}").contains("very-secret"));
    }
}
