//! Why a prompt could not be built: a template that failed to render, or a writer prompt asked
//! for without a plan. Every role's rendering returns it.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// A template failed to compile or render: a bug in the template, caught by its tests.
    #[error("the {role} prompt template failed: {message}")]
    Template { role: &'static str, message: String },
    #[error("the writer needs a plan: call StoryContext::with_plan first")]
    MissingPlan,
}
