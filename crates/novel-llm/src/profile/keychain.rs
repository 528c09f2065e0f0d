//! API keys in the OS keychain: the Secret Service on Linux and the BSDs (GNOME Keyring,
//! KWallet, KeePassXC), the login Keychain on macOS, the Credential Manager on Windows. A profile
//! with `key_source = "keychain"` reads its key from here instead of the environment; the key is
//! stored under the service [`KEYCHAIN_SERVICE`] with the profile's name as the account, and
//! never touches a file of ours. Every failure is an [`LlmError::Config`] that says what to do
//! (unlock the keychain, start a Secret Service, or fall back to `api_key_env`).

use std::sync::{Arc, Mutex};

use keyring_core::{CredentialStore, Error as KeyringError};

use crate::error::LlmError;
use crate::secret::ApiKey;

/// The service name every key is stored under; the account is the profile's name.
pub const KEYCHAIN_SERVICE: &str = "novel-agent";

/// Opens the keychain a profile's key is read from; called only when one is needed.
pub type KeychainOpener<'a> = &'a dyn Fn() -> Result<Keychain, LlmError>;

/// One credential store holding API keys by profile name. [`Keychain::system`] is the OS
/// keychain; [`Keychain::with_store`] takes any keyring store (tests use the mock store).
#[derive(Clone)]
pub struct Keychain {
    store: Arc<CredentialStore>,
}

impl std::fmt::Debug for Keychain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keychain")
            .field("store", &self.store.vendor())
            .finish()
    }
}

/// The system keychain once it has been opened. Only success is remembered: a Secret Service
/// started after a failed attempt (a desktop session finishing its login) is picked up later.
static SYSTEM: Mutex<Option<Keychain>> = Mutex::new(None);

impl Keychain {
    /// The OS keychain, opened on first use.
    pub fn system() -> Result<Keychain, LlmError> {
        // A poisoned lock only means another thread panicked while opening; the slot itself is
        // still a valid Option.
        let mut slot = SYSTEM.lock().unwrap_or_else(|poison| poison.into_inner());
        if let Some(keychain) = slot.as_ref() {
            return Ok(keychain.clone());
        }
        let keychain = Keychain::with_store(platform::open().map_err(|err| unavailable(&err))?);
        *slot = Some(keychain.clone());
        Ok(keychain)
    }

    /// A keychain backed by `store`.
    pub fn with_store(store: Arc<CredentialStore>) -> Keychain {
        Keychain { store }
    }

    /// Stores `key` for `profile`, replacing any key stored before. The key is trimmed (a
    /// pasted key often ends in a newline); an empty key is refused.
    pub fn store_key(&self, profile: &str, key: &str) -> Result<(), LlmError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(LlmError::Config(format!(
                "refusing to store an empty API key for profile `{profile}`"
            )));
        }
        self.entry(profile)?
            .set_password(key)
            .map_err(|err| failed("store the key of", profile, &err))
    }

    /// The key stored for `profile`, or `None` when there is none.
    pub fn read_key(&self, profile: &str) -> Result<Option<ApiKey>, LlmError> {
        match self.entry(profile)?.get_password() {
            Ok(key) if key.trim().is_empty() => Ok(None),
            Ok(key) => Ok(Some(ApiKey::new(key.trim()))),
            Err(KeyringError::NoEntry) => Ok(None),
            Err(err) => Err(failed("read the key of", profile, &err)),
        }
    }

    /// Whether a key is stored for `profile`.
    pub fn has_key(&self, profile: &str) -> Result<bool, LlmError> {
        Ok(self.read_key(profile)?.is_some())
    }

    /// Removes the key of `profile`; `true` when there was one.
    pub fn delete_key(&self, profile: &str) -> Result<bool, LlmError> {
        match self.entry(profile)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(KeyringError::NoEntry) => Ok(false),
            Err(err) => Err(failed("delete the key of", profile, &err)),
        }
    }

    fn entry(&self, profile: &str) -> Result<keyring_core::Entry, LlmError> {
        if profile.trim().is_empty() {
            return Err(LlmError::Config(
                "a keychain entry needs a profile name".into(),
            ));
        }
        self.store
            .build(KEYCHAIN_SERVICE, profile, None)
            .map_err(|err| failed("open the entry of", profile, &err))
    }
}

/// Stores `key` for `profile` in the OS keychain.
pub fn store_key(profile: &str, key: &str) -> Result<(), LlmError> {
    Keychain::system()?.store_key(profile, key)
}

/// Removes the key of `profile` from the OS keychain; `true` when there was one.
pub fn delete_key(profile: &str) -> Result<bool, LlmError> {
    Keychain::system()?.delete_key(profile)
}

/// Whether the OS keychain holds a key for `profile`.
pub fn has_key(profile: &str) -> Result<bool, LlmError> {
    Keychain::system()?.has_key(profile)
}

/// The advice for a keychain that cannot be opened at all.
fn unavailable(err: &KeyringError) -> LlmError {
    LlmError::Config(format!(
        "the OS keychain is not available ({err}). {}",
        platform::HINT
    ))
}

