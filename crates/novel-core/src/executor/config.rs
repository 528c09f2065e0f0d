//! Bounds of one execution: concurrency, per-attempt and whole-plan timeouts,
//! retries, and the soft limit on actions per plan (the plan schema also caps it at the novel's tools-per-tick limit).

use std::time::Duration;

use super::error::ExecutorError;
use super::health::ToolHealth;
use super::retry::RetryPolicy;

/// How much longer a degraded tool's attempt may take: a slow tool is given time rather than
/// pushed into failing for good.
pub const DEGRADED_TIMEOUT_FACTOR: u32 = 2;

/// How the executor runs a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecutorConfig {
    /// Most actions in flight at once (backoff waits included, since they hold their slot).
    pub max_concurrency: usize,
    /// Bound on one attempt; exceeding it is a transient failure.
    pub tool_timeout: Duration,
    /// Bound on the whole execution; exceeding it cancels what is in flight.
    pub plan_timeout: Duration,
    pub retry: RetryPolicy,
    /// More actions than this still run, but the report carries a warning.
    pub soft_action_limit: usize,
}

impl Default for ExecutorConfig {
    fn default() -> Self {
        Self {
            max_concurrency: 4,
            tool_timeout: Duration::from_secs(30),
            plan_timeout: Duration::from_secs(60),
            retry: RetryPolicy::default(),
            soft_action_limit: 3,
        }
    }
}

impl ExecutorConfig {
    /// The bound on one attempt of a tool in `health` state.
    pub fn attempt_timeout(&self, health: ToolHealth) -> Duration {
        match health {
            ToolHealth::Degraded => self.tool_timeout.saturating_mul(DEGRADED_TIMEOUT_FACTOR),
            _ => self.tool_timeout,
        }
    }

    /// Rejects settings under which no action could ever complete.
    pub fn validate(&self) -> Result<(), ExecutorError> {
        let problem = if self.max_concurrency == 0 {
            "max_concurrency must be at least 1"
        } else if self.retry.max_attempts == 0 {
            "retry.max_attempts must be at least 1"
        } else if self.tool_timeout.is_zero() {
            "tool_timeout must be positive"
        } else if self.plan_timeout.is_zero() {
            "plan_timeout must be positive"
        } else {
            return Ok(());
        };
        Err(ExecutorError::InvalidConfig(problem.to_owned()))
    }
}
