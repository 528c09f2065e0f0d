//! API keys in memory. The key is read from the environment at connect time and held only in
//! [`ApiKey`], whose `Debug` prints nothing of it and which has no `Display`, so it cannot leak
//! into logs or error messages by formatting; [`redact`] scrubs it from text we quote back from
//! servers (some echo the key in their error bodies).

use std::fmt;

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

/// Replaces every occurrence of the key in `text` with `<redacted>`.
pub fn redact(text: &str, key: Option<&ApiKey>) -> String {
    match key {
        // Very short "keys" (e.g. a dummy "x" for local servers) would mangle ordinary text and
        // protect nothing.
        Some(key) if key.0.len() >= 8 => text.replace(&key.0, "<redacted>"),
        _ => text.to_string(),
    }
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
        assert_eq!(redact(text, None), text);
    }
}
