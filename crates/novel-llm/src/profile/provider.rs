//! A provider profile: which kind of server it speaks to ([`ProviderKind`]), at which URL,
//! which model, where its key comes from ([`KeySource`]: the environment variable it names or
//! the OS keychain, never the key itself), and its generation settings. What a profile's
//! fields must hold is checked in `check`; the file the profiles live in is `store`.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::http_retry::RetryPolicy;
use crate::prices::Prices;
use crate::profile::settings::{Capabilities, Sampling, StructuredOutput};

/// Which wire protocol a profile speaks.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProviderKind {
    /// OpenAI chat completions: OpenAI, llama.cpp, LM Studio, vLLM, OpenRouter, ...
    #[serde(rename = "openai-compatible")]
    OpenAiCompatible,
    /// Ollama through its OpenAI-compatible endpoint (only the defaults differ).
    #[serde(rename = "ollama")]
    Ollama,
    /// Anthropic Messages API.
    #[serde(rename = "anthropic")]
    Anthropic,
    /// Google Gemini API.
    #[serde(rename = "gemini")]
    Gemini,
    /// A command-line agent reading the prompt on standard input.
    #[serde(rename = "command")]
    Command,
}

impl ProviderKind {
    /// The name used in `providers.toml` and in [`crate::ModelInfo::kind`].
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::OpenAiCompatible => "openai-compatible",
            ProviderKind::Ollama => "ollama",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Gemini => "gemini",
            ProviderKind::Command => "command",
        }
    }

    /// The base URL used when the profile sets none.
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            ProviderKind::OpenAiCompatible => Some("https://api.openai.com/v1"),
            ProviderKind::Ollama => Some("http://localhost:11434/v1"),
            ProviderKind::Anthropic => Some("https://api.anthropic.com"),
            ProviderKind::Gemini => Some("https://generativelanguage.googleapis.com"),
            ProviderKind::Command => None,
        }
    }

    /// The key variable used when the profile names none. OpenAI-compatible servers are often
    /// local and keyless, so they get none by default.
    pub fn default_api_key_env(self) -> Option<&'static str> {
        match self {
            ProviderKind::Anthropic => Some("ANTHROPIC_API_KEY"),
            ProviderKind::Gemini => Some("GEMINI_API_KEY"),
            _ => None,
        }
    }
}

/// Where a profile's API key comes from. Neither is a file of ours: keys live in the
/// environment or in the OS keychain (see [`crate::profile::keychain`]).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// The environment variable named by `api_key_env` (or the kind's default variable).
    #[default]
    Env,
    /// The OS keychain entry stored for this profile's name (`novel providers set-key`).
    Keychain,
}

impl KeySource {
    fn is_env(&self) -> bool {
        *self == KeySource::Env
    }
}

/// One named provider configuration.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderProfile {
    /// Unique name, chosen by the user.
    pub name: String,
    /// The protocol.
    pub kind: ProviderKind,
    /// Overrides [`ProviderKind::default_base_url`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The model name sent to the provider (optional for `command`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    /// NAME of the environment variable holding the API key (never the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Where the key comes from; files written before this field existed mean `env`.
    #[serde(default, skip_serializing_if = "KeySource::is_env")]
    pub key_source: KeySource,
    /// Per-request timeout (for streams: the longest silence tolerated).
    #[serde(default = "default_timeout_secs")]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub timeout_secs: u64,
    /// Retries after the first attempt for 429, 5xx and connection failures.
    #[serde(default = "default_max_retries")]
    pub max_retries: u32,
    /// First retry delay; doubles each attempt. Tests set a few milliseconds.
    #[serde(default = "default_retry_base_delay_ms")]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub retry_base_delay_ms: u64,
    /// For `command`: the program and its arguments, e.g. `["codex", "exec", "-"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Sampling temperature (0–2) for requests that set none; the server's default when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling (above 0, at most 1) for requests that set none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// A ceiling on every answer's length in tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u32>,
    /// The model's context window in tokens (prompt and answer together): prompts are checked
    /// against it and answers held to what it leaves. Filled from the server's model list
    /// where it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u32>,
    /// How to ask for JSON answers; `auto` steps down as the server refuses.
    #[serde(default, skip_serializing_if = "StructuredOutput::is_auto")]
    pub structured_output: StructuredOutput,
    /// The model's own `tokenizer.json` (or the folder holding it), to count tokens as the
    /// model does; without it a local llama.cpp server's `/tokenize` is used, else an estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer_file: Option<String>,
    /// What calls cost, per million tokens; none means free (a local server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prices: Option<Prices>,
    /// What the server was found to accept by the last connection test.
    #[serde(default, skip_serializing_if = "Capabilities::is_unknown")]
    pub capabilities: Capabilities,
    /// The file this profile was loaded from, for error messages; not stored.
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

