//! The context preview: what the next tick's planner prompt will contain and what each section
//! costs, built exactly as the tick builds it (same gathering, recall and template), without
//! calling any model or writing anything. The writer's prompt depends on the plan, which only
//! exists once the tick runs: [`preview_writer`] renders it for a given plan (benchmarks,
//! tests, a UI showing what the writer got).

use novel_llm::{ChatRequest, count_tokens, estimate_prompt_tokens};
use serde::Serialize;
use serde_json::Value;

use super::error::StepError;
use super::options::Models;
use super::requests;
use super::starting::budgeted;
use crate::context::{SectionReport, StoryContext};
use crate::novel::Novel;
use crate::plan::Plan;
use crate::prompts::{self, PromptError, ReplanFeedback};
use crate::retrieval::Retrieval;
use crate::tools::ToolRegistry;

/// The next planner prompt, section by section.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Serialize)]
pub struct PromptPreview {
    /// The tick the prompt is for.
    pub tick: u32,
    /// The embedding model, when semantic search is on.
    pub semantic_model: Option<String>,
    /// Why semantic search is off, when it is.
    pub notice: Option<String>,
    pub sections: Vec<SectionReport>,
    pub system_tokens: u32,
    pub user_tokens: u32,
    /// The whole request as the provider would count it (with per-message overhead).
    pub prompt_tokens: u32,
    pub system: String,
    pub user: String,
}

/// Why a prompt could not be previewed.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    /// The story's context could not be read (the store or retrieval failed).
    #[error("could not gather the story's context: {0}")]
    Context(#[from] StepError),
    #[error(transparent)]
    Prompt(#[from] PromptError),
}

/// Builds the next tick's planner prompt for `novel`, with an optional steering note, as for
/// models that count tokens as the estimate does.
pub async fn preview_next(
    novel: &Novel,
    steering: Option<&str>,
) -> Result<PromptPreview, PreviewError> {
    preview_next_for(novel, steering, None).await
}

/// [`preview_next`] for the novel's models, when it has them: the budgets scaled as the tick
/// will scale them for the way those models count tokens
/// ([`Models::tokens_per_estimate`]); without models, as estimated.
pub async fn preview_next_for(
    novel: &Novel,
    steering: Option<&str>,
    models: Option<&Models>,
) -> Result<PromptPreview, PreviewError> {
    let retrieval = novel.retrieval();
    let conn = novel.store().conn();
    let ratio = match models {
        Some(models) => models.tokens_per_estimate().await,
        None => 1.0,
    };
    let config = budgeted(novel.config(), ratio);
    let ctx = requests::planner_context(conn, &config, &retrieval, steering).await?;
    let request = prompts::planner_request(
        &ctx,
        &ToolRegistry::standard(),
        Some(&ReplanFeedback::default()),
    )?;
    Ok(preview(&ctx, &retrieval, &request))
}

/// Builds the writer's prompt for `plan` (and what its tools returned) on `novel`.
pub async fn preview_writer(
    novel: &Novel,
    plan: &Plan,
    tool_results: &[(String, Value)],
    steering: Option<&str>,
) -> Result<PromptPreview, PreviewError> {
    let retrieval = novel.retrieval();
    let conn = novel.store().conn();
    let ctx = requests::writer_context(
        conn,
        novel.config(),
        &retrieval,
        plan,
        tool_results,
        steering,
    )
    .await?;
    let request = prompts::writer_request(&ctx)?;
    Ok(preview(&ctx, &retrieval, &request))
}

fn preview(ctx: &StoryContext, retrieval: &Retrieval, request: &ChatRequest) -> PromptPreview {
    let system = request.system.clone().unwrap_or_default();
    let user = request
        .messages
        .iter()
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    PromptPreview {
        tick: ctx.tick,
        semantic_model: retrieval.model_id().map(str::to_string),
        notice: retrieval.notice(),
        sections: ctx.sections(),
        system_tokens: count_tokens(&system),
        user_tokens: count_tokens(&user),
        prompt_tokens: estimate_prompt_tokens(request),
        system,
        user,
    }
}
