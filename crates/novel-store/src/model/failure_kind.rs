//! What kind of failure ended a tick ([`ErrorKind`]), as the error files, the failure table,
//! the front ends and scripts name it, with a hint per kind for the writer. Plain data below
//! the tick, so the error files (`files`) carry it typed; the tick maps its step errors to it.

use serde::{Deserialize, Serialize};

/// What kind of failure ended a tick: what the UI and scripts switch on.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    #[serde(rename = "llm.auth")]
    ProviderAuth,
    #[serde(rename = "llm.not_found")]
    ProviderNotFound,
    #[serde(rename = "llm.rate_limited")]
    ProviderRateLimited,
    #[serde(rename = "llm.server")]
    ProviderServer,
    #[serde(rename = "llm.bad_request")]
    ProviderBadRequest,
    #[serde(rename = "llm.connect")]
    ProviderUnreachable,
    #[serde(rename = "llm.timeout")]
    ProviderTimeout,
    #[serde(rename = "llm.stream_cut")]
    ProviderStreamCut,
    #[serde(rename = "llm.invalid_response")]
    ProviderInvalidResponse,
    #[serde(rename = "llm.structured_output")]
    ProviderStructuredOutput,
    #[serde(rename = "llm.command")]
    ProviderCommand,
    #[serde(rename = "llm.config")]
    ProviderConfig,
    #[serde(rename = "plan_invalid")]
    PlanInvalid,
    #[serde(rename = "tool_failed")]
    ToolFailed,
    #[serde(rename = "prose_rejected")]
    ProseRejected,
    #[serde(rename = "store")]
    Store,
    #[serde(rename = "prompt")]
    Prompt,
    /// A spending limit (novel.toml's `[budget]`, or the run's) stopped the tick before its
    /// next call; nothing was spent on that call and the story is unchanged.
    #[serde(rename = "budget")]
    BudgetReached,
    #[serde(rename = "cancelled")]
    Cancelled,
    /// The writer rejected the tick in review.
    #[serde(rename = "rejected")]
    Rejected,
    /// The tick could not start (read-only novel, unreadable state).
    #[serde(rename = "setup")]
    Setup,
    /// A kind this build does not know (a failure recorded by another version).
    #[serde(other, rename = "other")]
    Other,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 22] = [
        ErrorKind::ProviderAuth,
        ErrorKind::ProviderNotFound,
        ErrorKind::ProviderRateLimited,
        ErrorKind::ProviderServer,
        ErrorKind::ProviderBadRequest,
        ErrorKind::ProviderUnreachable,
        ErrorKind::ProviderTimeout,
        ErrorKind::ProviderStreamCut,
        ErrorKind::ProviderInvalidResponse,
        ErrorKind::ProviderStructuredOutput,
        ErrorKind::ProviderCommand,
        ErrorKind::ProviderConfig,
        ErrorKind::PlanInvalid,
        ErrorKind::ToolFailed,
        ErrorKind::ProseRejected,
        ErrorKind::Store,
        ErrorKind::Prompt,
        ErrorKind::BudgetReached,
        ErrorKind::Cancelled,
        ErrorKind::Rejected,
        ErrorKind::Setup,
        ErrorKind::Other,
    ];

    /// The name stored in error files and the failure table (the serde name too).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::ProviderAuth => "llm.auth",
            ErrorKind::ProviderNotFound => "llm.not_found",
            ErrorKind::ProviderRateLimited => "llm.rate_limited",
            ErrorKind::ProviderServer => "llm.server",
            ErrorKind::ProviderBadRequest => "llm.bad_request",
            ErrorKind::ProviderUnreachable => "llm.connect",
            ErrorKind::ProviderTimeout => "llm.timeout",
            ErrorKind::ProviderStreamCut => "llm.stream_cut",
            ErrorKind::ProviderInvalidResponse => "llm.invalid_response",
            ErrorKind::ProviderStructuredOutput => "llm.structured_output",
            ErrorKind::ProviderCommand => "llm.command",
            ErrorKind::ProviderConfig => "llm.config",
            ErrorKind::PlanInvalid => "plan_invalid",
            ErrorKind::ToolFailed => "tool_failed",
            ErrorKind::ProseRejected => "prose_rejected",
            ErrorKind::Store => "store",
            ErrorKind::Prompt => "prompt",
            ErrorKind::BudgetReached => "budget",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Rejected => "rejected",
            ErrorKind::Setup => "setup",
            ErrorKind::Other => "other",
        }
    }

    /// The kind a stored name stands for; unknown names are [`ErrorKind::Other`].
    pub fn parse(name: &str) -> ErrorKind {
        ErrorKind::ALL
            .into_iter()
            .find(|k| k.as_str() == name)
            .unwrap_or(ErrorKind::Other)
    }

    /// Whether the provider (its server, key or settings) is where to look.
    pub fn is_provider(self) -> bool {
        self.as_str().starts_with("llm.")
    }

    /// The likely cause and what to do, in a sentence for the writer (any front end shows it
    /// beside the failure's own message); `None` when there is nothing to add.
    pub fn hint(self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::ProviderAuth => {
                "The AI provider refused the API key: check the key of the provider profile."
            }
            ErrorKind::ProviderNotFound => {
                "The AI provider does not know this model or address: check the model name and \
                 the server address of the provider profile."
            }
            ErrorKind::ProviderRateLimited => {
                "The AI provider is limiting requests. Wait a little, then try again."
            }
            ErrorKind::ProviderServer => {
                "The AI server reported an error. It is often temporary: try again in a moment."
            }
            ErrorKind::ProviderBadRequest => {
                "The AI server refused the request: a setting of the provider profile (model, \
                 context length, structured output) may not suit this server."
            }
            ErrorKind::ProviderUnreachable => {
                "The AI provider could not be reached. Is the server running, and is the \
                 profile's address right?"
            }
            ErrorKind::ProviderTimeout => {
                "The AI provider took too long to answer. Try again; a slow local model may \
                 need a longer timeout in the provider profile."
            }
            ErrorKind::ProviderStreamCut => {
                "The AI server stopped in the middle of its answer. Try again in a moment."
            }
            ErrorKind::ProviderInvalidResponse | ErrorKind::ProviderStructuredOutput => {
                "The model's answer could not be used. Try again; a larger or \
                 instruction-tuned model usually does better."
            }
            ErrorKind::ProviderCommand => {
                "The command-line agent failed: run it by hand to see why."
            }
            ErrorKind::ProviderConfig => {
                "The provider profile is incomplete or wrong: check it in the provider settings."
            }
            ErrorKind::PlanInvalid | ErrorKind::ToolFailed => {
                "The planner could not make a plan that works with the story so far. Try \
                 again, or add a steering note to guide the scene."
            }
            ErrorKind::ProseRejected => {
                "The writer returned no usable scene. Try again for a fresh draft, or keep \
                 this one as it is and edit it; if it repeats, check the model and its maximum \
                 output length."
            }
            ErrorKind::Store => {
                "The novel's files could not be read or written. Check that the disk is not \
                 full and the novel's folder is writable."
            }
            ErrorKind::Prompt => {
                "A prompt could not be built from the novel's settings: check them."
            }
            ErrorKind::Setup => {
                "The scene could not start: check that the novel's folder is writable."
            }
            ErrorKind::BudgetReached => {
                "The spending limit is reached; the story is unchanged. Raise or remove the \
                 limit to go on."
            }
            ErrorKind::Cancelled | ErrorKind::Rejected | ErrorKind::Other => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_keep_their_stored_names_and_parse_back() {
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::parse(kind.as_str()), kind);
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        assert_eq!(ErrorKind::parse("llm.server"), ErrorKind::ProviderServer);
        assert_eq!(ErrorKind::parse("something new"), ErrorKind::Other);
        assert!(ErrorKind::ProviderTimeout.is_provider());
        assert!(!ErrorKind::PlanInvalid.is_provider());
    }

    #[test]
    fn every_failure_a_writer_can_act_on_has_a_hint() {
        for kind in ErrorKind::ALL {
            let wanted = !matches!(
                kind,
                ErrorKind::Cancelled | ErrorKind::Rejected | ErrorKind::Other
            );
            assert_eq!(kind.hint().is_some(), wanted, "{kind:?}");
        }
        assert!(ErrorKind::ProviderAuth.hint().unwrap().contains("key"));
        assert!(
            ErrorKind::ProviderUnreachable
                .hint()
                .unwrap()
                .contains("running")
        );
    }
}
