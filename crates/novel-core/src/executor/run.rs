//! The scheduler: starts every ready action up to the
//! concurrency limit, settles each attempt (retry, success or final failure), updates tool
//! health, stops launching after a required failure and enforces the plan deadline.
//!
//! All attempt futures live in one `FuturesUnordered` polled on the caller's task, so runners
//! need not be `Send` and health bookkeeping needs no lock: only this loop touches it, between
//! polls.

use std::collections::HashSet;
use std::time::Duration;

use futures::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use tokio::time::Instant;

use super::action::{ActionInputs, ActionRunner, ExecAction, FailureKind};
use super::attempt::{AttemptDone, AttemptSpec, run_attempt};
use super::config::ExecutorConfig;
use super::error::ExecutorError;
use super::graph::PlanGraph;
use super::health::HealthBook;
use super::report::{ActionResult, ActionState, ExecutionReport};

/// Runs `actions` through `runner`. Validation errors come back as `Err` before any tool runs;
/// everything that happens once running is described by the report.
///
/// A required action that fails for good stops new launches, but actions already in flight,
/// retries included, run to their end: a tool is never abandoned halfway. Only the plan
/// deadline cancels work in flight.
pub async fn execute<R: ActionRunner>(
    actions: &[ExecAction],
    runner: &R,
    health: &mut HealthBook,
    config: &ExecutorConfig,
) -> Result<ExecutionReport, ExecutorError> {
    config.validate()?;
    let graph = PlanGraph::build(actions)?;
    let mut scheduler = Scheduler::new(actions, &graph, config);
    if actions.len() > config.soft_action_limit {
        tracing::warn!(
            actions = actions.len(),
            limit = config.soft_action_limit,
            "plan exceeds the soft action limit"
        );
        scheduler.warnings.push(format!(
            "plan has {} actions, more than the soft limit of {}",
            actions.len(),
            config.soft_action_limit
        ));
    }
    scheduler.drive(runner, health).await;
    Ok(scheduler.into_report(health))
}

enum Progress {
    Pending,
    Running { since: Instant, attempt: u32 },
    Done,
}

struct Scheduler<'a> {
    actions: &'a [ExecAction],
    graph: &'a PlanGraph,
    config: &'a ExecutorConfig,
    started: Instant,
    progress: Vec<Progress>,
    results: Vec<ActionResult>,
    running: usize,
    failed_required: Option<usize>,
    timed_out: bool,
    warnings: Vec<String>,
}

impl<'a> Scheduler<'a> {
    fn new(actions: &'a [ExecAction], graph: &'a PlanGraph, config: &'a ExecutorConfig) -> Self {
        let results = actions
            .iter()
            .map(|a| ActionResult {
                id: a.id.clone(),
                tool: a.tool.clone(),
                args: a.args.clone(),
                state: ActionState::NotRun,
                output: None,
                error: None,
                attempts: 0,
                duration_ms: 0,
            })
            .collect();
        Self {
            actions,
            graph,
            config,
            started: Instant::now(),
            progress: actions.iter().map(|_| Progress::Pending).collect(),
            results,
            running: 0,
            failed_required: None,
            timed_out: false,
            warnings: Vec::new(),
        }
    }

    async fn drive<R: ActionRunner>(&mut self, runner: &R, health: &mut HealthBook) {
        let deadline = self.started + self.config.plan_timeout;
        let actions = self.actions;
        let mut in_flight = FuturesUnordered::new();
        loop {
            for spec in self.launch_ready(health) {
                in_flight.push(run_attempt(runner, &actions[spec.index], spec));
            }
            if in_flight.is_empty() {
                break;
            }
            match tokio::time::timeout_at(deadline, in_flight.next()).await {
                Ok(Some(done)) => {
                    if let Some(retry) = self.settle(done, health) {
                        in_flight.push(run_attempt(runner, &actions[retry.index], retry));
                    }
                }
                Ok(None) => break,
                Err(_) => {
                    // Dropping the futures cancels the attempts still running.
                    drop(in_flight);
                    self.cut_off_in_flight();
                    break;
                }
            }
        }
    }

    /// Starts ready actions in topological order (ties: input order) while slots are free;
    /// an action whose tool is disabled fails on the spot without taking a slot.
    fn launch_ready(&mut self, health: &HealthBook) -> Vec<AttemptSpec> {
        let mut launches = Vec::new();
        for &index in self.graph.order() {
            if self.failed_required.is_some() || self.running >= self.config.max_concurrency {
                break;
            }
            if !matches!(self.progress[index], Progress::Pending) || !self.dependencies_done(index)
            {
                continue;
            }
            let action = &self.actions[index];
            if health.is_disabled(&action.tool) {
                tracing::warn!(action = %action.id, tool = %action.tool, "skipping action: tool disabled");
                self.conclude(
                    index,
                    ActionState::Failed,
                    None,
                    Some("tool disabled".into()),
                    0,
                );
                continue;
            }
            self.progress[index] = Progress::Running {
                since: Instant::now(),
                attempt: 1,
            };
            self.running += 1;
            launches.push(self.spec(index, 1, Duration::ZERO, health));
        }
        launches
    }

