//! Where provider profiles are kept: `providers.toml` in the user's config directory (never in a
//! novel's directory, so a novel can be shared without leaking anything), read whole as a
//! [`ProviderConfig`] and written back atomically. Profiles name the environment variable
//! holding the key, or say the key is in the OS keychain, never the key itself; a file that
//! tries to hold a key is refused, and deleting a profile deletes its keychain entry too.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::LlmError;
use crate::profile::keychain::KeychainOpener;
use crate::profile::provider::{KeySource, ProviderKind, ProviderProfile};

/// The file name inside the config directory.
pub const PROVIDERS_FILE: &str = "providers.toml";

/// The whole `providers.toml`.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    /// The profile used when none is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_profile: Option<String>,
    /// All profiles, written as `[[profile]]` tables.
    #[serde(default, rename = "profile")]
    pub profiles: Vec<ProviderProfile>,
}

impl ProviderConfig {
    /// What a fresh installation uses: the Codex CLI as the default provider, asked to keep
    /// the commands it runs read-only (it runs in an empty folder, not a Git repository).
    pub fn builtin() -> Self {
        ProviderConfig {
            default_profile: Some("codex".into()),
            profiles: vec![ProviderProfile::command(
                "codex",
                &[
                    "codex",
                    "exec",
                    "--sandbox",
                    "read-only",
                    "--skip-git-repo-check",
                    "-",
                ],
            )],
        }
    }

    /// The profile called `name`.
    pub fn profile(&self, name: &str) -> Option<&ProviderProfile> {
        self.profiles.iter().find(|profile| profile.name == name)
    }

    /// The profile called `name`, or a message listing the ones that exist.
    pub fn require(&self, name: &str) -> Result<&ProviderProfile, LlmError> {
        self.profile(name).ok_or_else(|| {
            let known: Vec<&str> = self.profiles.iter().map(|p| p.name.as_str()).collect();
            LlmError::Config(format!(
                "no provider profile named `{name}`; known profiles: {}",
                known.join(", ")
            ))
        })
    }

    /// The default profile: the one named by `default_profile`, else the only one.
    pub fn default(&self) -> Result<&ProviderProfile, LlmError> {
        match (&self.default_profile, self.profiles.as_slice()) {
            (Some(name), _) => self.require(name),
            (None, [only]) => Ok(only),
            (None, []) => Err(LlmError::Config(
                "no provider profiles are configured".into(),
            )),
            (None, _) => Err(LlmError::Config(
                "several provider profiles but no `default_profile`; set one".into(),
            )),
        }
    }

    /// No profiles at all: what the settings start from before the first profile is saved.
    pub fn empty() -> Self {
        ProviderConfig {
            default_profile: None,
            profiles: Vec::new(),
        }
    }

    /// Adds or replaces `profile`; it becomes the default when asked to or when there is none.
    pub fn add(&mut self, profile: ProviderProfile, make_default: bool) {
        let name = profile.name.clone();
        self.upsert(profile);
        if make_default || self.default_profile.is_none() {
            self.default_profile = Some(name);
        }
    }

    /// Removes the profile called `name`; if it was the default, the first remaining profile
    /// becomes the default. Only the configuration: [`ProfileStore::delete_profile`] also
    /// deletes the profile's key and is what front ends use.
    pub fn remove(&mut self, name: &str) -> Result<(), LlmError> {
        self.require(name)?;
        self.profiles.retain(|p| p.name != name);
        if self.default_profile.as_deref() == Some(name) {
            self.default_profile = self.profiles.first().map(|p| p.name.clone());
        }
        Ok(())
    }

    /// Makes the profile called `name` the default.
    pub fn set_default(&mut self, name: &str) -> Result<(), LlmError> {
        self.require(name)?;
        self.default_profile = Some(name.to_string());
        Ok(())
    }

