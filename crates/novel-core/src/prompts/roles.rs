//! The four requests of a tick, one function per role: each takes the story context plus what
//! only that role needs and renders its template into a [`ChatRequest`]. Structured-output
//! schemas, token limits and temperatures are the caller's: these functions own the words.

use minijinja::{Value, context};
use novel_llm::{ChatMessage, ChatRequest};

use super::error::PromptError;
use super::templates::{PromptRole, render, render_block};
use super::tool_catalog::catalog;
use super::view::View;
use crate::context::StoryContext;
use crate::tools::ToolRegistry;

/// Why the planner is asked again: what was wrong with its last plan and which tools failed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplanFeedback {
    /// Each problem of the rejected plan or its execution, one sentence each.
    pub problems: Vec<String>,
    /// Tools taken out of the catalog for the rest of the tick (they kept failing).
    pub disabled_tools: Vec<String>,
    /// Tools that failed several times in a row: still offered, to be used only when the
    /// scene needs them (they are also given a longer timeout).
    pub degraded_tools: Vec<String>,
}

fn view(ctx: &StoryContext) -> Value {
    Value::from_serialize(View::of(ctx))
}

/// The hidden director's request: context, tool catalog and rules → a JSON plan.
pub fn planner_request(
    ctx: &StoryContext,
    tools: &ToolRegistry,
    feedback: Option<&ReplanFeedback>,
) -> Result<ChatRequest, PromptError> {
    let empty = ReplanFeedback::default();
    let feedback = feedback.unwrap_or(&empty);
    let catalog = catalog(tools, &feedback.disabled_tools);
    let tool_names: Vec<&str> = catalog.iter().map(|t| t.name.as_str()).collect();
    render(
        PromptRole::Planner,
        context! {
            tools => Value::from_serialize(&catalog),
            tool_names => tool_names,
            problems => feedback.problems,
            disabled_tools => feedback.disabled_tools,
            degraded_tools => feedback.degraded_tools,
            ..view(ctx)
        },
    )
}

/// The visible storyteller's request: the plan in deep POV → the scene's prose. The context
/// must carry the plan ([`StoryContext::with_plan`]).
pub fn writer_request(ctx: &StoryContext) -> Result<ChatRequest, PromptError> {
    if ctx.plan.is_none() {
        return Err(PromptError::MissingPlan);
    }
    render(PromptRole::Writer, view(ctx))
}

/// The revision request: the scene and its numbered findings → the corrected scene.
pub fn reviser_request(
    ctx: &StoryContext,
    prose: &str,
    findings: &str,
) -> Result<ChatRequest, PromptError> {
    render(
        PromptRole::Reviser,
        context! { prose => prose.trim(), findings => findings.trim(), ..view(ctx) },
    )
}

/// The critic's request: the scene and the checks' findings → a JSON critique.
pub fn critic_request(
    ctx: &StoryContext,
    prose: &str,
    findings: &str,
) -> Result<ChatRequest, PromptError> {
    render(
        PromptRole::Critic,
        context! { prose => prose.trim(), findings => findings.trim(), ..view(ctx) },
    )
}

/// The extraction request: the final scene and the known entities → the memory-update JSON.
pub fn extractor_request(ctx: &StoryContext, prose: &str) -> Result<ChatRequest, PromptError> {
    render(
        PromptRole::Extractor,
        context! { prose => prose.trim(), ..view(ctx) },
    )
}

/// The extraction request as the next turn of the writer's conversation: `writer` (the request
/// the scene was written from, exactly as sent), the final `prose` as the model's answer, then
/// the extraction turn. A server that kept the writer's prompt in its cache reads only the
/// scene and this turn.
pub fn extractor_follow_up(
    writer: &ChatRequest,
    ctx: &StoryContext,
    prose: &str,
) -> Result<ChatRequest, PromptError> {
    // The template renders whole before its block is taken, so the standalone form's
    // variables must be there too.
    let turn = render_block(
        PromptRole::Extractor,
        "follow_up",
        context! { prose => prose.trim(), ..view(ctx) },
    )?;
    let mut request = ChatRequest {
        system: writer.system.clone(),
        messages: writer.messages.clone(),
        // The same conversation: the same cache slot and breakpoints.
        cache: writer.cache.clone(),
        ..ChatRequest::default()
    };
    request.messages.push(ChatMessage::assistant(prose.trim()));
    request.messages.push(ChatMessage::user(turn));
    Ok(request)
}
