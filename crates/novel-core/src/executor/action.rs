//! What the executor runs and the contract with whoever actually runs it: an [`ExecAction`]
//! (one tool call of a plan), the [`ActionRunner`] trait the engine implements over its tool
//! registry, and the [`ToolFailure`] a runner reports, classified so the executor knows whether
//! retrying can help.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tool call of a plan, identified by an id unique within the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecAction {
    pub id: String,
    pub tool: String,
    pub args: Value,
    /// A required action that fails for good stops the whole plan.
    pub required: bool,
    /// Ids of actions whose outputs this one consumes; they complete before it starts.
    #[serde(default)]
    pub dependencies: Vec<String>,
}

/// Outputs of an action's dependencies, by dependency id. `None` marks an optional dependency
/// that failed: dependents receive a null input and carry on.
pub type ActionInputs = BTreeMap<String, Option<Value>>;

/// Whether a failure is worth retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// May succeed on retry: timeouts, a busy resource.
    Transient,
    /// Retrying is pointless: bad arguments, a missing entity.
    Permanent,
}

/// A runner's report that an action did not produce an output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFailure {
    pub kind: FailureKind,
    pub message: String,
}

impl ToolFailure {
    pub fn transient(message: impl Into<String>) -> Self {
        Self {
            kind: FailureKind::Transient,
            message: message.into(),
        }
    }

    pub fn permanent(message: impl Into<String>) -> Self {
        Self {
            kind: FailureKind::Permanent,
            message: message.into(),
        }
    }
}

impl fmt::Display for ToolFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Runs one action.
///
/// The returned future need not be `Send`: the executor polls every runner future on the
/// caller's task (no `tokio::spawn`), because the engine's tools share one SQLite transaction
/// that is `!Sync`. Concurrency is therefore interleaving on one task, which is what lets
/// independent tools overlap their waits without sharing the connection across threads.
pub trait ActionRunner {
    /// `inputs` holds the outputs of this action's dependencies (see [`ActionInputs`]).
    fn run(
        &self,
        action: &ExecAction,
        inputs: &ActionInputs,
    ) -> impl Future<Output = Result<Value, ToolFailure>>;
}
