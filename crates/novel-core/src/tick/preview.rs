//! The context preview: what the next tick's planner prompt will contain and what each section
//! costs, built exactly as the tick builds it (same gathering, recall and template), without
//! calling any model or writing anything. The writer's prompt depends on the plan, which only
//! exists once the tick runs, so the planner's is the prompt a preview can show.

use novel_llm::{count_tokens, estimate_prompt_tokens};
use serde::Serialize;

use super::requests;
use crate::context::SectionReport;
use crate::novel::Novel;
use crate::prompts::{self, ReplanFeedback};
use crate::tools::ToolRegistry;

/// The next planner prompt, section by section.
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

/// Builds the next tick's planner prompt for `novel`, with an optional steering note.
pub async fn preview_next(novel: &Novel, steering: Option<&str>) -> Result<PromptPreview, String> {
    let retrieval = novel.retrieval();
    let conn = novel.store().conn();
    let ctx = requests::planner_context(conn, novel.config(), &retrieval, steering)
        .await
        .map_err(|e| e.to_string())?;
    let request = prompts::planner_request(
        &ctx,
        &ToolRegistry::standard(),
        Some(&ReplanFeedback::default()),
    )
    .map_err(|e| e.to_string())?;
    let system = request.system.clone().unwrap_or_default();
    let user = request
        .messages
        .iter()
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    Ok(PromptPreview {
        tick: ctx.tick,
        semantic_model: retrieval.model_id().map(str::to_string),
        notice: retrieval.notice(),
        sections: ctx.sections(),
        system_tokens: count_tokens(&system),
        user_tokens: count_tokens(&user),
        prompt_tokens: estimate_prompt_tokens(&request),
        system,
        user,
    })
}
