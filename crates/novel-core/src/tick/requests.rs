//! The tick's four LLM requests: the context gathered for each role, rendered by the prompt
//! templates, with the structured-output schema and a token ceiling attached. The planner and
//! the writer also get the passages hybrid search recalls for what comes next.

use rusqlite::Connection;
use serde_json::Value;

use super::error::StepError;
use super::extraction::Extraction;
use crate::config::{NovelConfig, Role};
use crate::context::{self, Focus, Rollups, SectionReport, StoryContext};
use crate::model::SceneBrief;
use crate::plan::{Plan, PlanChoices, plan_schema_for};
use crate::prompts::{self, ReplanFeedback};
use crate::retrieval::Retrieval;
use crate::schema::schema_of;
use crate::tools::ToolRegistry;
use novel_llm::ChatRequest;

/// The key of one book's conversation of `role` for the servers' prompt caches: the same
/// every tick, different between books and roles. A hash, so the title does not travel with
/// every request to a hosted API.
pub(crate) fn cache_key(config: &NovelConfig, role: Role) -> String {
    cache_key_for(&config.novel.title, role)
}

fn cache_key_for(title: &str, role: Role) -> String {
    // FNV-1a: stable across builds and platforms, unlike the standard hasher.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in title.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("novel-{hash:016x}-{role}")
}

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
        &Rollups,
    )?)
}

/// Adds the recalled passages; a failed search costs the section, never the tick.
async fn with_recall(conn: &Connection, retrieval: &Retrieval, ctx: StoryContext) -> StoryContext {
    let hits = match ctx.recall_query() {
        Some(query) => retrieval.recall(conn, &query).await,
        None => Vec::new(),
    };
    ctx.with_recalled(&hits)
}

/// The planner's context: centred on the active character, with the note and recall.
pub async fn planner_context(
    conn: &Connection,
    config: &NovelConfig,
    retrieval: &Retrieval,
    steering: Option<&str>,
) -> Result<StoryContext, StepError> {
    let ctx = context_for(conn, config, &Focus::default())?.with_steering(steering);
    Ok(with_recall(conn, retrieval, ctx).await)
}

/// A request and the context sections it carries, with their tokens against budget.
pub struct Prompt {
    pub request: ChatRequest,
    pub sections: Vec<SectionReport>,
}

pub async fn planner(
    conn: &Connection,
    config: &NovelConfig,
    retrieval: &Retrieval,
    registry: &ToolRegistry,
    steering: Option<&str>,
    feedback: &ReplanFeedback,
) -> Result<Prompt, StepError> {
    let ctx = planner_context(conn, config, retrieval, steering).await?;
    let request = prompts::planner_request(&ctx, registry, Some(feedback)).map_err(prompt_err)?;
    Ok(Prompt {
        request: request
            .with_json_schema(
                "plan",
                plan_schema_for(
                    config.generation.max_tools_per_tick,
                    &plan_choices(conn, registry)?,
                ),
            )
            .with_max_tokens(1500)
            .with_cache_key(cache_key(config, Role::Planner)),
        sections: ctx.sections(),
    })
}

/// What this tick's plan may name: the registry's tools, the story's characters and places,
/// the outline's open beats.
fn plan_choices(conn: &Connection, registry: &ToolRegistry) -> Result<PlanChoices, StepError> {
    let ids = |e: crate::store::StoreError| StepError::from(e);
    Ok(PlanChoices {
        tools: registry.names(),
        characters: crate::store::list_characters(conn)
            .map_err(ids)?
            .into_iter()
            .map(|c| c.id)
            .collect(),
        locations: crate::store::list_locations(conn)
            .map_err(ids)?
            .into_iter()
            .map(|l| l.id)
            .collect(),
        beats: crate::store::list_beats(conn)
            .map_err(ids)?
            .into_iter()
            .filter(|b| b.status == crate::model::BeatStatus::Open)
            .map(|b| b.id)
            .collect(),
    })
}

/// The story as the scene of `plan` starts: centred on the plan's POV and place. The writer,
/// the reviser and the extractor all read it, and nothing writes to the store between them, so
/// a tick gathers it once (after the tools ran) and passes it on.
pub fn scene_context(
    conn: &Connection,
    config: &NovelConfig,
    plan: &Plan,
) -> Result<StoryContext, StepError> {
    context_for(conn, config, &Focus::of_plan(plan))
}

