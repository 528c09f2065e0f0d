//! Why a tick failed, in three forms: [`StepError`] as a step reports it, [`ErrorKind`] as a
//! front end switches on it (typed, exported to the UI), and the advice written into the error
//! file, which must fit the failure — an extraction the model botched is not a server that is
//! down, and a plan the tools refused is not a full disk.

use super::events::Stage;
pub use crate::model::ErrorKind;
use crate::store::StoreError;
use novel_llm::LlmError;

/// A failed step, before it becomes error files.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// No plan passed validation after every attempt.
    #[error("no valid plan after {attempts} attempts: {}", problems.join("; "))]
    PlanInvalid {
        attempts: u32,
        problems: Vec<String>,
    },
    /// The plan's tools failed (or could not be scheduled) after every attempt.
    #[error("{0}")]
    ToolsFailed(String),
    /// The writer produced nothing usable, even after the one revision.
    #[error("{0}")]
    ProseRejected(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot build the prompt: {0}")]
    Prompt(String),
    #[error("cancelled")]
    Cancelled,
    /// The writer rejected the tick in review.
    #[error("rejected in review")]
    Rejected,
}

impl StepError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            StepError::Llm(e) => llm_kind(e),
            StepError::PlanInvalid { .. } => ErrorKind::PlanInvalid,
            StepError::ToolsFailed(_) => ErrorKind::ToolFailed,
            StepError::ProseRejected(_) => ErrorKind::ProseRejected,
            StepError::Store(_) => ErrorKind::Store,
            StepError::Prompt(_) => ErrorKind::Prompt,
            StepError::Cancelled => ErrorKind::Cancelled,
            StepError::Rejected => ErrorKind::Rejected,
        }
    }

    /// What the writer should do next, for the error files; it depends on what failed and
    /// where.
    pub fn advice(&self, stage: Stage) -> String {
        self.advice_then(
            stage,
            "then retry with `novel tick --retry` (or Retry in the app)",
        )
    }

    /// The same advice ending with `retry`, how to ask again: a scene asked for from a note
    /// is asked for again, not retried as the next scene.
    pub fn advice_then(&self, stage: Stage, retry: &str) -> String {
        match (self.kind(), stage) {
            (
                ErrorKind::ProviderAuth | ErrorKind::ProviderNotFound | ErrorKind::ProviderConfig,
                _,
            ) => {
                format!(
                    "Fix the provider profile named in the message (key, model name or URL), {retry}."
                )
            }
            (ErrorKind::ProviderRateLimited, _) => {
                format!("The provider is limiting requests. Wait a minute, {retry}.")
            }
            (ErrorKind::ProviderUnreachable, _) => format!(
                "The model's server could not be reached. Check that it is running and that the profile's URL is right, {retry}."
            ),
            (
                ErrorKind::ProviderServer
                | ErrorKind::ProviderTimeout
                | ErrorKind::ProviderStreamCut,
                _,
            ) => format!(
                "The model's server failed or stopped answering. It is often temporary; check the server's own log if it repeats, {retry}."
            ),
            (ErrorKind::ProviderBadRequest, _) => format!(
                "The server refused the request (see the message): a setting of the profile (model, context length, structured output) may not suit this server. Adjust the profile, {retry}."
            ),
            (
                ErrorKind::ProviderStructuredOutput | ErrorKind::ProviderInvalidResponse,
                Stage::Extracting,
            ) => format!(
                "The model could not describe the scene's memory changes in the required form. A larger model (or another profile for the extractor) usually helps; {retry}."
            ),
            (ErrorKind::ProviderStructuredOutput | ErrorKind::ProviderInvalidResponse, _) => {
                format!(
                    "The model's answer could not be used (see the message). A larger or instruction-tuned model usually helps; {retry}."
                )
            }
            (ErrorKind::ProviderCommand, _) => format!(
                "The command-line agent failed (see the message); run it by hand to see why, {retry}."
            ),
            (ErrorKind::PlanInvalid | ErrorKind::ToolFailed, _) => format!(
                "The planner could not produce a plan whose tools succeed. Review the plan below, add a steering note (`novel tick --note \"…\"`) or fix the memory record it trips on, {retry}."
            ),
            (ErrorKind::ProseRejected, _) => format!(
                "The writer model returned no usable scene (see the message). Check the profile's max output tokens and the model, add a steering note if the scene is hard to write, {retry}. A draft in this file can be kept as it is: novel tick --keep"
            ),
            (ErrorKind::Store, _) => format!(
                "The novel's database could not be read or written. Check that the disk is not full and the folder is writable, {retry}."
            ),
            (ErrorKind::BudgetReached, _) => "The run paused before a call that would pass the spending limit (see the message); the story is unchanged. Raise or remove the limit in novel.toml's [budget] (or pass a larger --max-tokens / --max-cost), then run again.".to_string(),
            (ErrorKind::Prompt, _) => format!(
                "A prompt could not be built from the novel's settings. Check novel.toml (`novel status` names problems), {retry}."
            ),
            (
                ErrorKind::Cancelled | ErrorKind::Rejected | ErrorKind::Setup | ErrorKind::Other,
                _,
            ) => "Nothing to repair: the story is unchanged.".to_string(),
        }
    }

    /// This error, at `stage`.
    pub fn at(self, stage: Stage) -> Failure {
        Failure { stage, error: self }
    }
}

