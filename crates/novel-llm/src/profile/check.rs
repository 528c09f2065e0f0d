//! What a settings form needs to know about provider profiles, owned here so that every front
//! end says the same thing: each [`ProviderKind`] with its label and defaults, and a profile's
//! problems field by field (which field, and a sentence saying what to enter) so a form can
//! put each message beside its field. [`ProviderProfile::validate`] reports the first of the
//! same problems, so a hand-edited `providers.toml` and the app's form cannot disagree.

use serde::Serialize;

use crate::error::LlmError;
use crate::profile::provider::{KeySource, ProviderKind, ProviderProfile};

/// A provider kind as a form offers it: its name, what it is called, and what a profile of
/// that kind uses when it leaves a field empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    pub kind: ProviderKind,
    pub label: &'static str,
    /// The server address used when the profile sets none (`None` for a command).
    pub default_base_url: Option<&'static str>,
    /// The key variable read when the profile names none (`None`: no key unless one is set).
    pub default_api_key_env: Option<&'static str>,
    /// The kind runs a program (`command`) instead of talking to a server (`base_url`, `model`,
    /// a key).
    pub runs_command: bool,
}

/// A field of a profile that can have a problem; serialized as its name in `providers.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProfileField {
    Name,
    Model,
    Command,
    BaseUrl,
    ApiKeyEnv,
    KeySource,
    TimeoutSecs,
    Temperature,
    TopP,
    MaxOutputTokens,
    ContextLength,
    TokenizerFile,
    Prices,
}

impl ProfileField {
    /// The field's name in `providers.toml` (and in the profile's JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileField::Name => "name",
            ProfileField::Model => "model",
            ProfileField::Command => "command",
            ProfileField::BaseUrl => "base_url",
            ProfileField::ApiKeyEnv => "api_key_env",
            ProfileField::KeySource => "key_source",
            ProfileField::TimeoutSecs => "timeout_secs",
            ProfileField::Temperature => "temperature",
            ProfileField::TopP => "top_p",
            ProfileField::MaxOutputTokens => "max_output_tokens",
            ProfileField::ContextLength => "context_length",
            ProfileField::TokenizerFile => "tokenizer_file",
            ProfileField::Prices => "prices",
        }
    }
}

/// One problem with one field of a profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileProblem {
    pub field: ProfileField,
    /// What to enter, as a sentence for the person filling in the form.
    pub message: String,
}

impl ProviderKind {
    /// Every kind, in the order a form lists them.
    pub const ALL: [ProviderKind; 5] = [
        ProviderKind::OpenAiCompatible,
        ProviderKind::Ollama,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
        ProviderKind::Command,
    ];

    /// What the kind is called in a user interface.
    pub fn label(self) -> &'static str {
        match self {
            ProviderKind::OpenAiCompatible => "OpenAI-compatible",
            ProviderKind::Ollama => "Ollama",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::Gemini => "Google Gemini",
            ProviderKind::Command => "Command-line agent",
        }
    }

    /// The kind with its label and defaults.
    pub fn info(self) -> KindInfo {
        KindInfo {
            kind: self,
            label: self.label(),
            default_base_url: self.default_base_url(),
            default_api_key_env: self.default_api_key_env(),
            runs_command: self == ProviderKind::Command,
        }
    }
}

impl ProviderProfile {
    /// Checks the fields this profile's kind needs: the first of [`ProviderProfile::problems`],
    /// with the profile and the field it concerns.
    pub fn validate(&self) -> Result<(), LlmError> {
        self.validate_except(&[])
    }

    /// [`ProviderProfile::validate`] without the problems of `fields`: listing a server's
    /// models needs neither a model nor a name yet, every other field holds as for a request.
    pub fn validate_except(&self, fields: &[ProfileField]) -> Result<(), LlmError> {
        let mut problems = self.problems();
        problems.retain(|problem| !fields.contains(&problem.field));
        match problems.into_iter().next() {
            Some(problem) => Err(LlmError::Config(format!(
                "{}: `{}`: {}",
                self.location(),
                problem.field.as_str(),
                problem.message
            ))),
            None => Ok(()),
        }
    }

