//! The tick's four LLM requests: the context gathered for each role, rendered by the prompt
//! templates, with the structured-output schema and a token ceiling attached.

use rusqlite::Connection;
use serde_json::Value;

use super::{Extraction, StepError};
use crate::config::NovelConfig;
use crate::context::{self, FirstBullets, Focus, StoryContext};
use crate::plan::{Plan, plan_schema};
use crate::prompts::{self, ReplanFeedback};
use crate::schema::schema_of;
use crate::tools::ToolRegistry;
use novel_llm::ChatRequest;

fn prompt_err(e: impl std::fmt::Display) -> StepError {
    StepError::Prompt(e.to_string())
}

fn context_for(
    conn: &Connection,
    config: &NovelConfig,
    focus: &Focus,
) -> Result<StoryContext, StepError> {
    Ok(context::gather_with(
        conn,
        config,
        &config.generation.context,
        focus,
        &FirstBullets,
    )?)
}

pub fn planner(
    conn: &Connection,
    config: &NovelConfig,
    registry: &ToolRegistry,
    steering: Option<&str>,
    feedback: Option<&str>,
    disabled: &[String],
) -> Result<ChatRequest, StepError> {
    let ctx = context_for(conn, config, &Focus::default())?.with_steering(steering);
    let feedback = ReplanFeedback {
        problems: feedback
            .map(|f| {
                f.lines()
                    .map(str::to_string)
                    .filter(|l| !l.trim().is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        disabled_tools: disabled.to_vec(),
    };
    let request = prompts::planner_request(&ctx, registry, Some(&feedback)).map_err(prompt_err)?;
    Ok(request
        .with_json_schema("plan", plan_schema())
        .with_max_tokens(1500))
}

pub fn writer(
    conn: &Connection,
    config: &NovelConfig,
    plan: &Plan,
    tool_results: &[(String, Value)],
    steering: Option<&str>,
) -> Result<ChatRequest, StepError> {
    let ctx = context_for(conn, config, &Focus::of_plan(plan))?
        .with_tool_results(tool_results)
        .with_steering(steering)
        .with_plan(plan);
    let request = prompts::writer_request(&ctx).map_err(prompt_err)?;
    // Room for the longest allowed scene (~1.4 tokens a word) and no more.
    Ok(request.with_max_tokens(config.generation.target_words_max * 2 + 200))
}

pub fn reviser(
    conn: &Connection,
    config: &NovelConfig,
    plan: &Plan,
    prose: &str,
    findings: &str,
) -> Result<ChatRequest, StepError> {
    let ctx = context_for(conn, config, &Focus::of_plan(plan))?.with_plan(plan);
    let request = prompts::reviser_request(&ctx, prose, findings).map_err(prompt_err)?;
    Ok(request.with_max_tokens(config.generation.target_words_max * 2 + 200))
}

pub fn extractor(
    conn: &Connection,
    config: &NovelConfig,
    prose: &str,
    plan: &Plan,
) -> Result<ChatRequest, StepError> {
    let ctx = context_for(conn, config, &Focus::of_plan(plan))?.with_plan(plan);
    let request = prompts::extractor_request(&ctx, prose).map_err(prompt_err)?;
    Ok(request
        .with_json_schema("extraction", schema_of::<Extraction>())
        .with_max_tokens(2000))
}
