//! From a profile to a live model: reads the API key from where the profile says — the
//! environment variable it names, or its entry in the OS keychain — and builds the provider for
//! the profile's kind, its requests given the profile's sampling settings. The keychain is
//! only opened for profiles that keep their key there.

use std::sync::Arc;

use crate::error::LlmError;
use crate::model::LanguageModel;
use crate::profile::key_policy::resolve_key_with;
use crate::profile::keychain::{Keychain, KeychainOpener};
use crate::profile::provider::{ProviderKind, ProviderProfile};
use crate::providers::anthropic::AnthropicModel;
use crate::providers::command::CommandModel;
use crate::providers::gemini::GeminiModel;
use crate::providers::openai::OpenAiModel;
use crate::secret::ApiKey;
use crate::tokens::counter::token_counter;
use crate::tokens::window::Window;
use crate::tuned::tune;

/// The model described by `profile`, with its key read from the process environment or the
/// OS keychain.
pub fn connect(profile: &ProviderProfile) -> Result<Arc<dyn LanguageModel>, LlmError> {
    connect_with_env(profile, &|name| std::env::var(name).ok())
}

/// [`connect`] with the environment passed in.
pub fn connect_with_env(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Arc<dyn LanguageModel>, LlmError> {
    connect_with(profile, env, &Keychain::system)
}

/// [`connect`] with the environment and the keychain passed in.
pub fn connect_with(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<Arc<dyn LanguageModel>, LlmError> {
    profile.validate()?;
    if profile.kind == ProviderKind::Command {
        let model = CommandModel::new(&profile.name, profile.command.clone(), profile.timeout())?;
        return Ok(Arc::new(model));
    }
    let key = resolve_key_with(profile, env, keychain)?;
    build(profile, key)
}

/// The model for a validated `profile` whose key has been read.
pub(crate) fn build(
    profile: &ProviderProfile,
    key: Option<ApiKey>,
) -> Result<Arc<dyn LanguageModel>, LlmError> {
    if profile.kind == ProviderKind::Command {
        let model = CommandModel::new(&profile.name, profile.command.clone(), profile.timeout())?;
        return Ok(Arc::new(model));
    }
    let model: Arc<dyn LanguageModel> = match profile.kind {
        ProviderKind::OpenAiCompatible | ProviderKind::Ollama => {
            Arc::new(OpenAiModel::new(profile, key)?)
        }
        ProviderKind::Anthropic => Arc::new(AnthropicModel::new(profile, key)?),
        ProviderKind::Gemini => Arc::new(GeminiModel::new(profile, key)?),
        ProviderKind::Command => unreachable!("handled above"),
    };
    let counter = token_counter(profile);
    let window = profile.context_length.map(|context_length| Window {
        profile: profile.name.clone(),
        context_length,
        counter: counter.clone(),
    });
    Ok(tune(model, profile.sampling(), window, counter))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::key_policy::resolve_key;
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

    fn mock_keychain() -> Keychain {
        Keychain::with_store(keyring_core::mock::Store::new().unwrap())
    }

    #[test]
    fn a_keychain_profile_reads_its_own_entry_and_ignores_the_environment() {
        let keychain = mock_keychain();
        keychain.store_key("cloud", "sk-from-keychain-1").unwrap();
        keychain.store_key("other", "sk-not-this-one-2").unwrap();
        let profile =
            ProviderProfile::new("cloud", ProviderKind::Anthropic, "claude").with_key_in_keychain();
        let env = |_: &str| Some("sk-from-env-3".to_string());
        let opener = || Ok(keychain.clone());
        let key = resolve_key_with(&profile, &env, &opener).unwrap();
        assert_eq!(key, Some(ApiKey::new("sk-from-keychain-1")));
        assert_eq!(
            connect_with(&profile, &env, &opener)
                .unwrap()
                .describe()
                .kind,
            "anthropic"
        );
    }

    #[test]
    fn a_missing_keychain_entry_says_how_to_store_one() {
        let keychain = mock_keychain();
        let mut profile = ProviderProfile::new("cloud", ProviderKind::OpenAiCompatible, "m")
            .with_key_in_keychain();
        profile.source = Some(PathBuf::from("/cfg/providers.toml"));
        let err = resolve_key_with(&profile, &|_| None, &|| Ok(keychain.clone()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("novel providers set-key cloud") && err.contains("/cfg/providers.toml"),
            "{err}"
        );
    }

    #[test]
    fn the_keychain_is_opened_only_for_keychain_profiles() {
        let opened = std::cell::Cell::new(0);
        let unavailable = || {
            opened.set(opened.get() + 1);
            Err(LlmError::Config("no Secret Service is running".into()))
        };
        let env_profile =
            ProviderProfile::new("o", ProviderKind::OpenAiCompatible, "m").with_api_key_env("K");
        let key = resolve_key_with(&env_profile, &|_| Some("sk-env-value".into()), &unavailable);
        assert!(key.unwrap().is_some());
        let local = ProviderProfile::new("l", ProviderKind::Ollama, "llama3.1");
        assert_eq!(
            resolve_key_with(&local, &|_| None, &unavailable).unwrap(),
            None
        );
        assert_eq!(opened.get(), 0);
        let keyed = ProviderProfile::new("k", ProviderKind::Gemini, "g").with_key_in_keychain();
        let err = resolve_key_with(&keyed, &|_| None, &unavailable).unwrap_err();
        assert!(err.to_string().contains("no Secret Service"), "{err}");
        assert_eq!(opened.get(), 1);
    }

    #[test]
    fn key_never_shows_in_debug_of_the_resolved_key() {
        let profile =
            ProviderProfile::new("o", ProviderKind::OpenAiCompatible, "m").with_api_key_env("K");
        let key = resolve_key(&profile, &|_| Some("sk-very-secret-value".into())).unwrap();
        assert!(!format!("{key:?}").contains("very-secret"));
    }
}
