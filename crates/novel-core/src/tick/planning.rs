//! The plan and act steps: ask the planner for a plan (validated against the schema, the tool
//! registry and the story's ids; one repair call inside), run its tools in a transaction, and
//! when the plan is refused or its tools fail, replan with the reasons as a list — a bounded
//! number of times, with tools that keep failing taken out of the catalog. The transaction the
//! successful tools ran in is handed on: the rest of the tick reads and writes through it.

use std::time::Instant;

use novel_llm::LlmError;
use rusqlite::Transaction;
use serde_json::Value;

use super::error::{AtStage, Failure, StepError};
use super::events::{Stage, TickEvent};
use super::requests;
use super::review::PlanVerdict;
use super::runner::RegistryRunner;
use super::state::TickRun;
use crate::config::Role;
use crate::executor::{self, ExecutionReport, HealthBook};
use crate::model::Step;
use crate::plan::{Known, Mending, Named, Plan, mend_plan, validate_plan};
use crate::prompts::ReplanFeedback;
use crate::store::{self, Recorder, Store, StoreError};
use crate::tools::{ToolContext, ToolRegistry};

/// A plan whose tools succeeded, the transaction holding what they did, and the recorder that
/// captures everything the tick changes for the story's history.
pub(super) struct Acted<'s> {
    pub plan: Plan,
    pub report: ExecutionReport,
    pub tx: Transaction<'s>,
    pub recorder: Recorder<'s>,
}

/// What one planning round ended with.
enum Round<'s> {
    Acted(Box<Acted<'s>>),
    /// The plan was refused or its tools failed; the reasons go back to the planner.
    Retry(Vec<String>, Stage),
}

pub(super) async fn plan_and_act<'s>(
    run: &mut TickRun<'_>,
    store: &'s Store,
) -> Result<Acted<'s>, Failure> {
    run.stage(Stage::Gathering);
    let all_tools = ToolRegistry::standard();
    let attempts = run.options.max_plan_attempts.max(1);
    let mut feedback = ReplanFeedback::default();
    for attempt in 1..=attempts {
        let health = run.options.health_snapshot();
        let disabled = health.disabled();
        let registry = all_tools.without(&disabled);
        feedback.disabled_tools = disabled;
        feedback.degraded_tools = health.degraded();
        let mending = mending_at(attempt, attempts);
        let problems = match round(run, store, &registry, &feedback, mending).await? {
            Round::Acted(acted) => return Ok(*acted),
            Round::Retry(problems, _) if attempt < attempts => problems,
            Round::Retry(problems, Stage::Tools) => {
                return Err(StepError::ToolsFailed(problems.join("; ")).at(Stage::Tools));
            }
            Round::Retry(problems, stage) => {
                return Err(StepError::PlanInvalid { attempts, problems }.at(stage));
            }
        };
        feedback.problems = problems;
    }
    unreachable!("the last attempt returns")
}

/// Plans without running anything: the planner's plan (replanned on refusal like a tick's),
/// for a writer who wants to see it first.
pub(super) async fn plan_alone(run: &mut TickRun<'_>, store: &Store) -> Result<Plan, Failure> {
    run.stage(Stage::Gathering);
    let registry = ToolRegistry::standard();
    let attempts = run.options.max_plan_attempts.max(1);
    let mut feedback = ReplanFeedback::default();
    for attempt in 1..=attempts {
        let mending = mending_at(attempt, attempts);
        match propose(run, store, &registry, &feedback, mending).await? {
            Ok(plan) => return Ok(plan),
            Err(problems) if attempt < attempts => feedback.problems = problems,
            Err(problems) => {
                return Err(StepError::PlanInvalid { attempts, problems }.at(Stage::Planning));
            }
        }
    }
    unreachable!("the last attempt returns")
}

/// Names are resolved to ids on every attempt; only the last one drops what still names
/// nothing, so a model that can repair its plan gets the chance first.
fn mending_at(attempt: u32, attempts: u32) -> Mending {
    if attempt >= attempts {
        Mending::Salvage
    } else {
        Mending::Names
    }
}

async fn round<'s>(
    run: &mut TickRun<'_>,
    store: &'s Store,
    registry: &ToolRegistry,
    feedback: &ReplanFeedback,
    mending: Mending,
) -> Result<Round<'s>, Failure> {
    let plan = match propose(run, store, registry, feedback, mending).await? {
        Ok(plan) => plan,
        Err(problems) => return Ok(Round::Retry(problems, Stage::Planning)),
    };
    let plan = review_plan(run, store, registry, plan).await?;
    run.partial.plan = serde_json::to_value(&plan).ok();
    run.emit(TickEvent::Planned { plan: plan.clone() });
    act(run, store, registry, plan).await
}