fn default_timeout_secs() -> u64 {
    300
}

fn default_max_retries() -> u32 {
    3
}

fn default_retry_base_delay_ms() -> u64 {
    1000
}

impl ProviderProfile {
    /// A profile with default timeouts and retries.
    pub fn new(name: impl Into<String>, kind: ProviderKind, model: impl Into<String>) -> Self {
        ProviderProfile {
            name: name.into(),
            kind,
            base_url: None,
            model: model.into(),
            api_key_env: None,
            key_source: KeySource::Env,
            timeout_secs: default_timeout_secs(),
            max_retries: default_max_retries(),
            retry_base_delay_ms: default_retry_base_delay_ms(),
            command: Vec::new(),
            temperature: None,
            top_p: None,
            max_output_tokens: None,
            context_length: None,
            structured_output: StructuredOutput::Auto,
            tokenizer_file: None,
            prices: None,
            capabilities: Capabilities::default(),
            source: None,
        }
    }

    /// The sampling settings this profile puts on each request.
    pub fn sampling(&self) -> Sampling {
        Sampling {
            temperature: self.temperature.map(|t| t as f32),
            top_p: self.top_p.map(|p| p as f32),
            max_output_tokens: self.max_output_tokens,
        }
    }

    /// A `command` profile running `argv`.
    pub fn command(name: impl Into<String>, argv: &[&str]) -> Self {
        let mut profile = ProviderProfile::new(name, ProviderKind::Command, "");
        profile.command = argv.iter().map(|arg| arg.to_string()).collect();
        profile
    }

    /// Sets the base URL.
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sets the name of the key variable.
    pub fn with_api_key_env(mut self, var: impl Into<String>) -> Self {
        self.api_key_env = Some(var.into());
        self
    }

    /// Reads the key from the OS keychain entry of this profile instead of the environment.
    pub fn with_key_in_keychain(mut self) -> Self {
        self.key_source = KeySource::Keychain;
        self
    }

    /// Sets retries and the first retry delay.
    pub fn with_retries(mut self, max_retries: u32, base_delay_ms: u64) -> Self {
        self.max_retries = max_retries;
        self.retry_base_delay_ms = base_delay_ms;
        self
    }

    /// Sets the timeout.
    pub fn with_timeout_secs(mut self, secs: u64) -> Self {
        self.timeout_secs = secs;
        self
    }

    /// The base URL to use, without a trailing slash.
    pub fn effective_base_url(&self) -> Option<String> {
        self.base_url
            .as_deref()
            .or(self.kind.default_base_url())
            .map(|url| url.trim_end_matches('/').to_string())
    }

    /// The key variable to read, if any (none when the key is in the keychain).
    pub fn effective_api_key_env(&self) -> Option<&str> {
        match self.key_source {
            KeySource::Env => self
                .api_key_env
                .as_deref()
                .or(self.kind.default_api_key_env()),
            KeySource::Keychain => None,
        }
    }

    /// The retry schedule configured by this profile.
    pub fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy::new(
            self.max_retries,
            Duration::from_millis(self.retry_base_delay_ms),
        )
    }

    /// The configured timeout.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }

    /// "profile `x` of /path/providers.toml", for messages that say where to fix something.
    pub fn location(&self) -> String {
        match &self.source {
            Some(path) => format!("profile `{}` of {}", self.name, path.display()),
            None => format!("profile `{}`", self.name),
        }
    }
}