    /// Points the profile called `name` at its OS keychain entry instead of an environment
    /// variable. Returns the variable it read before when it changed, `Ok(None)` when it
    /// already used the keychain. A command profile takes no key and is refused.
    pub fn use_keychain(&mut self, name: &str) -> Result<Option<Option<String>>, LlmError> {
        let profile = self.require(name)?.clone();
        if profile.kind == ProviderKind::Command {
            return Err(LlmError::Config(format!(
                "profile `{name}` runs a command, which handles its own login; it takes no API key"
            )));
        }
        if profile.key_source == KeySource::Keychain {
            return Ok(None);
        }
        let previous = profile.effective_api_key_env().map(str::to_string);
        self.upsert(ProviderProfile {
            api_key_env: None,
            key_source: KeySource::Keychain,
            ..profile
        });
        Ok(Some(previous))
    }

    /// Adds `profile`, replacing any profile with the same name.
    pub fn upsert(&mut self, profile: ProviderProfile) {
        match self.profiles.iter_mut().find(|p| p.name == profile.name) {
            Some(slot) => *slot = profile,
            None => self.profiles.push(profile),
        }
    }

    fn validate(&self) -> Result<(), LlmError> {
        for (index, profile) in self.profiles.iter().enumerate() {
            profile.validate()?;
            if self.profiles[..index]
                .iter()
                .any(|p| p.name == profile.name)
            {
                return Err(LlmError::Config(format!(
                    "{}: two profiles are named `{}`",
                    profile.location(),
                    profile.name
                )));
            }
        }
        match &self.default_profile {
            Some(name) => self.require(name).map(|_| ()),
            None => Ok(()),
        }
    }
}

/// What deleting a profile did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileRemoval {
    /// The deleted profile.
    pub profile: String,
    /// The default profile now (another one when the deleted profile was the default).
    pub default_profile: Option<String>,
    /// What happened to its API key.
    pub key: KeyRemoval,
}

/// What happened to a deleted profile's key.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyRemoval {
    /// The profile read its key from the environment: nothing of ours to delete.
    NotInKeychain,
    /// Its key was deleted from the OS keychain.
    Deleted,
    /// It kept its key in the keychain, which held none.
    NoneStored,
}

/// Reads and writes one `providers.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileStore {
    path: PathBuf,
}

/// Field names that would hold a secret; refused so that nobody stores a key in the file.
const SECRET_FIELDS: &[&str] = &["api_key", "key", "token", "secret", "password"];

impl ProfileStore {
    /// A store at an explicit file path.
    pub fn at(path: impl Into<PathBuf>) -> Self {
        ProfileStore { path: path.into() }
    }