/// The writer's context: centred on the plan's POV and place, with what the tools returned,
/// the note, the plan and recall.
pub async fn writer_context(
    conn: &Connection,
    config: &NovelConfig,
    retrieval: &Retrieval,
    plan: &Plan,
    tool_results: &[(String, Value)],
    steering: Option<&str>,
) -> Result<StoryContext, StepError> {
    let base = scene_context(conn, config, plan)?;
    Ok(writer_context_from(base, conn, retrieval, plan, tool_results, steering).await)
}

/// [`writer_context`] from an already gathered [`scene_context`].
async fn writer_context_from(
    base: StoryContext,
    conn: &Connection,
    retrieval: &Retrieval,
    plan: &Plan,
    tool_results: &[(String, Value)],
    steering: Option<&str>,
) -> StoryContext {
    let ctx = base
        .with_tool_results(tool_results)
        .with_steering(steering)
        .with_plan(plan);
    with_recall(conn, retrieval, ctx).await
}

pub async fn writer(
    base: StoryContext,
    conn: &Connection,
    config: &NovelConfig,
    retrieval: &Retrieval,
    plan: &Plan,
    tool_results: &[(String, Value)],
    steering: Option<&str>,
) -> Result<Prompt, StepError> {
    let ctx = writer_context_from(base, conn, retrieval, plan, tool_results, steering).await;
    let request = prompts::writer_request(&ctx).map_err(prompt_err)?;
    Ok(Prompt {
        // Room for the longest allowed scene (~1.4 tokens a word) and no more.
        request: request
            .with_max_tokens(config.generation.target_words_max * 2 + 200)
            .with_cache_key(cache_key(config, Role::Writer)),
        sections: ctx.sections(),
    })
}

pub fn reviser(
    base: StoryContext,
    config: &NovelConfig,
    plan: &Plan,
    prose: &str,
    findings: &str,
) -> Result<ChatRequest, StepError> {
    let ctx = base.with_plan(plan);
    let request = prompts::reviser_request(&ctx, prose, findings).map_err(prompt_err)?;
    Ok(request
        .with_max_tokens(config.generation.target_words_max * 2 + 200)
        .with_cache_key(cache_key(config, Role::Reviser)))
}

/// The extraction request for the tick's scene, from its [`scene_context`].
pub fn extractor(base: StoryContext, prose: &str, plan: &Plan) -> Result<ChatRequest, StepError> {
    extraction_request(base, prose, plan.into())
}

/// The extraction request as the next turn of the writer's conversation (`writer` is the
/// request the scene was written from), so a server reuses the writer's prompt cache.
pub fn extractor_follow_up(
    writer: &ChatRequest,
    base: StoryContext,
    prose: &str,
    plan: &Plan,
) -> Result<ChatRequest, StepError> {
    let ctx = base.with_plan(SceneBrief::from(plan)).with_scene(prose);
    let request = prompts::extractor_follow_up(writer, &ctx, prose).map_err(prompt_err)?;
    Ok(request
        .with_json_schema("extraction", extraction_schema())
        .with_max_tokens(2000))
}

/// The extraction's schema, flattened for grammar converters (see `novel_llm::flatten_schema`).
pub fn extraction_schema() -> Value {
    novel_llm::flatten_schema(&schema_of::<Extraction>())
}

/// [`cache_key`] from a gathered context (which carries the book's foundation).
fn cache_key_of(ctx: &StoryContext, role: Role) -> String {
    cache_key_for(&ctx.foundation.title, role)
}

/// The extraction request for a scene described by `brief` (a committed scene the writer
/// edited).
pub fn extractor_for(
    conn: &Connection,
    config: &NovelConfig,
    prose: &str,
    brief: SceneBrief,
) -> Result<ChatRequest, StepError> {
    let base = context_for(conn, config, &Focus::of_plan(brief.clone()))?;
    extraction_request(base, prose, brief)
}

fn extraction_request(
    base: StoryContext,
    prose: &str,
    brief: SceneBrief,
) -> Result<ChatRequest, StepError> {
    let ctx = base.with_plan(brief).with_scene(prose);
    let request = prompts::extractor_request(&ctx, prose).map_err(prompt_err)?;
    let key = cache_key_of(&ctx, Role::Extractor);
    Ok(request
        .with_json_schema("extraction", extraction_schema())
        .with_max_tokens(2000)
        .with_cache_key(key))
}
