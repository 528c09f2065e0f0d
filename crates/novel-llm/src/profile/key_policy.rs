//! Where an API key comes from and where it may go. A profile's key is read from where the
//! profile says — the environment variable it names, or its entry in the OS keychain
//! ([`resolve_key`]) — and is never handed out for plain http to another machine. A key goes
//! only to the server its profile was saved for: saving a profile that would send a key
//! somewhere new (another server, another environment variable) or read another tokenizer file
//! is a [`KeyChange`] the front end has the writer confirm, and a profile the form has not
//! saved uses only a key typed into the form — or, when it still points where its saved self
//! points, the saved key ([`key_for_unsaved`]). Without this, a script in the app's web view
//! could send any environment variable or keychain entry as a Bearer token to a server of its
//! choosing and read the answer back.

use crate::error::LlmError;
use crate::profile::keychain::{Keychain, KeychainOpener};
use crate::profile::provider::{KeySource, ProviderKind, ProviderProfile};
use crate::secret::ApiKey;

/// What saving a profile would change about where its key goes or which file it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyChange {
    /// The profile's name.
    pub profile: String,
    /// Where the key comes from, in words: "the key in the environment variable
    /// OPENAI_API_KEY", "the key stored in the OS keychain for it". `None` when the change is
    /// only the tokenizer file.
    pub key: Option<String>,
    /// The server the key would go to (scheme, host and port; no credentials or path).
    pub new_server: Option<String>,
    /// The server it went to before, when the profile was saved with a key.
    pub old_server: Option<String>,
    /// The tokenizer file the profile would read, when it changes to one.
    pub tokenizer_file: Option<String>,
}

/// Whether `profile` sends an API key with its requests (it names a variable, or keeps its key
/// in the keychain).
pub fn takes_key(profile: &ProviderProfile) -> bool {
    profile.kind != ProviderKind::Command
        && (profile.key_source == KeySource::Keychain || profile.effective_api_key_env().is_some())
}

/// The server a profile's requests go to: `scheme://host:port`, without credentials or path,
/// so a path change is not a new server and a `user:pw@` never shows in a question.
pub fn server_of(profile: &ProviderProfile) -> Option<String> {
    let url = profile.effective_base_url()?;
    Some(match reqwest::Url::parse(&url) {
        Ok(parsed) => match parsed.host_str() {
            Some(host) => match parsed.port() {
                Some(port) => format!("{}://{host}:{port}", parsed.scheme()),
                None => format!("{}://{host}", parsed.scheme()),
            },
            None => url,
        },
        Err(_) => url,
    })
}

/// Whether `url` is plain http to a host other than this machine, where a key would cross the
/// network readable by anyone on the way.
pub fn is_plain_http_off_machine(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url.trim()) else {
        return false;
    };
    if parsed.scheme() != "http" {
        return false;
    }
    let Some(host) = parsed.host_str() else {
        return true;
    };
    match host.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback(),
        Err(_) => {
            let host = host.trim_end_matches('.').to_ascii_lowercase();
            !(host == "localhost" || host.ends_with(".localhost"))
        }
    }
}

