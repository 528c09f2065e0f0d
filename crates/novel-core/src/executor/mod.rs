//! The plan executor (docs/ARCHITECTURE.md, "Plans and the executor"): runs a list of tool actions in dependency
//! order through a caller-supplied [`ActionRunner`], with bounded concurrency, per-attempt
//! timeouts, retries with exponential backoff, required vs optional actions, tool health
//! tracking and a whole-plan deadline. It knows nothing of the concrete tools: the engine's tool
//! registry plugs in as the runner.

mod action;
mod attempt;
mod config;
mod error;
mod graph;
mod health;
mod refs;
mod report;
mod retry;
mod run;

pub use action::{ActionInputs, ActionRunner, ExecAction, FailureKind, ToolFailure};
pub use config::ExecutorConfig;
pub use error::ExecutorError;
pub use graph::PlanGraph;
pub use health::{DEGRADE_AFTER, DISABLE_AFTER_DEGRADED, HealthBook, ToolHealth, ToolRecord};
pub use refs::{Reference, parse_reference, references_in, resolve as resolve_references};
pub use report::{ActionResult, ActionState, ExecutionReport};
pub use retry::RetryPolicy;
pub use run::execute;

#[cfg(test)]
mod tests;
