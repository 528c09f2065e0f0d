//! Why a plan was refused before anything ran. Every variant is raised by validation, so an
//! `Err` from [`execute`](super::execute) guarantees that no tool was called.

/// A plan the executor refuses to start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecutorError {
    #[error("action #{index} has an empty id")]
    EmptyId { index: usize },
    #[error("action `{action}` names no tool")]
    EmptyTool { action: String },
    #[error("two actions share the id `{0}`")]
    DuplicateId(String),
    #[error("action `{action}` depends on unknown action `{dependency}`")]
    UnknownDependency { action: String, dependency: String },
    /// `path` follows dependency edges and repeats its first id at the end, e.g. `a, b, a`.
    #[error("actions depend on each other in a cycle: {}", path.join(" -> "))]
    Cycle { path: Vec<String> },
    #[error("invalid executor configuration: {0}")]
    InvalidConfig(String),
}
