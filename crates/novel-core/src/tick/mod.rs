//! One story tick, end to end (DESIGN "The story tick"): gather context → plan (validated,
//! repaired once, replanned with feedback) → run the plan's tools → write (streamed) → check →
//! revise at most once → extract memory updates → commit everything in one transaction → write
//! the scene and plan files. Three LLM calls on the clean path. Any failure rolls the
//! transaction back, records `errors/error_NNN.*`, and leaves the story exactly as it was.

mod cancel;
mod events;
mod extraction;
mod files;
mod lost_items;
mod preview;
mod requests;
mod runner;
mod usage;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use novel_llm::{Completion, LanguageModel, LlmError};
use serde_json::{Value, json};

pub use cancel::CancelToken;
pub use events::{Stage, TickEvent, TickObserver};
pub use extraction::{ApplyReport, Extraction, LoopProgress, RecordChange, RelationshipChange};
pub use files::{error_paths, plan_path, scene_path, write_scene};
pub use preview::{PromptPreview, preview_next, preview_writer};
pub use usage::{RoleUsage, TickUsage};

use crate::clock::{Clock, timestamp};
use crate::evaluate::{self, EvalInput, Finding};
use crate::executor::{ExecutionReport, ExecutorConfig, HealthBook};
use crate::ids::EntityKind;
use crate::memory::{self, EntityUpdate};
use crate::model::{Character, Scene, TickFailure, TickRecord, count_words};
use crate::novel::Novel;
use crate::plan::{Plan, validate_plan};
use crate::schema::SchemaValidator;
use crate::store::{self, StoreError};
use crate::tools::{ToolContext, ToolRegistry};

/// The models a tick talks to; one model may fill every role.
#[derive(Clone)]
pub struct Models {
    pub planner: Arc<dyn LanguageModel>,
    pub writer: Arc<dyn LanguageModel>,
    pub extractor: Arc<dyn LanguageModel>,
}

impl Models {
    pub fn single(model: Arc<dyn LanguageModel>) -> Models {
        Models {
            planner: model.clone(),
            writer: model.clone(),
            extractor: model,
        }
    }
}

#[derive(Debug, Clone)]
pub struct TickOptions {
    /// The writer's steering note for this scene.
    pub steering: Option<String>,
    /// Plans tried before the tick gives up (each may include one repair call).
    pub max_plan_attempts: u32,
    pub executor: ExecutorConfig,
}

impl Default for TickOptions {
    fn default() -> Self {
        TickOptions {
            steering: None,
            max_plan_attempts: 3,
            executor: ExecutorConfig::default(),
        }
    }
}

/// What a committed tick produced.
#[derive(Debug, Clone)]
pub struct TickOutcome {
    pub tick: u32,
    pub scene: Scene,
    pub plan: Plan,
    pub execution: ExecutionReport,
    pub findings: Vec<Finding>,
    pub revised: bool,
    pub applied: ApplyReport,
    pub usage: TickUsage,
    pub files: Vec<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum TickError {
    #[error("tick {tick} failed while {}: {message}\nThe story is unchanged. Details: {}", stage.label(), error_file.display())]
    Failed {
        tick: u32,
        stage: Stage,
        kind: String,
        message: String,
        error_file: PathBuf,
    },
    #[error("tick {tick} was cancelled; the story is unchanged")]
    Cancelled { tick: u32 },
    #[error("{0}")]
    Setup(String),
}

impl TickError {
    pub fn tick(&self) -> Option<u32> {
        match self {
            TickError::Failed { tick, .. } | TickError::Cancelled { tick } => Some(*tick),
            TickError::Setup(_) => None,
        }
    }
}

/// Why a step failed, before it is turned into error files.
#[derive(Debug, thiserror::Error)]
enum StepError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("{0}")]
    Plan(String),
    #[error("{0}")]
    Execution(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot build the prompt: {0}")]
    Prompt(String),
    #[error("cancelled")]
    Cancelled,
}

impl StepError {
    fn kind(&self) -> String {
        match self {
            StepError::Llm(e) => format!("llm.{}", llm_kind(e)),
            StepError::Plan(_) => "plan_invalid".into(),
            StepError::Execution(_) => "tool_failed".into(),
            StepError::Store(_) => "store".into(),
            StepError::Prompt(_) => "prompt".into(),
            StepError::Cancelled => "cancelled".into(),
        }
    }

