//! From a profile to a live model: reads the API key from where the profile says — the
//! environment variable it names, or its entry in the OS keychain — and builds the provider for
//! the profile's kind, its requests given the profile's sampling settings. The keychain is
//! only opened for profiles that keep their key there.

use std::sync::Arc;

use crate::anthropic::AnthropicModel;
use crate::command::CommandModel;
use crate::error::LlmError;
use crate::gemini::GeminiModel;
use crate::keychain::Keychain;
use crate::model::LanguageModel;
use crate::openai::OpenAiModel;
use crate::profile::{KeySource, ProviderKind, ProviderProfile};
use crate::secret::ApiKey;
use crate::token_counter::token_counter;
use crate::tuned::tune;
use crate::window::Window;

/// Opens the keychain a profile's key is read from; called only when one is needed.
pub type KeychainOpener<'a> = &'a dyn Fn() -> Result<Keychain, LlmError>;

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

/// The key from the profile's variable or keychain entry; a named but unset variable or an
/// empty keychain entry is an error that says how to fix it, a profile naming none gets no key
/// (local servers). A key is never handed out for plain http to another machine.
pub fn resolve_key(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ApiKey>, LlmError> {
    resolve_key_with(profile, env, &Keychain::system)
}

/// [`resolve_key`] with the keychain passed in.
pub fn resolve_key_with(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<Option<ApiKey>, LlmError> {
    let key = read_key(profile, env, keychain)?;
    if key.is_some() {
        crate::key_policy::check_key_transport(profile)?;
    }
    Ok(key)
}

/// The key from where the profile says, before [`resolve_key_with`] checks where it may go.
fn read_key(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<Option<ApiKey>, LlmError> {
    if profile.key_source == KeySource::Keychain {
        return match keychain()?.read_key(&profile.name)? {
            Some(key) => Ok(Some(key)),
            None => Err(LlmError::Config(format!(
                "the API key for {} is read from the OS keychain, which holds none for it: \
                 store it with `novel providers set-key {}`, or remove `key_source` from {} \
                 and use `api_key_env`",
                profile.name,
                profile.name,
                profile.location()
            ))),
        };
    }
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
