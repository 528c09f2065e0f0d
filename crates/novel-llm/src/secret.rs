//! API keys in memory, and scrubbing secrets out of every text we show. The key is read from
//! the environment or the keychain at connect time and held only in [`ApiKey`], whose `Debug`
//! prints nothing of it and which has no `Display`, so it cannot leak into logs or error
//! messages by formatting. Text we quote back — server error bodies, transport errors naming
//! the URL, a command's standard error — goes through [`redact`] (with the profile's key) or
//! [`redact_secrets`] (without one), which remove:
//!
//! - the key itself, wherever it appears, however short;
//! - credentials in URLs (`https://user:pass@host` → `https://<redacted>@host`);
//! - values of credential-like parameters and variables (`?key=…`, `api_key=…`,
//!   `OPENAI_API_KEY=…`, `access_token=…`, `"api_key": "…"`);
//! - bearer tokens and keys in the well-known formats (`sk-…`, `AIza…`, `hf_…`, ...), so a
//!   key we never held (a command's own login) is scrubbed too.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

/// What a secret is replaced with.
pub const REDACTED: &str = "<redacted>";

/// A secret API key.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key itself, for building request headers only.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Replaces `key` (if any) and every other recognisable secret in `text` with `<redacted>`.
/// Every key is scrubbed, however short: a short dummy key may mangle a word of the message,
/// which is a small price next to showing a real one.
pub fn redact(text: &str, key: Option<&ApiKey>) -> String {
    let text = match key {
        Some(key) if !key.0.is_empty() => text.replace(&key.0, REDACTED),
        _ => text.to_string(),
    };
    redact_secrets(&text)
}

/// A pattern and what its match becomes (`$name` refers to a capture group).
struct Rule {
    pattern: Regex,
    replacement: &'static str,
}

fn rule(pattern: &str, replacement: &'static str) -> Rule {
    Rule {
        // The patterns are constants of this file; a typo fails every test that redacts.
        pattern: Regex::new(pattern).expect("redaction pattern compiles"),
        replacement,
    }
}

/// Credential-like names: anything ending in key, token, secret, password, ...
const SECRET_NAME: &str = r"[A-Za-z0-9_.-]*(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Pp][Aa][Ss][Ss][Ww][Oo]?[Rr]?[Dd]|[Ss][Ii][Gg](?:[Nn][Aa][Tt][Uu][Rr][Ee])?|[Aa][Uu][Tt][Hh])";

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        // scheme://user:password@host
        rule(
            r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s<>\x22']+@",
            "${scheme}<redacted>@",
        ),
        // name=value in query strings, command lines and environment dumps
        rule(
            &format!(r"(?P<name>\b{SECRET_NAME})=(?P<value>[^&\s\x22'#<>,;]+)"),
            "${name}=<redacted>",
        ),
        // "name": "value" in JSON bodies
        rule(
            &format!(r#"(?P<name>"{SECRET_NAME}"\s*:\s*)"[^"]*""#),
            "${name}\"<redacted>\"",
        ),
        // Authorization: Bearer …, Basic …
        rule(
            r"(?i)(?P<scheme>\b(?:bearer|basic))\s+[A-Za-z0-9._~+/=-]{6,}",
            "${scheme} <redacted>",
        ),
        // Key formats: OpenAI / Anthropic / DeepSeek (sk-), Google (AIza), Hugging Face (hf_),
        // Groq (gsk_), xAI (xai-), OpenRouter (sk-or-), GitHub (ghp_ …)
        rule(
            r"\b(?:sk-[A-Za-z0-9_-]{12,}|AIza[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{16,}|gsk_[A-Za-z0-9]{16,}|xai-[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,})",
            REDACTED,
        ),
    ]
});

/// Removes secrets recognisable without knowing the key: URL credentials, credential-like
/// parameters and fields, bearer tokens and keys in well-known formats.
pub fn redact_secrets(text: &str) -> String {
    RULES.iter().fold(text.to_string(), |text, rule| {
        rule.pattern
            .replace_all(&text, rule.replacement)
            .into_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let key = ApiKey::new("sk-secret-123456");
        let shown = format!("{key:?} {:?}", Some(&key));
        assert!(!shown.contains("sk-secret"), "{shown}");
    }

    #[test]
    fn redact_scrubs_every_occurrence() {
        let key = ApiKey::new("sk-secret-123456");
        let text = "bad key sk-secret-123456; again: sk-secret-123456";
        let clean = redact(text, Some(&key));
        assert!(!clean.contains("sk-secret"), "{clean}");
        assert_eq!(clean.matches("<redacted>").count(), 2);
        assert_eq!(redact("nothing secret here", None), "nothing secret here");
    }

    #[test]
    fn short_keys_are_redacted_too() {
        let key = ApiKey::new("k3y");
        let clean = redact("Incorrect API key provided: k3y.", Some(&key));
        assert_eq!(clean, "Incorrect API key provided: <redacted>.");
        // An empty key must not turn every gap between characters into a redaction.
        assert_eq!(redact("abc", Some(&ApiKey::new(""))), "abc");
    }

    #[test]
    fn credentials_in_urls_are_redacted() {
        let cases = [
            (
                "error sending request for url (https://alice:hunter2@llm.example.com/v1/chat)",
                "error sending request for url (https://<redacted>@llm.example.com/v1/chat)",
            ),
            (
                "http://token@10.0.0.5:8080/v1 refused",
                "http://<redacted>@10.0.0.5:8080/v1 refused",
            ),
            (
                "GET https://host/v1/models?key=AbC123&alt=sse failed",
                "GET https://host/v1/models?key=<redacted>&alt=sse failed",
            ),
            (
                "https://host/x?api_key=s3cr3t#frag",
                "https://host/x?api_key=<redacted>#frag",
            ),
            (
                "https://host/x?foo=1&access_token=abc.def",
                "https://host/x?foo=1&access_token=<redacted>",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(redact_secrets(text), expected, "{text}");
        }
        // Ordinary URLs and e-mail-like text without a scheme are left alone.
        let plain = "see https://api.openai.com/v1/chat/completions?alt=sse for mara@example.com";
        assert_eq!(redact_secrets(plain), plain);
    }

    #[test]
    fn variables_fields_bearer_tokens_and_known_key_formats_are_redacted() {
        let text = "env: OPENAI_API_KEY=abc123 HF_TOKEN=hfvalue\n\
                    body: {\"api_key\": \"xyz\", \"model\": \"m\"}\n\
                    header: Authorization: Bearer eyJhbGciOi.payload.sig\n\
                    keys: sk-proj-ABCDEFGHIJKLMNOP AIzaSyA1234567890abcdefghijkl hf_abcdefghijklmnopqrst";
        let clean = redact_secrets(text);
        for secret in [
            "abc123",
            "hfvalue",
            "xyz",
            "eyJhbGciOi",
            "sk-proj",
            "AIzaSy",
            "hf_abcdef",
        ] {
            assert!(!clean.contains(secret), "{secret} in {clean}");
        }
        assert!(
            clean.contains("OPENAI_API_KEY=<redacted>") && clean.contains("\"model\": \"m\""),
            "{clean}"
        );
        assert!(clean.contains("Bearer <redacted>"), "{clean}");
    }
}