fn llm_kind(e: &LlmError) -> ErrorKind {
    match e {
        LlmError::Auth { .. } => ErrorKind::ProviderAuth,
        LlmError::NotFound { .. } => ErrorKind::ProviderNotFound,
        LlmError::RateLimited { .. } => ErrorKind::ProviderRateLimited,
        LlmError::Server { .. } => ErrorKind::ProviderServer,
        LlmError::BadRequest { .. } => ErrorKind::ProviderBadRequest,
        LlmError::Connect { .. } => ErrorKind::ProviderUnreachable,
        LlmError::Timeout { .. } => ErrorKind::ProviderTimeout,
        LlmError::StreamCut { .. } => ErrorKind::ProviderStreamCut,
        LlmError::InvalidResponse { .. } => ErrorKind::ProviderInvalidResponse,
        LlmError::StructuredOutput { .. } => ErrorKind::ProviderStructuredOutput,
        LlmError::Command { .. } => ErrorKind::ProviderCommand,
        LlmError::Config(_) => ErrorKind::ProviderConfig,
        LlmError::LimitReached { .. } => ErrorKind::BudgetReached,
    }
}

/// A step's failure and the stage it happened in.
#[derive(Debug)]
pub struct Failure {
    pub stage: Stage,
    pub error: StepError,
}

/// `.at(stage)` on any result whose error converts into a [`StepError`].
pub trait AtStage<T> {
    fn at(self, stage: Stage) -> Result<T, Failure>;
}

impl<T, E: Into<StepError>> AtStage<T> for Result<T, E> {
    fn at(self, stage: Stage) -> Result<T, Failure> {
        self.map_err(|e| e.into().at(stage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_fits_the_failure() {
        let bad_extraction = StepError::Llm(LlmError::StructuredOutput {
            errors: vec!["/tension: 30 is greater than 10".into()],
            completions: vec![],
        });
        let advice = bad_extraction.advice(Stage::Extracting);
        assert!(advice.contains("memory changes"), "{advice}");
        assert!(!advice.contains("server is running"), "{advice}");
        let down = StepError::Llm(LlmError::Config("x".into())).advice(Stage::Writing);
        assert!(down.contains("provider profile"), "{down}");
        let store = StepError::Store(StoreError::NotFound("x".into())).advice(Stage::Committing);
        assert!(store.contains("disk"), "{store}");
    }
}
