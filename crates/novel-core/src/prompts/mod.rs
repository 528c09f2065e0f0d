//! The words of every LLM call of a tick: planner (the hidden director), writer (the visible
//! storyteller), reviser and extractor. Each role is one versioned template in
//! `crates/novel-core/prompts/`, rendered from a [`crate::context::StoryContext`] into a
//! `novel_llm::ChatRequest` with a system part (stable across ticks, so providers can cache
//! it) and a user part that opens with the book's stable material and ends with this tick's
//! story, so that consecutive prompts of a role share a long prefix a server can cache. Prompts are kept tight on purpose: every token
//! here is paid for on every tick.

mod error;
mod roles;
mod templates;
mod tool_catalog;
mod view;

#[cfg(test)]
mod tests;

pub use error::PromptError;
pub use roles::{
    ReplanFeedback, critic_request, extractor_follow_up, extractor_request, planner_request,
    reviser_request, writer_request,
};
pub use templates::{PROMPT_VERSIONS, PromptRole, PromptVersions, RoleTemplate};
pub use tool_catalog::{ToolSummary, argument_list, catalog};