fn failed(action: &str, profile: &str, err: &KeyringError) -> LlmError {
    let advice = match err {
        KeyringError::NoStorageAccess(_) => {
            "The keychain is locked or refused access: unlock it (log in to the desktop \
             session, or approve the prompt) and try again, or use `api_key_env` instead."
        }
        KeyringError::NoDefaultStore | KeyringError::PlatformFailure(_) => platform::HINT,
        _ => "Use `api_key_env` in the profile instead if the keychain keeps failing.",
    };
    LlmError::Config(format!(
        "cannot {action} profile `{profile}` in the OS keychain ({err}). {advice}"
    ))
}

#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
mod platform {
    use super::*;

    pub(super) const HINT: &str = "No Secret Service is running (it comes with GNOME Keyring, \
        KWallet or KeePassXC, and needs a D-Bus session): start one, or keep the key in an \
        environment variable and set `api_key_env` in the profile instead.";

    pub(super) fn open() -> Result<Arc<CredentialStore>, KeyringError> {
        Ok(dbus_secret_service_keyring_store::Store::new()?)
    }
}

#[cfg(target_os = "macos")]
mod platform {
    use super::*;

    pub(super) const HINT: &str = "The login Keychain could not be used: check Keychain Access, or keep the key in an \
         environment variable and set `api_key_env` in the profile instead.";

    pub(super) fn open() -> Result<Arc<CredentialStore>, KeyringError> {
        Ok(apple_native_keyring_store::keychain::Store::new()?)
    }
}

#[cfg(target_os = "windows")]
mod platform {
    use super::*;

    pub(super) const HINT: &str = "The Windows Credential Manager could not be used: keep the key in an environment \
         variable and set `api_key_env` in the profile instead.";

    pub(super) fn open() -> Result<Arc<CredentialStore>, KeyringError> {
        Ok(windows_native_keyring_store::Store::new()?)
    }
}

#[cfg(not(any(
    all(
        unix,
        not(any(target_os = "macos", target_os = "ios", target_os = "android"))
    ),
    target_os = "macos",
    target_os = "windows"
)))]
mod platform {
    use super::*;

    pub(super) const HINT: &str = "This platform has no supported keychain: keep the key in an environment variable and \
         set `api_key_env` in the profile instead.";

    pub(super) fn open() -> Result<Arc<CredentialStore>, KeyringError> {
        Err(KeyringError::NoDefaultStore)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyring_core::mock;

    fn mock_keychain() -> Keychain {
        Keychain::with_store(mock::Store::new().unwrap())
    }

    /// Makes the next call on `profile`'s mock credential fail with `err`.
    fn fail_next(keychain: &Keychain, profile: &str, err: KeyringError) {
        let entry = keychain.entry(profile).unwrap();
        let cred: &mock::Cred = entry.as_any().downcast_ref().unwrap();
        cred.set_error(err);
    }

    #[test]
    fn store_read_and_delete_round_trip_per_profile() {
        let keychain = mock_keychain();
        assert!(!keychain.has_key("openai").unwrap());
        keychain.store_key("openai", "sk-first-123456\n").unwrap();
        keychain.store_key("anthropic", "sk-ant-999").unwrap();
        assert!(keychain.has_key("openai").unwrap());
        let key = keychain.read_key("openai").unwrap().unwrap();
        assert_eq!(key, ApiKey::new("sk-first-123456"), "stored trimmed");

        keychain.store_key("openai", "sk-second-654321").unwrap();
        let key = keychain.read_key("openai").unwrap().unwrap();
        assert_eq!(key, ApiKey::new("sk-second-654321"), "a new key replaces");

        assert!(keychain.delete_key("openai").unwrap());
        assert!(
            !keychain.delete_key("openai").unwrap(),
            "nothing left to delete"
        );
        assert_eq!(keychain.read_key("openai").unwrap(), None);
        assert!(
            keychain.has_key("anthropic").unwrap(),
            "other profiles keep their keys"
        );
    }

    #[test]
    fn empty_keys_and_names_are_refused() {
        let keychain = mock_keychain();
        let err = keychain.store_key("p", "  \n").unwrap_err().to_string();
        assert!(err.contains("empty API key"), "{err}");
        assert!(!keychain.has_key("p").unwrap());
        assert!(keychain.store_key(" ", "sk-1").is_err());
    }

    #[test]
    fn a_locked_keychain_says_to_unlock_it_or_use_the_environment() {
        let keychain = mock_keychain();
        keychain.store_key("p", "sk-locked-1").unwrap();
        fail_next(
            &keychain,
            "p",
            KeyringError::NoStorageAccess("collection is locked".into()),
        );
        let err = keychain.read_key("p").unwrap_err().to_string();
        assert!(
            err.contains("profile `p`") && err.contains("unlock") && err.contains("api_key_env"),
            "{err}"
        );
        assert!(!err.contains("sk-locked-1"), "{err}");
        // The failure was one call's; the key is still there.
        assert!(keychain.has_key("p").unwrap());
    }

    #[test]
    fn a_missing_store_names_the_fallback() {
        let err = unavailable(&KeyringError::PlatformFailure(
            "org.freedesktop.DBus.Error.ServiceUnknown".into(),
        ))
        .to_string();
        assert!(
            err.contains("ServiceUnknown") && err.contains("api_key_env"),
            "{err}"
        );
        let keychain = mock_keychain();
        fail_next(
            &keychain,
            "p",
            KeyringError::PlatformFailure("no bus".into()),
        );
        let err = keychain.store_key("p", "sk-x").unwrap_err().to_string();
        assert!(err.contains(platform::HINT), "{err}");
    }
}