/// Asks for a plan; `Ok(Err(problems))` when the model's plans were refused.
async fn propose(
    run: &mut TickRun<'_>,
    store: &Store,
    registry: &ToolRegistry,
    feedback: &ReplanFeedback,
    mending: Mending,
) -> Result<Result<Plan, Vec<String>>, Failure> {
    let gathering = Instant::now();
    let request = requests::planner(
        store.conn(),
        &run.config,
        &run.retrieval,
        registry,
        run.options.steering.as_deref(),
        feedback,
    )
    .await
    .at(Stage::Gathering)?;
    run.time(Step::Gather, gathering);
    run.context_used.planner = request.sections;
    run.stage(Stage::Planning);
    let max_actions = run.config.generation.max_tools_per_tick;
    let validating = Instant::now();
    let known = known_to(store.conn(), registry).at(Stage::Planning)?;
    let validator = plan_validator(registry, max_actions, known.clone(), mending);
    let spent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let clock_in = spent.clone();
    let validator = move |v: &Value| {
        let t = Instant::now();
        let verdict = validator(v);
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        clock_in.fetch_add(ns, std::sync::atomic::Ordering::Relaxed);
        verdict
    };
    run.time(Step::Validate, validating);
    let started = Instant::now();
    let answer =
        novel_llm::complete_structured(&*run.models.planner, &request.request, &validator).await;
    run.time(Step::Planning, started);
    run.add_time(
        Step::Validate,
        std::time::Duration::from_nanos(spent.load(std::sync::atomic::Ordering::Relaxed)),
    );
    match answer {
        Ok(s) => {
            for c in &s.completions {
                run.record_usage(Role::Planner, c);
            }
            if !s.repaired_locally.is_empty() {
                run.note(format!(
                    "the plan was repaired locally: {}",
                    s.repaired_locally.join("; ")
                ));
            }
            if s.repaired {
                run.note("the plan was invalid and repaired with a second call");
            }
            let (value, mended) = mend_plan(&s.value, &known, mending);
            for note in mended {
                run.note(note);
            }
            let plan: Plan = serde_json::from_value(value)
                .map_err(|e| StepError::Prompt(format!("a validated plan did not parse: {e}")))
                .at(Stage::Planning)?;
            Ok(Ok(plan))
        }
        Err(LlmError::StructuredOutput {
            errors,
            completions,
        }) => {
            // A rejected plan still cost its calls; the tick's usage must show them.
            for c in &completions {
                run.record_usage(Role::Planner, c);
            }
            Ok(Err(errors))
        }
        Err(e) => Err(StepError::from(e).at(Stage::Planning)),
    }
}

/// In review mode, the writer accepts, edits or rejects the plan before its tools run. An edited
/// plan is validated like the planner's; one that does not validate fails the tick, naming why.
async fn review_plan(
    run: &mut TickRun<'_>,
    store: &Store,
    registry: &ToolRegistry,
    plan: Plan,
) -> Result<Plan, Failure> {
    let Some(reviewer) = run.options.reviewer.clone() else {
        return Ok(plan);
    };
    run.emit(TickEvent::AwaitingPlanReview { plan: plan.clone() });
    match reviewer.0.review_plan(run.tick, &plan).await {
        PlanVerdict::Accept => Ok(plan),
        PlanVerdict::Reject => Err(StepError::Rejected.at(Stage::Planning)),
        PlanVerdict::Edit { plan: edited } => {
            let max_actions = run.config.generation.max_tools_per_tick;
            let known = known_to(store.conn(), registry).at(Stage::Planning)?;
            let validate = plan_validator(registry, max_actions, known, Mending::Names);
            let value = serde_json::to_value(&edited)
                .map_err(|e| StepError::Prompt(e.to_string()))
                .at(Stage::Planning)?;
            if let Err(problems) = validate(&value) {
                return Err(StepError::PlanInvalid {
                    attempts: 1,
                    problems: problems
                        .into_iter()
                        .map(|p| format!("your edited plan: {p}"))
                        .collect(),
                }
                .at(Stage::Planning));
            }
            run.note("the writer edited the plan in review");
            Ok(edited)
        }
    }
}