    /// The store in the user's config directory (see [`config_dir`]).
    pub fn from_env() -> Result<Self, LlmError> {
        Ok(ProfileStore::at(config_dir()?.join(PROVIDERS_FILE)))
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file; a missing file yields [`ProviderConfig::builtin`].
    pub fn load(&self) -> Result<ProviderConfig, LlmError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ProviderConfig::builtin());
            }
            Err(err) => {
                return Err(LlmError::Config(format!(
                    "cannot read {}: {err}",
                    self.path.display()
                )));
            }
        };
        let mut config = self.parse(&text)?;
        for profile in &mut config.profiles {
            profile.source = Some(self.path.clone());
        }
        config.validate()?;
        Ok(config)
    }

    /// The saved profiles, or none when nothing has been saved yet (unlike [`Self::load`],
    /// which falls back to the built-in default): what settings screens list and edit.
    pub fn load_or_empty(&self) -> Result<ProviderConfig, LlmError> {
        if self.path.exists() {
            self.load()
        } else {
            Ok(ProviderConfig::empty())
        }
    }

    /// Writes the file (creating the directory), replacing it atomically.
    pub fn save(&self, config: &ProviderConfig) -> Result<(), LlmError> {
        config.validate()?;
        let fail = |err: std::io::Error| {
            LlmError::Config(format!("cannot write {}: {err}", self.path.display()))
        };
        let text = toml::to_string_pretty(config)
            .map_err(|err| LlmError::Config(format!("cannot encode provider profiles: {err}")))?;
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir).map_err(fail)?;
        // A temporary file of its own in the same directory, so the app and the CLI saving at
        // the same moment never write into each other's file; the rename replaces the old file
        // in one step.
        let mut tmp = tempfile::Builder::new()
            .prefix(".providers.")
            .suffix(".toml.tmp")
            .tempfile_in(dir)
            .map_err(fail)?;
        tmp.write_all(text.as_bytes()).map_err(fail)?;
        tmp.as_file().sync_all().map_err(fail)?;
        tmp.persist(&self.path).map_err(|err| fail(err.error))?;
        Ok(())
    }

    /// Removes the profile called `name` from the file and, when it kept its key in the OS
    /// keychain, that key too: a deleted profile leaves no secret behind. The key goes first: a
    /// keychain that cannot be reached or refuses keeps the profile (and says what to do), so
    /// no key is ever left without a profile that names it. Both front ends delete profiles
    /// through this.
    pub fn delete_profile(
        &self,
        name: &str,
        keychain: KeychainOpener<'_>,
    ) -> Result<ProfileRemoval, LlmError> {
        let mut config = self.load_or_empty()?;
        let removed = config.require(name)?.clone();
        let key = if removed.key_source == KeySource::Keychain {
            match keychain().and_then(|keychain| keychain.delete_key(name)) {
                Ok(true) => KeyRemoval::Deleted,
                Ok(false) => KeyRemoval::NoneStored,
                Err(err) => {
                    return Err(LlmError::Config(format!(
                        "profile `{name}` was kept because its API key could not be deleted from the OS keychain: {err}. Make the keychain available, or switch the profile to an environment variable, then delete it again"
                    )));
                }
            }
        } else {
            KeyRemoval::NotInKeychain
        };
        config.remove(name)?;
        self.save(&config)?;
        Ok(ProfileRemoval {
            profile: name.to_string(),
            default_profile: config.default_profile,
            key,
        })
    }

    fn parse(&self, text: &str) -> Result<ProviderConfig, LlmError> {
        let where_ = self.path.display();
        // Parsed as a plain table first so a stored key is refused before serde could quote
        // the offending line (with the key in it) in a parse error.
        let table: toml::Table = toml::from_str(text).map_err(|err| {
            LlmError::Config(format!("{where_}: invalid TOML: {}", err.message()))
        })?;
        let profiles = table.get("profile").and_then(toml::Value::as_array);
        for profile in profiles.into_iter().flatten() {
            let Some(fields) = profile.as_table() else {
                continue;
            };
            if let Some(field) = SECRET_FIELDS.iter().find(|f| fields.contains_key(**f)) {
                let name = fields
                    .get("name")
                    .and_then(toml::Value::as_str)
                    .unwrap_or("?");
                return Err(LlmError::Config(format!(
                    "{where_}: profile `{name}` has a `{field}` field; keys are never stored in \
                     files: remove it, then either put the key in an environment variable and \
                     set `api_key_env` to that variable's name, or store it in the OS keychain \
                     (`novel providers set-key {name}`) and set `key_source = \"keychain\"`"
                )));
            }
        }
        ProviderConfig::deserialize(toml::Value::Table(table))
            .map_err(|err| LlmError::Config(format!("{where_}: {}", err.message())))
    }
}

/// The config directory: `$NOVEL_AGENT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/novel-agent`, else
/// `~/.config/novel-agent`.
pub fn config_dir() -> Result<PathBuf, LlmError> {
    config_dir_with(|name| std::env::var(name).ok())
}

