//! The one error type of the LLM layer. Every message says what went wrong and which setting
//! (profile, environment variable, URL, model) to change, because these errors end up in front
//! of a novelist, not a developer. Messages never carry secrets: bodies quoted from servers are
//! passed through [`crate::secret::redact`] before they get here.

use serde::Serialize;

use crate::types::Completion;

/// What can go wrong when talking to a model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// 401/403: the credentials were refused.
    #[error("{provider}: the server refused the request (HTTP {status}): {setting_hint}")]
    Auth {
        /// Which profile/provider.
        provider: String,
        /// 401 or 403.
        status: u16,
        /// Which setting to fix, naming the environment variable.
        setting_hint: String,
    },
    /// 404: wrong model name or wrong base URL.
    #[error(
        "{provider}: HTTP 404 from {url}: the model `{model}` or the base URL is wrong; check \
         `model` and `base_url` in the profile ({detail})"
    )]
    NotFound {
        /// Which profile/provider.
        provider: String,
        /// The model name that was sent.
        model: String,
        /// The URL that answered 404.
        url: String,
        /// The server's own words, shortened.
        detail: String,
    },
    /// 429 on every attempt.
    #[error("{provider}: rate limited (HTTP 429) on all {attempts} attempts: {detail}")]
    RateLimited {
        /// Which profile/provider.
        provider: String,
        /// How many requests were made.
        attempts: u32,
        /// The server's own words, shortened.
        detail: String,
    },
    /// 5xx on every attempt.
    #[error("{provider}: server error (HTTP {status}) on all {attempts} attempts: {detail}")]
    Server {
        /// Which profile/provider.
        provider: String,
        /// The last status seen.
        status: u16,
        /// How many requests were made.
        attempts: u32,
        /// The server's own words, shortened.
        detail: String,
    },
    /// Any other refused request (400, 422, ...), not worth retrying.
    #[error("{provider}: the server rejected the request (HTTP {status}): {detail}")]
    BadRequest {
        /// Which profile/provider.
        provider: String,
        /// The status code.
        status: u16,
        /// The server's own words, shortened.
        detail: String,
    },
    /// No connection could be made.
    #[error(
        "{provider}: could not connect to {url} after {attempts} attempts; is the server \
         running and is `base_url` right? ({detail})"
    )]
    Connect {
        /// Which profile/provider.
        provider: String,
        /// The URL we tried.
        url: String,
        /// How many connection attempts were made.
        attempts: u32,
        /// The underlying error.
        detail: String,
    },
    /// The server did not answer in time.
    #[error(
        "{provider}: no answer within {secs} s; raise `timeout_secs` in the profile if the \
         model is just slow"
    )]
    Timeout {
        /// Which profile/provider.
        provider: String,
        /// The configured timeout.
        secs: u64,
    },
    /// A streamed answer ended before the model said it was finished.
    #[error("{provider}: the answer stream ended before the model finished ({detail})")]
    StreamCut {
        /// Which profile/provider.
        provider: String,
        /// What was received, or the transport error.
        detail: String,
    },
    /// The server answered something we cannot read.
    #[error("{provider}: unexpected response: {detail}")]
    InvalidResponse {
        /// Which profile/provider.
        provider: String,
        /// What was wrong with it.
        detail: String,
    },
    /// The answer was not valid JSON for the schema, even after one repair request.
    #[error("the model's structured answer is invalid even after a repair request: {}", errors.join("; "))]
    StructuredOutput {
        /// The validation errors of the last answer.
        errors: Vec<String>,
        /// Every call made (the first answer and its repair): the tokens were spent even
        /// though the answer is unusable, so callers still count them.
        completions: Vec<Completion>,
    },
    /// The command provider's program failed.
    #[error("{provider}: command `{program}` failed: {detail}")]
    Command {
        /// Which profile.
        provider: String,
        /// The program (first element of the configured command).
        program: String,
        /// Exit status or start failure, with the tail of its standard error.
        detail: String,
    },
    /// The provider configuration is incomplete or unreadable.
    #[error("provider configuration: {0}")]
    Config(String),
    /// A spending limit stopped the call before it was sent.
    #[error(
        "the {} budget of {limit} is reached: {spent} spent, and the next call could take {next}",
        match scope { LimitScope::Run => "run's", LimitScope::Total => "total" }
    )]
    LimitReached {
        scope: LimitScope,
        /// The limit, with its unit.
        limit: String,
        /// What was spent under it.
        spent: String,
        /// The most the refused call could have taken.
        next: String,
    },
}

/// Which limit stopped a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitScope {
    /// The limit of this run.
    Run,
    /// The limit on everything spent, this run and before.
    Total,
}

impl LlmError {
    /// Whether trying the same call again later could succeed (rate limits, server trouble,
    /// network trouble, cut streams), as opposed to needing a configuration or prompt change.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            LlmError::RateLimited { .. }
                | LlmError::Server { .. }
                | LlmError::Connect { .. }
                | LlmError::Timeout { .. }
                | LlmError::StreamCut { .. }
        )
    }
}

/// An error's causes after its own message, `: `-separated (reqwest keeps the useful part —
/// "connection refused", "invalid certificate" — in the causes).
pub(crate) fn causes(err: &dyn std::error::Error) -> String {
    let mut text = String::new();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// An HTTP client from `builder`, or an error that says what to do. The one thing that stops
/// a client from being built on an ordinary machine is a system with no TLS root certificates
/// (rustls reads the system's store).
///
/// Redirects are never followed: a redirect could carry the key's header to another server
/// (reqwest drops only `authorization` across hosts, not `x-api-key` or `x-goog-api-key`) or
/// from https down to plain http. A 3xx is reported as the server's answer instead.
pub(crate) fn http_client(builder: reqwest::ClientBuilder) -> Result<reqwest::Client, LlmError> {
    let builder = builder.redirect(reqwest::redirect::Policy::none());
    builder.build().map_err(|e| {
        LlmError::Config(format!(
            "cannot create the HTTP client: {e}{}. If the system has no TLS root certificates, \
             install them (Debian and Ubuntu: the ca-certificates package)",
            causes(&e)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_errors_are_the_retryable_ones() {
        let cut = LlmError::StreamCut {
            provider: "p".into(),
            detail: "d".into(),
        };
        let auth = LlmError::Auth {
            provider: "p".into(),
            status: 401,
            setting_hint: "h".into(),
        };
        assert!(cut.is_transient());
        assert!(!auth.is_transient());
        assert!(!LlmError::Config("x".into()).is_transient());
        assert!(
            !LlmError::StructuredOutput {
                errors: vec![],
                completions: vec![]
            }
            .is_transient()
        );
    }

    #[test]
    fn structured_output_message_lists_every_error() {
        let err = LlmError::StructuredOutput {
            errors: vec!["/a: missing".into(), "/b: not a number".into()],
            completions: vec![],
        };
        let text = err.to_string();
        assert!(
            text.contains("/a: missing") && text.contains("/b: not a number"),
            "{text}"
        );
    }

    #[test]
    fn an_error_is_told_with_its_causes() {
        #[derive(Debug, thiserror::Error)]
        #[error("builder error")]
        struct Outer(#[source] std::io::Error);
        let outer = Outer(std::io::Error::other(
            "no native root CA certificates found",
        ));
        assert_eq!(
            super::causes(&outer),
            ": no native root CA certificates found"
        );
    }
}