    fn advice(&self) -> &'static str {
        match self {
            StepError::Llm(
                LlmError::Auth { .. } | LlmError::NotFound { .. } | LlmError::Config(_),
            ) => {
                "Fix the provider profile (see the message), then retry with `novel tick --retry`."
            }
            StepError::Llm(_) => {
                "The model or its server failed. Check that the server is running and reachable, then retry with `novel tick --retry`."
            }
            StepError::Plan(_) | StepError::Execution(_) => {
                "The planner could not produce a plan whose tools succeed. Review the plan below, add a steering note (`novel tick --note \"…\"`) or fix the memory it trips on, then `novel tick --retry`."
            }
            StepError::Store(_) | StepError::Prompt(_) => {
                "The novel's data could not be read or written. Check the disk and novel.toml, then `novel tick --retry`."
            }
            StepError::Cancelled => "Nothing to do: the tick was cancelled.",
        }
    }
}

fn llm_kind(e: &LlmError) -> &'static str {
    match e {
        LlmError::Auth { .. } => "auth",
        LlmError::NotFound { .. } => "not_found",
        LlmError::RateLimited { .. } => "rate_limited",
        LlmError::Server { .. } => "server",
        LlmError::BadRequest { .. } => "bad_request",
        LlmError::Connect { .. } => "connect",
        LlmError::Timeout { .. } => "timeout",
        LlmError::StreamCut { .. } => "stream_cut",
        LlmError::InvalidResponse { .. } => "invalid_response",
        LlmError::StructuredOutput { .. } => "structured_output",
        LlmError::Command { .. } => "command",
        LlmError::Config(_) => "config",
    }
}

/// What the failing attempt had got to, for the error files.
#[derive(Default)]
struct Partial {
    plan: Option<Value>,
    execution: Option<Value>,
}

struct Failure {
    stage: Stage,
    error: StepError,
    partial: Partial,
}

/// Runs one tick on a novel opened for writing.
pub async fn run_tick(
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, TickError> {
    if !novel.is_writable() {
        return Err(TickError::Setup(format!(
            "{} is open read-only; a tick needs to write",
            novel.root().display()
        )));
    }
    let state = novel.state().map_err(|e| TickError::Setup(e.to_string()))?;
    let tick = state.current_tick + 1;
    observer.on_event(TickEvent::Started { tick });
    let started = clock.now();
    let result = tokio::select! {
        biased;
        _ = cancel.cancelled() => Err(Failure { stage: Stage::Gathering, error: StepError::Cancelled, partial: Partial::default() }),
        r = attempt(novel, models, options, observer, tick, clock, cancel) => r,
    };
    match result {
        Ok(outcome) => Ok(outcome),
        Err(Failure {
            error: StepError::Cancelled,
            ..
        }) => Err(TickError::Cancelled { tick }),
        Err(failure) => Err(record_failure(novel, tick, failure, &timestamp(started))),
    }
}

/// Writes `errors/error_NNN.{json,log}` and the failure row; the story tables are untouched.
fn record_failure(novel: &mut Novel, tick: u32, failure: Failure, at: &str) -> TickError {
    let message = failure.error.to_string();
    let kind = failure.error.kind();
    let record = files::ErrorRecord {
        tick,
        timestamp: at.to_string(),
        error: files::ErrorInfo {
            kind: kind.clone(),
            message: message.clone(),
        },
        stage: failure.stage.label().to_string(),
        plan: failure.partial.plan,
        execution: failure.partial.execution,
        instructions: format!(
            "{}\nTo retry: novel tick --retry\nTo skip the failure record: novel tick (a new attempt at tick {tick})",
            failure.error.advice()
        ),
    };
    let root = novel.root().to_path_buf();
    let error_file = match files::write_error(&root, &record) {
        Ok((json, _log)) => json,
        Err(e) => {
            tracing::error!("cannot write the error file: {e}");
            files::error_paths(&root, tick).0
        }
    };
    if let Some(store) = novel.store_mut() {
        let saved = store.transaction().and_then(|tx| {
            store::record_failure(
                &tx,
                &TickFailure {
                    seq: 0,
                    tick,
                    at: at.to_string(),
                    error_type: kind.clone(),
                    message: message.clone(),
                    error_file: error_file.display().to_string(),
                    resolved: false,
                },
            )?;
            tx.commit().map_err(StoreError::from)
        });
        if let Err(e) = saved {
            tracing::error!("cannot record the failure in the database: {e}");
        }
    }
    TickError::Failed {
        tick,
        stage: failure.stage,
        kind,
        message,
        error_file,
    }
}

fn fail(stage: Stage, partial: &Partial) -> impl Fn(StepError) -> Failure + '_ {
    move |error| Failure {
        stage,
        error,
        partial: Partial {
            plan: partial.plan.clone(),
            execution: partial.execution.clone(),
        },
    }
}