/// Refuses to send a key to `profile`'s server over plain http off this machine.
pub(crate) fn check_key_transport(profile: &ProviderProfile) -> Result<(), LlmError> {
    match profile.effective_base_url() {
        Some(url) if is_plain_http_off_machine(&url) => Err(LlmError::Config(format!(
            "{}: the API key would be sent over plain http to {}, where anyone on the way \
             can read it; use the server's https:// address (plain http is for servers on this \
             machine), or remove the key if the server needs none",
            profile.location(),
            server_of(profile).unwrap_or(url),
        ))),
        _ => Ok(()),
    }
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
        check_key_transport(profile)?;
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

/// Where `profile`'s key comes from, in words for the question.
fn key_words(profile: &ProviderProfile) -> String {
    match (profile.key_source, profile.effective_api_key_env()) {
        (KeySource::Keychain, _) => "the API key stored in the OS keychain for it".into(),
        (KeySource::Env, Some(var)) => format!("the value of the environment variable {var}"),
        (KeySource::Env, None) => "no key".into(),
    }
}

/// What needs the writer's confirmation before `profile` is saved over `previous` (`None`
/// for a new profile), or `None` when nothing does:
///
/// - a key going to a server it was not saved for: a profile that had a key and now points at
///   another server, a new or changed environment variable (whose value the app would send),
///   a profile that had no key and now takes one from the environment;
/// - a tokenizer file other than the one saved (it is read from disk with the app's rights).
///
/// Switching a profile to the keychain on the same server asks nothing: its keychain entry is
/// its own, stored by the writer for this profile.
pub fn key_change(
    previous: Option<&ProviderProfile>,
    profile: &ProviderProfile,
) -> Option<KeyChange> {
    let new_server = server_of(profile);
    let key_moves = takes_key(profile)
        && match previous {
            None => profile.key_source == KeySource::Env,
            Some(before) => {
                let server_moved = server_of(before) != new_server;
                let new_variable = profile.key_source == KeySource::Env
                    && (before.key_source != KeySource::Env
                        || before.effective_api_key_env() != profile.effective_api_key_env());
                server_moved || new_variable
            }
        };
    let tokenizer_moves = profile.tokenizer_file.is_some()
        && previous.and_then(|p| p.tokenizer_file.as_ref()) != profile.tokenizer_file.as_ref();
    if !key_moves && !tokenizer_moves {
        return None;
    }
    Some(KeyChange {
        profile: profile.name.clone(),
        key: key_moves.then(|| key_words(profile)),
        new_server: key_moves.then_some(new_server).flatten(),
        old_server: previous
            .filter(|p| key_moves && takes_key(p))
            .and_then(server_of),
        tokenizer_file: tokenizer_moves
            .then(|| profile.tokenizer_file.clone())
            .flatten(),
    })
}

/// The key a profile the form has not saved may use: the one typed into the form, else the
/// saved profile's own key when `profile` still sends it where `saved` does (same name,
/// server and key source), else none. Never an environment variable or keychain entry the
/// form merely names.
pub fn key_for_unsaved(
    profile: &ProviderProfile,
    typed: Option<&str>,
    saved: Option<&ProviderProfile>,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<Option<ApiKey>, LlmError> {
    if profile.kind == ProviderKind::Command {
        return Ok(None);
    }
    if let Some(typed) = typed.map(str::trim).filter(|key| !key.is_empty()) {
        check_key_transport(profile)?;
        return Ok(Some(ApiKey::new(typed)));
    }
    match saved {
        Some(saved)
            if saved.name == profile.name
                && takes_key(saved)
                && saved.key_source == profile.key_source
                && key_change(Some(saved), profile).is_none_or(|c| c.key.is_none()) =>
        {
            resolve_key_with(saved, env, keychain)
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cloud() -> ProviderProfile {
        ProviderProfile::new("cloud", ProviderKind::OpenAiCompatible, "gpt")
            .with_base_url("https://api.example.com/v1")
            .with_api_key_env("OPENAI_API_KEY")
    }

    #[test]
    fn a_key_going_to_another_server_or_variable_is_a_change() {
        let saved = cloud();
        let moved = cloud().with_base_url("https://collector.example.net:8443/v1");
        let change = key_change(Some(&saved), &moved).unwrap();
        assert_eq!(
            change.new_server.as_deref(),
            Some("https://collector.example.net:8443")
        );
        assert_eq!(
            change.old_server.as_deref(),
            Some("https://api.example.com")
        );
        assert!(change.key.unwrap().contains("OPENAI_API_KEY"));

        let other_variable = cloud().with_api_key_env("AWS_SECRET_ACCESS_KEY");
        let change = key_change(Some(&saved), &other_variable).unwrap();
        assert!(change.key.unwrap().contains("AWS_SECRET_ACCESS_KEY"));

        // A new profile taking a key from the environment says where it will go.
        let change = key_change(None, &cloud()).unwrap();
        assert_eq!(
            change.new_server.as_deref(),
            Some("https://api.example.com")
        );
        assert_eq!(change.old_server, None);
    }

    #[test]
    fn the_same_server_and_key_ask_nothing() {
        let saved = cloud();
        let mut edited = cloud().with_base_url("https://api.example.com/v2/");
        edited.model = "gpt-5".into();
        edited.temperature = Some(0.5);
        assert_eq!(key_change(Some(&saved), &edited), None);
        // Switching to the keychain on the same server: the entry is the profile's own.
        let mut keychain = cloud();
        keychain.api_key_env = None;
        keychain.key_source = KeySource::Keychain;
        assert_eq!(key_change(Some(&saved), &keychain), None);
        // A keyless local server may move freely: there is no key to send.
        let local = ProviderProfile::new("l", ProviderKind::Ollama, "llama3.1");
        let moved = local.clone().with_base_url("http://10.0.0.9:11434/v1");
        assert_eq!(key_change(Some(&local), &moved), None);
        assert_eq!(key_change(None, &local), None);
    }

    #[test]
    fn a_keychain_key_moving_server_and_a_new_tokenizer_are_changes() {
        let saved =
            ProviderProfile::new("k", ProviderKind::Anthropic, "claude").with_key_in_keychain();
        let moved = saved.clone().with_base_url("http://127.0.0.1:9/");
        let change = key_change(Some(&saved), &moved).unwrap();
        assert!(change.key.unwrap().contains("keychain"));
        assert_eq!(change.new_server.as_deref(), Some("http://127.0.0.1:9"));

        let mut reads = ProviderProfile::new("l", ProviderKind::Ollama, "llama3.1");
        reads.tokenizer_file = Some("/home/u/.ssh/id_ed25519".into());
        let change = key_change(None, &reads).unwrap();
        assert_eq!(change.key, None);
        assert_eq!(
            change.tokenizer_file.as_deref(),
            Some("/home/u/.ssh/id_ed25519")
        );
        assert_eq!(key_change(Some(&reads), &reads), None);
    }

    #[test]
    fn a_key_goes_over_plain_http_only_on_this_machine() {
        for off in [
            "http://api.example.com/v1",
            "http://192.168.1.20:11434/v1",
            "http://localhost.example.com/v1",
            "HTTP://8.8.8.8",
        ] {
            assert!(is_plain_http_off_machine(off), "{off}");
        }
        for fine in [
            "https://api.example.com/v1",
            "http://127.0.0.1:8080/v1",
            "http://127.5.0.1/v1",
            "http://localhost:11434/v1",
            "http://gpu.localhost/v1",
            "http://[::1]:8080/v1",
        ] {
            assert!(!is_plain_http_off_machine(fine), "{fine}");
        }
        let remote = cloud().with_base_url("http://api.example.com/v1");
        let err = check_key_transport(&remote).unwrap_err().to_string();
        assert!(
            err.contains("plain http") && err.contains("https://"),
            "{err}"
        );
        let env = |_: &str| Some("sk-env-secret".to_string());
        assert!(resolve_key_with(&remote, &env, &|| panic!("no keychain")).is_err());
        let typed = key_for_unsaved(&remote, Some("sk-typed"), None, &env, &|| panic!("no"));
        assert!(typed.is_err());
    }

    #[test]
    fn credentials_in_the_address_never_show_as_the_server() {
        let profile = cloud().with_base_url("https://alice:hunter2@api.example.com/v1?key=x");
        assert_eq!(
            server_of(&profile).as_deref(),
            Some("https://api.example.com")
        );
    }

    #[test]
    fn an_unsaved_profile_uses_a_typed_key_or_its_saved_key_where_it_was_saved_for() {
        let env = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-env-secret".to_string());
        let no_keychain =
            || -> Result<crate::Keychain, LlmError> { panic!("the keychain is not opened here") };
        let saved = cloud();
        // Unchanged: the saved key.
        let key = key_for_unsaved(&cloud(), None, Some(&saved), &env, &no_keychain).unwrap();
        assert_eq!(key, Some(ApiKey::new("sk-env-secret")));
        // Pointed elsewhere, or new: nothing unless typed.
        let moved = cloud().with_base_url("https://collector.example.net/v1");
        assert_eq!(
            key_for_unsaved(&moved, None, Some(&saved), &env, &no_keychain).unwrap(),
            None
        );
        assert_eq!(
            key_for_unsaved(&cloud(), None, None, &env, &no_keychain).unwrap(),
            None
        );
        let typed = key_for_unsaved(&moved, Some(" sk-typed "), Some(&saved), &env, &no_keychain);
        assert_eq!(typed.unwrap(), Some(ApiKey::new("sk-typed")));
    }
}