    /// Every problem with this profile, in field order; empty when it can be saved.
    pub fn problems(&self) -> Vec<ProfileProblem> {
        let mut problems = Vec::new();
        let mut push = |field: ProfileField, message: &str| {
            problems.push(ProfileProblem {
                field,
                message: message.to_string(),
            })
        };
        if self.name.trim().is_empty() {
            push(ProfileField::Name, "Give the profile a name.");
        }
        if self.kind == ProviderKind::Command {
            if self
                .command
                .first()
                .is_none_or(|program| program.trim().is_empty())
            {
                push(
                    ProfileField::Command,
                    "Enter the program to run and its arguments, e.g. codex exec -.",
                );
            }
        } else {
            if self.model.trim().is_empty() {
                push(
                    ProfileField::Model,
                    "Enter the model name, e.g. gpt-4o-mini or llama3.1.",
                );
            }
            if let Some(url) = &self.base_url
                && !is_http_url(url)
            {
                push(
                    ProfileField::BaseUrl,
                    "The server address starts with http:// or https://.",
                );
            }
        }
        if let Some(var) = &self.api_key_env
            && !is_variable_name(var)
        {
            push(
                ProfileField::ApiKeyEnv,
                "Enter the NAME of the environment variable that holds the key (letters, \
                 digits and _), never the key itself.",
            );
        }
        if self.key_source == KeySource::Keychain {
            if self.kind == ProviderKind::Command {
                push(
                    ProfileField::KeySource,
                    "A command profile takes no API key: the command handles its own login.",
                );
            } else if self.api_key_env.is_some() {
                push(
                    ProfileField::ApiKeyEnv,
                    "Both `api_key_env` and the keychain are set: keep the one that holds the key.",
                );
            }
        }
        if self.timeout_secs == 0 {
            push(
                ProfileField::TimeoutSecs,
                "The timeout must be at least 1 second.",
            );
        }
        self.sampling_problems(&mut push);
        problems
    }

    /// Problems with the generation settings: sampling, lengths, tokenizer and prices.
    fn sampling_problems(&self, push: &mut impl FnMut(ProfileField, &str)) {
        if self
            .temperature
            .is_some_and(|t| !(t.is_finite() && (0.0..=2.0).contains(&t)))
        {
            push(
                ProfileField::Temperature,
                "The temperature is between 0 and 2 (0.7 is a common choice), or empty for the server's default.",
            );
        }
        if self
            .top_p
            .is_some_and(|p| !(p.is_finite() && p > 0.0 && p <= 1.0))
        {
            push(
                ProfileField::TopP,
                "Top p is above 0 and at most 1, or empty for the server's default.",
            );
        }
        if let Some(context) = self.context_length
            && context < MIN_CONTEXT
        {
            push(
                ProfileField::ContextLength,
                "The context length is the model's window in tokens: at least 512, or empty when unknown.",
            );
        }
        match (self.max_output_tokens, self.context_length) {
            (Some(0), _) => push(
                ProfileField::MaxOutputTokens,
                "The longest answer must be at least 1 token, or empty for no ceiling.",
            ),
            (Some(out), Some(context)) if out >= context => push(
                ProfileField::MaxOutputTokens,
                "The longest answer must leave room for the prompt: keep it below the context length.",
            ),
            _ => {}
        }
        if self
            .tokenizer_file
            .as_deref()
            .is_some_and(|path| path.trim().is_empty())
        {
            push(
                ProfileField::TokenizerFile,
                "Enter the path of the model's tokenizer.json (or its folder), or leave it out.",
            );
        }
        if self.prices.is_some_and(|prices| !prices.is_valid()) {
            push(
                ProfileField::Prices,
                "Prices are amounts per million tokens: 0 or more.",
            );
        }
    }
}

/// The smallest context window a profile may declare; no useful model has less.
const MIN_CONTEXT: u32 = 512;

fn is_http_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|scheme| lower.len() > scheme.len() && lower.starts_with(scheme))
}