async fn attempt(
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    observer: &dyn TickObserver,
    tick: u32,
    clock: &dyn Clock,
    cancel: &CancelToken,
) -> Result<TickOutcome, Failure> {
    let root = novel.root().to_path_buf();
    let config = novel.config().clone();
    let retrieval = novel.retrieval();
    let started_at = timestamp(clock.now());
    let store: &crate::store::Store = novel.store_mut().expect("checked writable by run_tick");
    let mut usage = TickUsage::default();
    let mut timings = serde_json::Map::new();
    let mut partial = Partial::default();
    let full_registry = ToolRegistry::standard();
    let mut health = HealthBook::new();
    let mut feedback: Option<String> = None;

    observer.on_event(TickEvent::Stage {
        stage: Stage::Gathering,
    });
    let mut plan_and_report = None;
    for round in 1..=options.max_plan_attempts.max(1) {
        let registry = full_registry.without(&health.disabled());
        let t = Instant::now();
        observer.on_event(TickEvent::Stage {
            stage: Stage::Planning,
        });
        let request = requests::planner(
            store.conn(),
            &config,
            &retrieval,
            &registry,
            options.steering.as_deref(),
            feedback.as_deref(),
            &health.disabled(),
        )
        .await
        .map_err(fail(Stage::Gathering, &partial))?;
        let validator = plan_validator(store.conn(), &registry)
            .map_err(|e| fail(Stage::Planning, &partial)(e.into()))?;
        let structured =
            novel_llm::complete_structured(&*models.planner, &request, &validator).await;
        elapsed(&mut timings, "planning", t);
        let plan = match structured {
            Ok(s) => {
                for c in &s.completions {
                    record_usage(&mut usage, observer, "planner", c);
                }
                let plan: Plan = serde_json::from_value(s.value)
                    .map_err(|e| fail(Stage::Planning, &partial)(StepError::Plan(e.to_string())))?;
                plan
            }
            Err(LlmError::StructuredOutput {
                errors,
                completions,
            }) if round < options.max_plan_attempts => {
                // A rejected plan still cost its calls; the tick's usage must show them.
                for c in &completions {
                    record_usage(&mut usage, observer, "planner", c);
                }
                feedback = Some(replan_feedback(&errors, &registry));
                continue;
            }
            Err(LlmError::StructuredOutput { errors, .. }) => {
                return Err(fail(Stage::Planning, &partial)(StepError::Plan(format!(
                    "no valid plan after {round} attempts: {}",
                    errors.join("; ")
                ))));
            }
            Err(e) => return Err(fail(Stage::Planning, &partial)(e.into())),
        };
        partial.plan = serde_json::to_value(&plan).ok();
        observer.on_event(TickEvent::Planned { plan: plan.clone() });

        observer.on_event(TickEvent::Stage {
            stage: Stage::Tools,
        });
        let t = Instant::now();
        let tx = store
            .begin()
            .map_err(|e| fail(Stage::Tools, &partial)(e.into()))?;
        let runner = runner::RegistryRunner {
            tx: &tx,
            registry: &registry,
            ctx: ToolContext {
                tick,
                retrieval: Some(&retrieval),
            },
        };
        let mut exec_config = options.executor.clone();
        exec_config.soft_action_limit = config.generation.max_tools_per_tick as usize;
        let report =
            crate::executor::execute(&plan.exec_actions(), &runner, &mut health, &exec_config)
                .await;
        elapsed(&mut timings, "tools", t);
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                drop(tx);
                feedback = Some(format!(
                    "The previous plan could not run: {e}. Fix the action ids and dependencies."
                ));
                if round == options.max_plan_attempts {
                    return Err(fail(Stage::Tools, &partial)(StepError::Execution(
                        e.to_string(),
                    )));
                }
                continue;
            }
        };
        for r in &report.results {
            observer.on_event(TickEvent::ToolFinished {
                id: r.id.clone(),
                tool: r.tool.clone(),
                ok: r.error.is_none(),
                detail: r.error.clone().unwrap_or_default(),
            });
        }
        partial.execution = serde_json::to_value(&report).ok();
        if report.success {
            plan_and_report = Some((plan, report, tx));
            break;
        }
        drop(tx); // roll back whatever the failed plan's tools did
        let errors: Vec<String> = report
            .results
            .iter()
            .filter_map(|r| {
                r.error
                    .as_ref()
                    .map(|e| format!("{} ({}): {e}", r.id, r.tool))
            })
            .collect();
        if round == options.max_plan_attempts {
            return Err(fail(Stage::Tools, &partial)(StepError::Execution(format!(
                "a required tool failed: {}",
                errors.join("; ")
            ))));
        }
        feedback = Some(format!(
            "The previous plan failed when its tools ran:\n- {}\nDisabled tools: {}. Make a plan that avoids these errors.",
            errors.join("\n- "),
            if report.disabled_tools.is_empty() {
                "none".to_string()
            } else {
                report.disabled_tools.join(", ")
            }
        ));
    }
    let Some((plan, report, tx)) = plan_and_report else {
        return Err(fail(Stage::Planning, &partial)(StepError::Plan(
            "no plan was produced".into(),
        )));
    };

    // Everything from here on reads the memory through the tick's transaction, so the writer
    // sees what the tools just created.
    let pov_id = plan
        .pov_character
        .clone()
        .filter(|id| store::get_character(&tx, id).ok().flatten().is_some())
        .or_else(|| store::load_state(&tx).ok().and_then(|s| s.active_character));
    let scene_location = plan
        .target_location
        .clone()
        .filter(|id| store::get_location(&tx, id).ok().flatten().is_some())
        .or_else(|| {
            pov_id
                .as_deref()
                .and_then(|id| store::get_character(&tx, id).ok().flatten())
                .and_then(|c| c.last_location)
        });
    let tool_results: Vec<(String, Value)> = report
        .results
        .iter()
        .filter_map(|r| r.output.clone().map(|o| (r.tool.clone(), o)))
        .collect();

    observer.on_event(TickEvent::Stage {
        stage: Stage::Writing,
    });
    let t = Instant::now();
    let request = requests::writer(
        &tx,
        &config,
        &retrieval,
        &plan,
        &tool_results,
        options.steering.as_deref(),
    )
    .await
    .map_err(fail(Stage::Writing, &partial))?;
    let completion = novel_llm::stream_completion(&*models.writer, &request, |d| {
        observer.on_event(TickEvent::ProseDelta {
            text: d.to_string(),
        })
    })
    .await
    .map_err(|e| fail(Stage::Writing, &partial)(e.into()))?;
    elapsed(&mut timings, "writing", t);
    record_usage(&mut usage, observer, "writer", &completion);
    let mut prose = clean_prose(&completion.text);

    observer.on_event(TickEvent::Stage {
        stage: Stage::Checking,
    });
    let characters =
        store::list_characters(&tx).map_err(|e| fail(Stage::Checking, &partial)(e.into()))?;
    let locations =
        store::list_locations(&tx).map_err(|e| fail(Stage::Checking, &partial)(e.into()))?;
    let lost = lost_items::lost_items(&tx, &characters)
        .map_err(|e| fail(Stage::Checking, &partial)(e.into()))?;
    // A novel always has its protagonist; the blank stand-in only keeps the checks total.
    let fallback_pov = Character::default();
    let pov_character = pov_id
        .as_deref()
        .and_then(|id| characters.iter().find(|c| c.id == id))
        .unwrap_or(&fallback_pov);
    let location = scene_location
        .as_deref()
        .and_then(|id| locations.iter().find(|l| l.id == id));
    let evaluate_prose = |prose: &str| {
        evaluate::evaluate(&EvalInput {
            prose,
            pov: config.novel.pov,
            tense: config.novel.tense,
            pov_character,
            characters: &characters,
            scene_location: location,
            locations: &locations,
            lost_items: &lost,
            target_words: (
                config.generation.target_words_min,
                config.generation.target_words_max,
            ),
        })
    };
    let mut findings = evaluate_prose(&prose);
    observer.on_event(TickEvent::Findings {
        findings: findings.clone(),
    });
    let mut revised = false;
    if evaluate::needs_revision(&findings) {
        observer.on_event(TickEvent::Stage {
            stage: Stage::Revising,
        });
        let t = Instant::now();
        let request = requests::reviser(
            &tx,
            &config,
            &plan,
            &prose,
            &evaluate::revision_brief(&findings),
        )
        .map_err(fail(Stage::Revising, &partial))?;
        let completion = novel_llm::stream_completion(&*models.writer, &request, |d| {
            observer.on_event(TickEvent::ProseDelta {
                text: d.to_string(),
            })
        })
        .await
        .map_err(|e| fail(Stage::Revising, &partial)(e.into()))?;
        elapsed(&mut timings, "revising", t);
        record_usage(&mut usage, observer, "reviser", &completion);
        prose = clean_prose(&completion.text);
        revised = true;
        // At most one revision: what remains is recorded for the writer to see, not looped on.
        findings = evaluate_prose(&prose);
        observer.on_event(TickEvent::Findings {
            findings: findings.clone(),
        });
    }

    observer.on_event(TickEvent::Stage {
        stage: Stage::Extracting,
    });
    let t = Instant::now();
    let request = requests::extractor(&tx, &config, &prose, &plan)
        .map_err(fail(Stage::Extracting, &partial))?;
    let extraction_validator = SchemaValidator::for_type::<Extraction>();
    let validate = move |v: &Value| -> Result<(), Vec<String>> {
        let violations = extraction_validator.violations(v);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations.iter().map(ToString::to_string).collect())
        }
    };
    let structured = novel_llm::complete_structured(&*models.extractor, &request, &validate)
        .await
        .map_err(|e| fail(Stage::Extracting, &partial)(e.into()))?;
    elapsed(&mut timings, "extracting", t);
    for c in &structured.completions {
        record_usage(&mut usage, observer, "extractor", c);
    }
    let extraction: Extraction = serde_json::from_value(structured.value)
        .map_err(|e| fail(Stage::Extracting, &partial)(StepError::Plan(e.to_string())))?;
    let extraction = extraction.normalized();

    observer.on_event(TickEvent::Stage {
        stage: Stage::Committing,
    });
    let commit = |tx: &rusqlite::Transaction<'_>| -> Result<(Scene, ApplyReport), StoreError> {
        let applied = extraction.apply(tx, tick);
        let location = extraction
            .location
            .clone()
            .filter(|id| store::get_location(tx, id).ok().flatten().is_some())
            .or(scene_location.clone());
        if let (Some(pov), Some(loc)) = (&pov_id, &location) {
            let mut changes = serde_json::Map::new();
            changes.insert("last_location".into(), Value::String(loc.clone()));
            // Where the POV character is is a fact of the scene, not a model's opinion.
            let _ = memory::update_record::<Character>(
                tx,
                pov,
                &EntityUpdate {
                    changes,
                    append: Default::default(),
                },
                tick,
                "tick",
            );
        }
        let scene = Scene {
            id: store::mint_id(tx, EntityKind::Scene)?.to_string(),
            tick,
            title: extraction.title.clone(),
            pov_character: pov_id.clone(),
            location,
            word_count: count_words(&prose),
            prose: prose.clone(),
            summary: extraction.summary.clone(),
            tension: Some(extraction.tension),
            created_at: timestamp(clock.now()),
        };
        store::insert_scene(tx, &scene)?;
        store::index_scene(tx, &scene)?;
        crate::context::roll_up_after(tx, tick)?;
        let mut state = store::load_state(tx)?;
        state.current_tick = tick;
        state.active_character = pov_id.clone().or(state.active_character);
        state.updated_at = scene.created_at.clone();
        store::save_state(tx, &state)?;
        store::insert_tick(
            tx,
            &TickRecord {
                tick,
                plan: serde_json::to_value(&plan).ok(),
                execution: serde_json::to_value(&report).ok(),
                findings: json!(findings),
                usage: serde_json::to_value(&usage).unwrap_or_default(),
                timings: Value::Object(timings.clone()),
                started_at: started_at.clone(),
                finished_at: scene.created_at.clone(),
            },
        )?;
        store::resolve_failures(tx, tick)?;
        Ok((scene, applied))
    };
    let (scene, applied) = commit(&tx).map_err(|e| fail(Stage::Committing, &partial)(e.into()))?;
    // Vectors for what this tick wrote commit with it. They are derived data: if embedding
    // fails the passages stay pending (keyword search still finds them) and the tick commits.
    if let Err(e) = retrieval.sync(&tx).await {
        tracing::warn!("tick {tick}: passages left without vectors: {e}");
    }
    // A provider that answers without ever yielding gives the select above no chance to see a
    // cancel, so the last word is had here: a cancelled tick never commits.
    if cancel.is_cancelled() {
        return Err(fail(Stage::Committing, &partial)(StepError::Cancelled));
    }
    tx.commit()
        .map_err(|e| fail(Stage::Committing, &partial)(StoreError::from(e).into()))?;

    // The database is the source of truth; the files are its readable mirror.
    let mut written = Vec::new();
    match files::write_scene(&root, tick, &scene.title, &scene.summary, &scene.prose) {
        Ok(p) => written.push(p),
        Err(e) => tracing::warn!("scene {tick} committed but scene file not written: {e}"),
    }
    let plan_file = json!({
        "tick": tick,
        "timestamp": started_at,
        "plan": plan,
        "execution": report,
        "findings": findings,
        "revised": revised,
        "usage": usage,
        "applied": applied,
    });
    let path = files::plan_path(&root, tick);
    match files::write_json(&path, &plan_file) {
        Ok(()) => written.push(path),
        Err(e) => tracing::warn!("plan {tick} committed but plan file not written: {e}"),
    }
    observer.on_event(TickEvent::Committed {
        tick,
        scene_id: scene.id.clone(),
        title: scene.title.clone(),
        words: scene.word_count,
    });
    Ok(TickOutcome {
        tick,
        scene,
        plan,
        execution: report,
        findings,
        revised,
        applied,
        usage,
        files: written,
    })
}

