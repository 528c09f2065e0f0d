//! Everything an HTTP provider needs to turn a failure into an actionable [`LlmError`]: which
//! profile, model, URL and key variable are involved, and the key itself only to scrub it from
//! quoted server text.

use serde_json::Value;

use crate::error::LlmError;
use crate::profile::provider::{KeySource, ProviderProfile};
use crate::secret::{ApiKey, redact};

/// Quoted server text is cut to this many characters: enough to read the reason, not a page.
const DETAIL_CHARS: usize = 400;

/// The settings behind one HTTP provider, for error messages.
#[derive(Debug, Clone)]
pub(crate) struct CallContext {
    /// "profile `x` (openai-compatible)".
    pub provider: String,
    /// "profile `x` of /path/providers.toml".
    pub location: String,
    pub profile: String,
    pub kind: &'static str,
    pub model: String,
    pub api_key_env: Option<String>,
    /// The key came from the OS keychain entry of this profile.
    pub key_in_keychain: bool,
    pub key: Option<ApiKey>,
    pub timeout_secs: u64,
}

impl CallContext {
    pub(crate) fn new(profile: &ProviderProfile, key: Option<ApiKey>) -> Self {
        CallContext {
            provider: format!("profile `{}` ({})", profile.name, profile.kind.as_str()),
            location: profile.location(),
            profile: profile.name.clone(),
            kind: profile.kind.as_str(),
            model: profile.model.clone(),
            api_key_env: profile.effective_api_key_env().map(str::to_string),
            key_in_keychain: profile.key_source == KeySource::Keychain,
            key,
            timeout_secs: profile.timeout_secs,
        }
    }

    /// What [`crate::LanguageModel::describe`] reports for every HTTP provider.
    pub(crate) fn model_info(&self) -> crate::types::ModelInfo {
        crate::types::ModelInfo {
            kind: self.kind.to_string(),
            profile: self.profile.clone(),
            model: self.model.clone(),
        }
    }

    /// The server's message from an error body (OpenAI, Anthropic, Gemini, Ollama shapes),
    /// redacted and shortened.
    pub(crate) fn detail(&self, body: &str) -> String {
        let message = serde_json::from_str::<Value>(body).ok().and_then(|json| {
            let error = json.get("error")?;
            error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .map(str::to_string)
        });
        let text = message.unwrap_or_else(|| body.trim().to_string());
        let text = if text.is_empty() {
            "no details".to_string()
        } else {
            text
        };
        shorten(&redact(&text, self.key.as_ref()))
    }

    pub(crate) fn auth(&self, status: u16, body: &str) -> LlmError {
        let detail = self.detail(body);
        let setting_hint = match &self.api_key_env {
            None if self.key_in_keychain => format!(
                "the API key stored in the OS keychain for profile `{}` was rejected \
                 ({detail}); store a valid one with `novel providers set-key {}`",
                self.profile, self.profile
            ),
            Some(var) => format!(
                "the API key in ${var} was rejected ({detail}); set a valid key in {var}, or \
                 change `api_key_env` in {}",
                self.location
            ),
            None => format!(
                "the server wants an API key ({detail}); put it in an environment variable and \
                 set `api_key_env` to that variable's name in {}, or store it in the OS \
                 keychain with `novel providers set-key {}`",
                self.location, self.profile
            ),
        };
        LlmError::Auth {
            provider: self.provider.clone(),
            status,
            setting_hint,
        }
    }

    pub(crate) fn not_found(&self, url: &str, body: &str) -> LlmError {
        LlmError::NotFound {
            provider: self.provider.clone(),
            model: self.model.clone(),
            url: self.redact(url),
            detail: self.detail(body),
        }
    }

    /// `text` with the key and every other recognisable secret removed (URLs quoted in errors
    /// may carry `user:password@` or `?key=`).
    pub(crate) fn redact(&self, text: &str) -> String {
        redact(text, self.key.as_ref())
    }

    pub(crate) fn bad_request(&self, status: u16, body: &str) -> LlmError {
        LlmError::BadRequest {
            provider: self.provider.clone(),
            status,
            detail: self.detail(body),
        }
    }

    pub(crate) fn timeout(&self) -> LlmError {
        LlmError::Timeout {
            provider: self.provider.clone(),
            secs: self.timeout_secs,
        }
    }

    pub(crate) fn invalid(&self, detail: impl Into<String>) -> LlmError {
        LlmError::InvalidResponse {
            provider: self.provider.clone(),
            detail: shorten(&redact(&detail.into(), self.key.as_ref())),
        }
    }

    pub(crate) fn stream_cut(&self, detail: impl Into<String>) -> LlmError {
        LlmError::StreamCut {
            provider: self.provider.clone(),
            detail: shorten(&redact(&detail.into(), self.key.as_ref())),
        }
    }

    /// A transport error's text, scrubbed (reqwest errors quote URLs, never headers, but a
    /// user could have put a key or a password into `base_url`).
    pub(crate) fn transport_detail(&self, err: &reqwest::Error) -> String {
        let text = format!("{err}{}", crate::error::causes(err));
        shorten(&redact(&text, self.key.as_ref()))
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(DETAIL_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::provider::ProviderKind;

    fn ctx() -> CallContext {
        let profile = ProviderProfile::new("oa", ProviderKind::OpenAiCompatible, "gpt-x")
            .with_api_key_env("OA_KEY");
        CallContext::new(&profile, Some(ApiKey::new("sk-abcdefgh12345")))
    }

    #[test]
    fn detail_reads_every_known_error_shape_and_redacts() {
        let c = ctx();
        assert_eq!(
            c.detail(r#"{"error":{"message":"nope","type":"x"}}"#),
            "nope"
        );
        assert_eq!(
            c.detail(r#"{"error":"model 'q' not found"}"#),
            "model 'q' not found"
        );
        assert_eq!(c.detail("  plain text  "), "plain text");
        assert_eq!(c.detail(""), "no details");
        let echoed = c.detail(r#"{"error":{"message":"Incorrect API key sk-abcdefgh12345"}}"#);
        assert!(
            !echoed.contains("sk-abc") && echoed.contains("<redacted>"),
            "{echoed}"
        );
        assert!(c.detail(&"x".repeat(5000)).chars().count() <= DETAIL_CHARS + 1);
    }

    #[test]
    fn auth_error_names_the_variable_and_the_profile() {
        let text = ctx().auth(401, "{}").to_string();
        assert!(
            text.contains("$OA_KEY") && text.contains("`api_key_env`"),
            "{text}"
        );
        assert!(
            text.contains("profile `oa`") && text.contains("401"),
            "{text}"
        );
    }

    #[test]
    fn auth_error_for_a_keychain_key_says_to_store_a_new_one() {
        let profile = ProviderProfile::new("cloud", ProviderKind::OpenAiCompatible, "m")
            .with_key_in_keychain();
        let text = CallContext::new(&profile, Some(ApiKey::new("sk-keychain-123456")))
            .auth(401, r#"{"error":{"message":"bad key sk-keychain-123456"}}"#)
            .to_string();
        assert!(
            text.contains("OS keychain") && text.contains("novel providers set-key cloud"),
            "{text}"
        );
        assert!(!text.contains("sk-keychain"), "{text}");
    }
}
