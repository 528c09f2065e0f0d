//! The words of every LLM call of a tick: planner (the hidden director), writer (the visible
//! storyteller), reviser and extractor. Each role is one versioned template in
//! `crates/novel-core/prompts/`, rendered from a [`crate::context::StoryContext`] into a
//! `novel_llm::ChatRequest` with a system part (stable across ticks, so providers can cache
//! it) and a user part that opens with the book's stable material and ends with this tick's
//! story, so that consecutive prompts of a role share a long prefix a server can cache. Prompts are kept tight on purpose: every token
//! here is paid for on every tick.

mod roles;
mod templates;
mod tool_catalog;
mod view;

#[cfg(test)]
mod tests;

pub use roles::{
    ReplanFeedback, critic_request, extractor_follow_up, extractor_request, planner_request,
    reviser_request, writer_request,
};
pub use templates::{PROMPT_VERSIONS, PromptRole, PromptVersions};
pub use tool_catalog::{ToolSummary, argument_list, catalog};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// A template failed to compile or render: a bug in the template, caught by its tests.
    #[error("the {role} prompt template failed: {message}")]
    Template { role: &'static str, message: String },
    #[error("the writer needs a plan: call StoryContext::with_plan first")]
    MissingPlan,
}