fn elapsed(timings: &mut serde_json::Map<String, Value>, key: &str, since: Instant) {
    let ms = u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX);
    let total = timings.get(key).and_then(Value::as_u64).unwrap_or(0) + ms;
    timings.insert(key.to_string(), json!(total));
}

fn record_usage(usage: &mut TickUsage, observer: &dyn TickObserver, role: &str, c: &Completion) {
    usage.record(role, c);
    observer.on_event(TickEvent::Usage {
        role: role.to_string(),
        prompt_tokens: c.usage.prompt_tokens,
        completion_tokens: c.usage.completion_tokens,
    });
}

/// Plan validation as the structured-output layer sees it: schema, registry, and ids that
/// must name existing records.
fn plan_validator(
    conn: &rusqlite::Connection,
    registry: &ToolRegistry,
) -> Result<impl Fn(&Value) -> Result<(), Vec<String>> + Send + Sync + use<>, StoreError> {
    let characters: Vec<String> = store::list_characters(conn)?
        .into_iter()
        .map(|c| c.id)
        .collect();
    let locations: Vec<String> = store::list_locations(conn)?
        .into_iter()
        .map(|l| l.id)
        .collect();
    let registry = registry.clone();
    Ok(move |value: &Value| {
        let plan = validate_plan(value, &registry).map_err(|e| {
            let mut msgs = e.messages();
            if e.names_unknown_tool() {
                msgs.push(format!(
                    "Use only these tools: {}",
                    registry.names().join(", ")
                ));
            }
            msgs
        })?;
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
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    })
}

fn replan_feedback(errors: &[String], registry: &ToolRegistry) -> String {
    format!(
        "Your previous plan was rejected:\n- {}\nThe only tools that exist are: {}.",
        errors.join("\n- "),
        registry.names().join(", ")
    )
}

/// Strips what models wrap prose in: code fences and a leading heading line.
fn clean_prose(text: &str) -> String {
    let mut t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        t = rest.split_once('\n').map_or("", |(_, body)| body);
        t = t.trim_end().strip_suffix("```").unwrap_or(t);
    }
    let t = t.trim();
    let t = match t.split_once('\n') {
        Some((first, rest)) if first.trim_start().starts_with('#') => rest.trim(),
        _ => t,
    };
    t.to_string()
}

#[cfg(test)]
pub(crate) mod tests;
