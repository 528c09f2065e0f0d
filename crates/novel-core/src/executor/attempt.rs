//! One attempt at one action: wait out the backoff, then run the tool under the per-attempt
//! timeout, turning an elapsed timeout into a transient failure.

use std::time::Duration;

use serde_json::Value;

use super::action::{ActionInputs, ActionRunner, ExecAction, FailureKind};

/// Why an attempt produced no output.
#[derive(Debug, Clone)]
pub(super) struct AttemptFailure {
    pub kind: FailureKind,
    pub message: String,
    pub timed_out: bool,
}

/// What the scheduler gets back from an attempt future.
pub(super) struct AttemptDone {
    pub index: usize,
    pub attempt: u32,
    pub outcome: Result<Value, AttemptFailure>,
}

/// Everything an attempt needs; owned so the future borrows only the runner and the action.
pub(super) struct AttemptSpec {
    pub index: usize,
    pub attempt: u32,
    pub inputs: ActionInputs,
    pub delay: Duration,
    pub timeout: Duration,
}

pub(super) async fn run_attempt<R: ActionRunner>(
    runner: &R,
    action: &ExecAction,
    spec: AttemptSpec,
) -> AttemptDone {
    if !spec.delay.is_zero() {
        tokio::time::sleep(spec.delay).await;
    }
    tracing::debug!(action = %action.id, tool = %action.tool, attempt = spec.attempt, "attempt started");
    let outcome = match tokio::time::timeout(spec.timeout, runner.run(action, &spec.inputs)).await {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(failure)) => Err(AttemptFailure {
            kind: failure.kind,
            message: failure.message,
            timed_out: false,
        }),
        Err(_) => Err(AttemptFailure {
            kind: FailureKind::Transient,
            message: format!("tool exceeded {} ms timeout", spec.timeout.as_millis()),
            timed_out: true,
        }),
    };
    AttemptDone {
        index: spec.index,
        attempt: spec.attempt,
        outcome,
    }
}