/// Runs the plan's tools in a new transaction; keeps it when they succeed.
async fn act<'s>(
    run: &mut TickRun<'_>,
    store: &'s Store,
    registry: &ToolRegistry,
    plan: Plan,
) -> Result<Round<'s>, Failure> {
    run.stage(Stage::Tools);
    let started = Instant::now();
    let tx = store.begin().at(Stage::Tools)?;
    let recorder = Recorder::start(store.conn()).at(Stage::Tools)?;
    let runner = RegistryRunner {
        tx: &tx,
        registry,
        ctx: ToolContext {
            tick: run.tick,
            retrieval: Some(&run.retrieval),
        },
    };
    let mut exec_config = run.options.executor.clone();
    exec_config.soft_action_limit = run.config.generation.max_tools_per_tick as usize;
    let mut health: HealthBook = run.options.health_snapshot();
    let outcome = executor::execute(&plan.exec_actions(), &runner, &mut health, &exec_config).await;
    run.options.store_health(health);
    run.time(Step::Tools, started);
    let report = match outcome {
        Ok(report) => report,
        Err(e) => {
            let problem =
                format!("the plan could not run: {e}; fix the action ids and dependencies");
            return Ok(Round::Retry(vec![problem], Stage::Tools));
        }
    };
    for r in &report.results {
        run.emit(TickEvent::ToolFinished {
            id: r.id.clone(),
            tool: r.tool.clone(),
            ok: r.error.is_none(),
            detail: r.error.clone().unwrap_or_default(),
        });
    }
    run.partial.execution = serde_json::to_value(&report).ok();
    if report.success {
        return Ok(Round::Acted(Box::new(Acted {
            plan,
            report,
            tx,
            recorder,
        })));
    }
    drop(recorder);
    drop(tx); // roll back whatever the failed plan's tools did
    Ok(Round::Retry(tool_problems(&report), Stage::Tools))
}

fn tool_problems(report: &ExecutionReport) -> Vec<String> {
    report
        .results
        .iter()
        .filter_map(|r| {
            r.error
                .as_ref()
                .map(|e| format!("action {} ({}) failed: {e}", r.id, r.tool))
        })
        .collect()
}

/// What a plan may name: the story's characters and places with their names, the open beats,
/// the tools.
fn known_to(conn: &rusqlite::Connection, registry: &ToolRegistry) -> Result<Known, StoreError> {
    Ok(Known {
        characters: store::list_characters(conn)?
            .into_iter()
            .map(|c| Named {
                id: c.id,
                name: c.name,
                aliases: c.aliases,
            })
            .collect(),
        locations: store::list_locations(conn)?
            .into_iter()
            .map(|l| Named {
                id: l.id,
                name: l.name,
                aliases: l.aliases,
            })
            .collect(),
        beats: store::list_beats(conn)?
            .into_iter()
            .filter(|b| b.status == crate::model::BeatStatus::Open)
            .map(|b| b.id)
            .collect(),
        tools: registry.names(),
        registry: Some(registry.clone()),
    })
}

/// Plan validation as the structured-output layer sees it: the plan mended as far as
/// `mending` allows (see [`mend_plan`]), then schema, registry, and ids that must name
/// existing records.
fn plan_validator(
    registry: &ToolRegistry,
    max_actions: u32,
    known: Known,
    mending: Mending,
) -> impl Fn(&Value) -> Result<(), Vec<String>> + Send + Sync + use<> {
    let ids = |named: &[Named]| -> Vec<String> { named.iter().map(|n| n.id.clone()).collect() };
    let characters = ids(&known.characters);
    let locations = ids(&known.locations);
    let open_beats = known.beats.clone();
    let registry = registry.clone();
    move |value: &Value| {
        let (value, _) = mend_plan(value, &known, mending);
        let plan = validate_plan(&value, &registry, max_actions).map_err(|e| e.messages())?;
        let mut problems = Vec::new();
        if let Some(p) = plan.pov_character.as_deref().filter(|p| !p.is_empty())
            && !characters.iter().any(|c| c == p)
        {
            problems.push(format!(
                "`pov_character` {p} does not exist; known characters: {}",
                characters.join(", ")
            ));
        }
        if let Some(l) = plan.target_location.as_deref().filter(|l| !l.is_empty())
            && !locations.iter().any(|x| x == l)
        {
            problems.push(format!(
                "`target_location` {l} does not exist; use one of {} or null with a location.generate action",
                locations.join(", ")
            ));
        }
        if let Some(b) = plan.beat.as_deref().filter(|b| !b.is_empty())
            && !open_beats.iter().any(|x| x == b)
        {
            problems.push(format!(
                "`beat` {b} is not an open beat of the outline; use {} or null",
                if open_beats.is_empty() {
                    "null (there are none)".to_string()
                } else {
                    open_beats.join(", ")
                }
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

impl TickRun<'_> {
    /// The scene's context: the one the writer gathered, else gathered now.
    pub fn scene_base(
        &self,
        acted: &Acted<'_>,
    ) -> Result<crate::context::StoryContext, super::error::StepError> {
        match &self.scene_context {
            Some(ctx) => Ok(ctx.clone()),
            None => super::requests::scene_context(&acted.tx, &self.config, &acted.plan),
        }
    }
}