/// An environment variable's name as shells accept it; a pasted key (`sk-…`) is not one.
fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(profile: &ProviderProfile) -> Vec<&'static str> {
        profile
            .problems()
            .iter()
            .map(|p| p.field.as_str())
            .collect()
    }

    #[test]
    fn a_complete_profile_has_no_problems() {
        let local = ProviderProfile::new("local", ProviderKind::OpenAiCompatible, "qwen")
            .with_base_url("http://localhost:8080/v1")
            .with_api_key_env("LOCAL_KEY");
        assert_eq!(fields(&local), Vec::<&str>::new());
        local.validate().unwrap();
        let agent = ProviderProfile::command("codex", &["codex", "exec", "-"]);
        assert_eq!(fields(&agent), Vec::<&str>::new());
    }

    #[test]
    fn each_missing_or_wrong_field_is_named_with_what_to_enter() {
        let mut blank = ProviderProfile::new(" ", ProviderKind::Ollama, "");
        blank.base_url = Some("localhost:11434".into());
        blank.api_key_env = Some("sk-live-1234".into());
        blank.timeout_secs = 0;
        assert_eq!(
            fields(&blank),
            ["name", "model", "base_url", "api_key_env", "timeout_secs"]
        );
        let key_message = &blank.problems()[3].message;
        assert!(key_message.contains("never the key"), "{key_message}");

        let no_program = ProviderProfile::command("agent", &["  ", "exec"]);
        assert_eq!(fields(&no_program), ["command"]);
        // A command ignores the server fields, so they are not its problems.
        let mut with_url = ProviderProfile::command("agent", &["codex"]);
        with_url.base_url = Some("not a url".into());
        assert_eq!(fields(&with_url), Vec::<&str>::new());
    }

    #[test]
    fn generation_settings_out_of_range_are_named_field_by_field() {
        let mut profile = ProviderProfile::new("local", ProviderKind::Ollama, "llama3.1");
        profile.temperature = Some(0.8);
        profile.top_p = Some(0.95);
        profile.context_length = Some(8192);
        profile.max_output_tokens = Some(2048);
        profile.prices = Some(crate::Prices {
            prompt_per_million: 0.0,
            completion_per_million: 0.5,
            ..Default::default()
        });
        assert_eq!(fields(&profile), Vec::<&str>::new());
        profile.temperature = Some(2.5);
        profile.top_p = Some(0.0);
        profile.context_length = Some(100);
        profile.max_output_tokens = Some(0);
        profile.tokenizer_file = Some(" ".into());
        profile.prices = Some(crate::Prices {
            prompt_per_million: -3.0,
            completion_per_million: 1.0,
            ..Default::default()
        });
        assert_eq!(
            fields(&profile),
            [
                "temperature",
                "top_p",
                "context_length",
                "max_output_tokens",
                "tokenizer_file",
                "prices"
            ]
        );
        profile.temperature = Some(f64::NAN);
        profile.top_p = None;
        profile.context_length = Some(4096);
        profile.max_output_tokens = Some(4096);
        profile.tokenizer_file = None;
        profile.prices = None;
        let problems = profile.problems();
        assert_eq!(fields(&profile), ["temperature", "max_output_tokens"]);
        assert!(problems[1].message.contains("below the context length"));
    }

    #[test]
    fn validate_reports_the_first_problem_with_its_field_and_profile() {
        let profile = ProviderProfile::new("x", ProviderKind::Anthropic, "")
            .with_base_url("ftp://example.org");
        let err = profile.validate().unwrap_err().to_string();
        assert!(
            err.contains("profile `x`") && err.contains("`model`") && err.contains("model name"),
            "{err}"
        );
    }

    #[test]
    fn every_kind_is_listed_once_with_its_defaults() {
        let infos: Vec<KindInfo> = ProviderKind::ALL.iter().map(|k| k.info()).collect();
        assert_eq!(infos.len(), 5);
        let ollama = infos
            .iter()
            .find(|i| i.kind == ProviderKind::Ollama)
            .unwrap();
        assert_eq!(ollama.default_base_url, Some("http://localhost:11434/v1"));
        let gemini = ProviderKind::Gemini.info();
        assert_eq!(gemini.default_api_key_env, Some("GEMINI_API_KEY"));
        assert!(ProviderKind::Command.info().runs_command);
        assert_eq!(ProviderKind::Command.info().default_base_url, None);
        let json = serde_json::to_value(ProviderKind::OpenAiCompatible.info()).unwrap();
        assert_eq!(json["kind"], "openai-compatible");
        assert_eq!(json["label"], "OpenAI-compatible");
    }
}