    /// Books an attempt's outcome; returns the retry to start, if any.
    fn settle(&mut self, done: AttemptDone, health: &mut HealthBook) -> Option<AttemptSpec> {
        let index = done.index;
        let tool = &self.actions[index].tool;
        let failure = match done.outcome {
            Ok(output) => {
                health.record_success(tool);
                self.conclude(
                    index,
                    ActionState::Succeeded,
                    Some(output),
                    None,
                    done.attempt,
                );
                return None;
            }
            Err(failure) => failure,
        };
        let exhausted = self.config.retry.exhausted(done.attempt);
        health.record_failure(tool, failure.kind, exhausted);
        tracing::warn!(
            action = %self.actions[index].id,
            tool = %tool,
            attempt = done.attempt,
            kind = ?failure.kind,
            error = %failure.message,
            "attempt failed"
        );
        if failure.kind == FailureKind::Transient && !exhausted && !health.is_disabled(tool) {
            let next = done.attempt + 1;
            if let Progress::Running { attempt, .. } = &mut self.progress[index] {
                *attempt = next;
            }
            let delay = self.config.retry.delay_after(done.attempt);
            return Some(self.spec(index, next, delay, health));
        }
        let state = if failure.timed_out {
            ActionState::TimedOut
        } else {
            ActionState::Failed
        };
        self.conclude(index, state, None, Some(failure.message), done.attempt);
        None
    }

    /// The plan deadline passed: whatever was in flight has been cancelled.
    fn cut_off_in_flight(&mut self) {
        self.timed_out = true;
        let message = format!(
            "plan exceeded {} ms timeout",
            self.config.plan_timeout.as_millis()
        );
        tracing::warn!("{message}");
        for index in 0..self.actions.len() {
            if let Progress::Running { attempt, .. } = self.progress[index] {
                self.conclude(
                    index,
                    ActionState::TimedOut,
                    None,
                    Some(message.clone()),
                    attempt,
                );
            }
        }
        self.warnings.push(message);
    }

    fn conclude(
        &mut self,
        index: usize,
        state: ActionState,
        output: Option<Value>,
        error: Option<String>,
        attempts: u32,
    ) {
        let duration = match self.progress[index] {
            Progress::Running { since, .. } => {
                self.running -= 1;
                since.elapsed()
            }
            Progress::Pending | Progress::Done => Duration::ZERO,
        };
        self.progress[index] = Progress::Done;
        let result = &mut self.results[index];
        result.state = state;
        result.output = output;
        result.error = error;
        result.attempts = attempts;
        result.duration_ms = millis(duration);
        let action = &self.actions[index];
        if state != ActionState::Succeeded
            && action.required
            && self.failed_required.is_none()
            && !self.timed_out
        {
            tracing::warn!(action = %action.id, tool = %action.tool, "required action failed; stopping the plan");
            self.failed_required = Some(index);
        }
    }

    fn dependencies_done(&self, index: usize) -> bool {
        self.graph
            .dependencies(index)
            .iter()
            .all(|&d| matches!(self.progress[d], Progress::Done))
    }

    fn spec(
        &self,
        index: usize,
        attempt: u32,
        delay: Duration,
        health: &HealthBook,
    ) -> AttemptSpec {
        let inputs: ActionInputs = self
            .graph
            .dependencies(index)
            .iter()
            .map(|&d| (self.actions[d].id.clone(), self.results[d].output.clone()))
            .collect();
        AttemptSpec {
            index,
            attempt,
            inputs,
            delay,
            timeout: self
                .config
                .attempt_timeout(health.state(&self.actions[index].tool)),
        }
    }

    fn into_report(mut self, health: &HealthBook) -> ExecutionReport {
        let doomed: HashSet<usize> = self
            .failed_required
            .map(|f| self.graph.transitive_dependents(f))
            .unwrap_or_default();
        for index in 0..self.actions.len() {
            if !matches!(self.progress[index], Progress::Pending) {
                continue;
            }
            let reason = match self.failed_required {
                Some(failed) if doomed.contains(&index) => {
                    format!("dependency failed: {}", self.actions[failed].id)
                }
                _ if self.timed_out => "plan timed out".to_owned(),
                _ => "plan stopped".to_owned(),
            };
            let result = &mut self.results[index];
            result.state = ActionState::Skipped;
            result.error = Some(reason);
        }
        ExecutionReport {
            success: self.failed_required.is_none() && !self.timed_out,
            results: self.results,
            failed_required: self.failed_required.map(|i| self.actions[i].id.clone()),
            disabled_tools: health.disabled(),
            warnings: self.warnings,
            duration_ms: millis(self.started.elapsed()),
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
