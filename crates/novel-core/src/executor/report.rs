//! What an execution produced: one [`ActionResult`] per action, in input order, and the
//! plan-level verdict the tick and the replan loop act on. Serializable because it is stored
//! with the tick and written into `errors/error_NNN.json` when a tick stops.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where an action ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionState {
    Succeeded,
    Failed,
    /// Its last attempt exceeded the tool timeout, or the plan deadline cut it off.
    TimedOut,
    /// Never started: a dependency failed, or the plan stopped or timed out first.
    Skipped,
    /// The state before the scheduler decides; a finished report never contains it.
    NotRun,
}

/// The outcome of one action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionResult {
    pub id: String,
    pub tool: String,
    pub args: Value,
    pub state: ActionState,
    pub output: Option<Value>,
    /// Why it failed or was skipped.
    pub error: Option<String>,
    /// Attempts started; 0 for an action that never ran.
    pub attempts: u32,
    /// From the first attempt's start to the outcome, backoff waits included.
    pub duration_ms: u64,
}

/// The outcome of a whole plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecutionReport {
    /// No required action failed and the plan deadline held.
    pub success: bool,
    /// One per action, in the input order.
    pub results: Vec<ActionResult>,
    /// The required action whose failure stopped the plan.
    pub failed_required: Option<String>,
    /// Tools in `permanentFailure` after this execution, to disable when replanning.
    pub disabled_tools: Vec<String>,
    pub warnings: Vec<String>,
    pub duration_ms: u64,
}

impl ExecutionReport {
    /// The report of a plan with no actions: a scene that came without running tools (adopted
    /// from a manuscript, written from the writer's note).
    pub fn nothing_run() -> ExecutionReport {
        ExecutionReport {
            success: true,
            results: Vec::new(),
            failed_required: None,
            disabled_tools: Vec::new(),
            warnings: Vec::new(),
            duration_ms: 0,
        }
    }

    pub fn result(&self, id: &str) -> Option<&ActionResult> {
        self.results.iter().find(|r| r.id == id)
    }
}