/// [`config_dir`] with the environment passed in (tests cannot safely set variables).
pub fn config_dir_with(var: impl Fn(&str) -> Option<String>) -> Result<PathBuf, LlmError> {
    let set = |name: &str| var(name).filter(|value| !value.is_empty());
    if let Some(dir) = set("NOVEL_AGENT_CONFIG_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = set("XDG_CONFIG_HOME") {
        return Ok(PathBuf::from(dir).join("novel-agent"));
    }
    match set("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".config").join("novel-agent")),
        None => Err(LlmError::Config(
            "cannot find a config directory: set NOVEL_AGENT_CONFIG_DIR or HOME".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::keychain::Keychain;

    #[test]
    fn adding_removing_and_defaults_keep_the_config_valid() {
        let mut config = ProviderConfig::empty();
        config.add(
            ProviderProfile::new("a", ProviderKind::OpenAiCompatible, "m"),
            false,
        );
        assert_eq!(
            config.default_profile.as_deref(),
            Some("a"),
            "the first becomes the default"
        );
        config.add(ProviderProfile::new("b", ProviderKind::Ollama, "m"), false);
        assert_eq!(config.default_profile.as_deref(), Some("a"));
        config.set_default("b").unwrap();
        assert!(config.set_default("zz").is_err());
        config.remove("b").unwrap();
        assert_eq!(
            config.default_profile.as_deref(),
            Some("a"),
            "the default moves on"
        );
        assert!(config.remove("b").is_err());
        config.validate().unwrap();
    }

    #[test]
    fn switching_to_the_keychain_drops_the_variable_and_stays_valid() {
        let mut config = ProviderConfig::empty();
        config.add(
            ProviderProfile::new("o", ProviderKind::OpenAiCompatible, "m")
                .with_api_key_env("OPENAI_API_KEY"),
            true,
        );
        config.add(ProviderProfile::command("c", &["codex"]), false);
        assert_eq!(
            config.use_keychain("o").unwrap(),
            Some(Some("OPENAI_API_KEY".into()))
        );
        assert_eq!(config.use_keychain("o").unwrap(), None, "already switched");
        let o = config.profile("o").unwrap();
        assert_eq!(
            (o.key_source, o.api_key_env.as_deref()),
            (KeySource::Keychain, None)
        );
        config.validate().unwrap();
        assert!(config.use_keychain("c").is_err());
    }

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        }
    }

    #[test]
    fn config_dir_prefers_explicit_then_xdg_then_home() {
        let all = [
            ("NOVEL_AGENT_CONFIG_DIR", "/cfg"),
            ("XDG_CONFIG_HOME", "/xdg"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(config_dir_with(env(&all)).unwrap(), PathBuf::from("/cfg"));
        assert_eq!(
            config_dir_with(env(&all[1..])).unwrap(),
            PathBuf::from("/xdg/novel-agent")
        );
        assert_eq!(
            config_dir_with(env(&all[2..])).unwrap(),
            PathBuf::from("/home/u/.config/novel-agent")
        );
        let empty_override = [("NOVEL_AGENT_CONFIG_DIR", ""), ("HOME", "/h")];
        assert_eq!(
            config_dir_with(env(&empty_override)).unwrap(),
            PathBuf::from("/h/.config/novel-agent")
        );
        assert!(config_dir_with(env(&[])).is_err());
    }

    #[test]
    fn save_then_load_round_trips_and_records_the_source() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProfileStore::at(dir.path().join("sub").join(PROVIDERS_FILE));
        let mut config = ProviderConfig::builtin();
        config.upsert(
            ProviderProfile::new("local", ProviderKind::OpenAiCompatible, "qwen")
                .with_base_url("http://127.0.0.1:8080/v1/")
                .with_api_key_env("LOCAL_KEY")
                .with_retries(5, 20),
        );
        config.default_profile = Some("local".into());
        store.save(&config).unwrap();

        let loaded = store.load().unwrap();
        let local = loaded.default().unwrap();
        assert_eq!(local.name, "local");
        assert_eq!(local.max_retries, 5);
        assert_eq!(local.source.as_deref(), Some(store.path()));
        assert_eq!(
            local.effective_base_url().as_deref(),
            Some("http://127.0.0.1:8080/v1")
        );
        assert_eq!(loaded.require("codex").unwrap().command[0], "codex");
        let text = std::fs::read_to_string(store.path()).unwrap();
        assert!(text.contains("[[profile]]") && text.contains("api_key_env = \"LOCAL_KEY\""));
    }

    #[test]
    fn missing_file_gives_the_builtin_codex_default() {
        let dir = tempfile::tempdir().unwrap();
        let config = ProfileStore::at(dir.path().join(PROVIDERS_FILE))
            .load()
            .unwrap();
        let default = config.default().unwrap();
        assert_eq!(default.kind, ProviderKind::Command);
        assert_eq!(default.command[..2], ["codex", "exec"]);
    }

    #[test]
    fn a_stored_key_is_refused_without_quoting_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROVIDERS_FILE);
        std::fs::write(
            &path,
            "[[profile]]\nname = \"oa\"\nkind = \"openai-compatible\"\nmodel = \"m\"\napi_key = \"sk-live-abcdef123\"\n",
        )
        .unwrap();
        let err = ProfileStore::at(&path).load().unwrap_err().to_string();
        assert!(err.contains("api_key_env") && err.contains("`oa`"), "{err}");
        assert!(!err.contains("sk-live"), "{err}");
    }

    #[test]
    fn invalid_profiles_say_what_to_set() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROVIDERS_FILE);
        std::fs::write(&path, "[[profile]]\nname = \"x\"\nkind = \"anthropic\"\n").unwrap();
        let err = ProfileStore::at(&path).load().unwrap_err().to_string();
        assert!(
            err.contains("`model`") && err.contains(&path.display().to_string()),
            "{err}"
        );

        std::fs::write(&path, "[[profile]]\nname = \"x\"\nkind = \"telepathy\"\n").unwrap();
        let err = ProfileStore::at(&path).load().unwrap_err().to_string();
        assert!(err.contains("telepathy"), "{err}");

        let dup = "[[profile]]\nname = \"a\"\nkind = \"command\"\ncommand = [\"x\"]\n";
        std::fs::write(&path, format!("{dup}{dup}")).unwrap();
        let err = ProfileStore::at(&path).load().unwrap_err().to_string();
        assert!(err.contains("two profiles"), "{err}");
    }

    #[test]
    fn default_profile_resolution() {
        let mut config = ProviderConfig {
            default_profile: None,
            profiles: vec![ProviderProfile::command("a", &["x"])],
        };
        assert_eq!(config.default().unwrap().name, "a");
        config.upsert(ProviderProfile::command("b", &["y"]));
        assert!(config.default().is_err());
        config.default_profile = Some("b".into());
        assert_eq!(config.default().unwrap().command, ["y"]);
        config.default_profile = Some("zzz".into());
        let err = config.default().unwrap_err().to_string();
        assert!(err.contains("zzz") && err.contains("a, b"), "{err}");
    }

    #[test]
    fn key_source_defaults_to_env_and_round_trips_keychain() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROVIDERS_FILE);
        // A file from before `key_source` existed still loads, reading the environment.
        std::fs::write(
            &path,
            "[[profile]]\nname = \"a\"\nkind = \"anthropic\"\nmodel = \"claude\"\n",
        )
        .unwrap();
        let store = ProfileStore::at(&path);
        let mut config = store.load().unwrap();
        assert_eq!(config.profiles[0].key_source, KeySource::Env);
        assert_eq!(
            config.profiles[0].effective_api_key_env(),
            Some("ANTHROPIC_API_KEY")
        );

        let keyed =
            ProviderProfile::new("k", ProviderKind::Anthropic, "claude").with_key_in_keychain();
        assert_eq!(
            keyed.effective_api_key_env(),
            None,
            "the keychain replaces the variable"
        );
        config.upsert(keyed);
        store.save(&config).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches("key_source").count(),
            1,
            "only the keychain profile names a source: {text}"
        );
        assert!(text.contains("key_source = \"keychain\""), "{text}");
        let loaded = store.load().unwrap();
        assert_eq!(loaded.require("k").unwrap().key_source, KeySource::Keychain);
    }

    #[test]
    fn keychain_source_conflicts_are_refused() {
        let both = ProviderProfile::new("x", ProviderKind::OpenAiCompatible, "m")
            .with_api_key_env("KEY")
            .with_key_in_keychain();
        let err = both.validate().unwrap_err().to_string();
        assert!(
            err.contains("api_key_env") && err.contains("keychain"),
            "{err}"
        );
        let command = ProviderProfile::command("c", &["codex"]).with_key_in_keychain();
        let err = command.validate().unwrap_err().to_string();
        assert!(err.contains("command profile"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROVIDERS_FILE);
        std::fs::write(
            &path,
            "[[profile]]\nname = \"x\"\nkind = \"ollama\"\nmodel = \"m\"\nkey_source = \"vault\"\n",
        )
        .unwrap();
        let err = ProfileStore::at(&path).load().unwrap_err().to_string();
        assert!(err.contains("vault"), "{err}");
    }

    #[test]
    fn kind_defaults_for_keys_and_urls() {
        let gemini = ProviderProfile::new("g", ProviderKind::Gemini, "gemini-2.5-flash");
        assert_eq!(gemini.effective_api_key_env(), Some("GEMINI_API_KEY"));
        let ollama = ProviderProfile::new("o", ProviderKind::Ollama, "llama3.1");
        assert_eq!(ollama.effective_api_key_env(), None);
        assert_eq!(
            ollama.effective_base_url().as_deref(),
            Some("http://localhost:11434/v1")
        );
    }

    #[test]
    fn concurrent_saves_never_clash_over_a_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROVIDERS_FILE);
        let writers: Vec<_> = (0..6)
            .map(|writer| {
                let store = ProfileStore::at(&path);
                std::thread::spawn(move || {
                    let mut config = ProviderConfig::empty();
                    let name = format!("writer-{writer}");
                    config.add(ProviderProfile::new(&name, ProviderKind::Ollama, "m"), true);
                    for _ in 0..40 {
                        store.save(&config).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().expect("every save succeeds");
        }
        let saved = ProfileStore::at(&path).load().unwrap();
        assert_eq!(
            saved.profiles.len(),
            1,
            "one writer's whole file, not a mix"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .filter(|name| name != PROVIDERS_FILE)
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    fn mock_keychain() -> Keychain {
        Keychain::with_store(keyring_core::mock::Store::new().unwrap())
    }

    #[test]
    fn deleting_a_keychain_profile_deletes_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProfileStore::at(dir.path().join(PROVIDERS_FILE));
        let mut config = ProviderConfig::empty();
        config.add(
            ProviderProfile::new("cloud", ProviderKind::Anthropic, "claude").with_key_in_keychain(),
            true,
        );
        config.add(
            ProviderProfile::new("local", ProviderKind::Ollama, "llama3.1"),
            false,
        );
        store.save(&config).unwrap();
        let keychain = mock_keychain();
        keychain.store_key("cloud", "sk-cloud-secret-1").unwrap();
        keychain.store_key("other", "sk-other-secret-2").unwrap();
        let opener = || Ok(keychain.clone());

        let removal = store.delete_profile("cloud", &opener).unwrap();
        assert_eq!(removal.key, KeyRemoval::Deleted);
        assert_eq!(removal.default_profile.as_deref(), Some("local"));
        assert!(!keychain.has_key("cloud").unwrap());
        assert!(keychain.has_key("other").unwrap(), "only its own key goes");
        let left = store.load().unwrap();
        assert!(left.profile("cloud").is_none() && left.profile("local").is_some());
        assert!(
            store.delete_profile("cloud", &opener).is_err(),
            "already gone"
        );
    }

    #[test]
    fn deleting_an_env_profile_never_opens_the_keychain_and_a_failing_keychain_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProfileStore::at(dir.path().join(PROVIDERS_FILE));
        let mut config = ProviderConfig::empty();
        config.add(
            ProviderProfile::new("env", ProviderKind::OpenAiCompatible, "m").with_api_key_env("K"),
            true,
        );
        config.add(
            ProviderProfile::new("vault", ProviderKind::Gemini, "g").with_key_in_keychain(),
            false,
        );
        store.save(&config).unwrap();
        let unavailable =
            || -> Result<Keychain, LlmError> { Err(LlmError::Config("no Secret Service".into())) };
        let removal = store.delete_profile("env", &unavailable).unwrap();
        assert_eq!(removal.key, KeyRemoval::NotInKeychain);
        let err = store.delete_profile("vault", &unavailable).unwrap_err();
        assert!(err.to_string().contains("no Secret Service"), "{err}");
        assert!(
            store.load_or_empty().unwrap().profile("vault").is_some(),
            "a key that cannot be deleted keeps its profile"
        );
    }
}
