//! Tool health across a run of ticks: each tool is healthy, degraded, temporarily or
//! permanently failing, and a permanently failing tool is disabled for the rest of the session
//! so the replan loop can steer the planner away from it.
//!
//! The textbook transitions overlap (a healthy tool that times out is both "a timeout" and "a
//! failure"), so this is how they are read here:
//!
//! - Every failed attempt adds one to the tool's consecutive-failure count; a success resets it
//!   and returns any non-disabled tool to `healthy` (the "degraded → success" and
//!   "temporaryFailure → retry success" edges).
//! - A *transient* failure (timeout, busy) moves a healthy tool to `temporaryFailure`. A
//!   transient failure that uses up an action's last attempt while the tool is already in
//!   `temporaryFailure` is "max retries exceeded" and disables the tool. With a single-attempt
//!   policy that takes two such failures, because nothing was retried after the first.
//! - A *permanent-kind* failure (bad arguments, a missing entity) is usually the plan's fault,
//!   not the tool's, so it never disables a tool by itself: it only counts. The third
//!   consecutive failure of this kind moves a healthy or temporarily failing tool to `degraded`.
//! - Once `degraded`, any three further failures, of either kind, disable the tool.
//! - `permanentFailure` is sticky: only a session restart, i.e. a fresh [`HealthBook`], clears it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::action::FailureKind;

/// Consecutive failures that degrade a tool.
pub const DEGRADE_AFTER: u32 = 3;
/// Further failures that disable a degraded tool.
pub const DISABLE_AFTER_DEGRADED: u32 = 3;

/// The health of one tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ToolHealth {
    #[default]
    Healthy,
    Degraded,
    TemporaryFailure,
    PermanentFailure,
}

/// What the book remembers about one tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolRecord {
    pub state: ToolHealth,
    pub consecutive_failures: u32,
    pub failures_while_degraded: u32,
}

/// Health of every tool that has run in this session; tools never seen are healthy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HealthBook {
    tools: BTreeMap<String, ToolRecord>,
}

impl HealthBook {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn state(&self, tool: &str) -> ToolHealth {
        self.tools.get(tool).map(|r| r.state).unwrap_or_default()
    }

    pub fn record(&self, tool: &str) -> Option<&ToolRecord> {
        self.tools.get(tool)
    }

    pub fn is_disabled(&self, tool: &str) -> bool {
        self.state(tool) == ToolHealth::PermanentFailure
    }

    /// Tools in `permanentFailure`, sorted by name: the tools the planner is told are unavailable.
    pub fn disabled(&self) -> Vec<String> {
        self.tools
            .iter()
            .filter(|(_, r)| r.state == ToolHealth::PermanentFailure)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Tools in `degraded`, sorted by name: the planner is told to use them only when the scene
    /// needs them, and the executor gives them a longer timeout.
    pub fn degraded(&self) -> Vec<String> {
        self.tools
            .iter()
            .filter(|(_, r)| r.state == ToolHealth::Degraded)
            .map(|(name, _)| name.clone())
            .collect()
    }

    pub fn record_success(&mut self, tool: &str) {
        let record = self.tools.entry(tool.to_owned()).or_default();
        if record.state == ToolHealth::PermanentFailure {
            return;
        }
        record.consecutive_failures = 0;
        record.failures_while_degraded = 0;
        transition(tool, record, ToolHealth::Healthy);
    }

    /// Records one failed attempt. `retries_exhausted` says it was the action's last attempt.
    pub fn record_failure(&mut self, tool: &str, kind: FailureKind, retries_exhausted: bool) {
        use FailureKind::{Permanent, Transient};
        use ToolHealth::{Degraded, Healthy, PermanentFailure, TemporaryFailure};

        let record = self.tools.entry(tool.to_owned()).or_default();
        record.consecutive_failures = record.consecutive_failures.saturating_add(1);
        let next = match (record.state, kind) {
            (PermanentFailure, _) => PermanentFailure,
            (Degraded, _) => {
                record.failures_while_degraded += 1;
                if record.failures_while_degraded >= DISABLE_AFTER_DEGRADED {
                    PermanentFailure
                } else {
                    Degraded
                }
            }
            (TemporaryFailure, Transient) if retries_exhausted => PermanentFailure,
            (Healthy | TemporaryFailure, Transient) => TemporaryFailure,
            (state @ (Healthy | TemporaryFailure), Permanent) => {
                if record.consecutive_failures >= DEGRADE_AFTER {
                    record.failures_while_degraded = 0;
                    Degraded
                } else {
                    state
                }
            }
        };
        transition(tool, record, next);
    }
}

fn transition(tool: &str, record: &mut ToolRecord, next: ToolHealth) {
    if record.state == next {
        return;
    }
    if next == ToolHealth::PermanentFailure {
        tracing::warn!(tool, from = ?record.state, "tool disabled for this session");
    } else {
        tracing::info!(tool, from = ?record.state, to = ?next, "tool health changed");
    }
    record.state = next;
}
