//! Why a tool call was refused or failed. The message always names the tool, and for bad
//! arguments the field, because it is shown to the planner model so it can correct itself.

use crate::memory::MemoryError;
use crate::schema::Violation;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("unknown tool `{name}`; the available tools are: {}", available.join(", "))]
    UnknownTool {
        name: String,
        available: Vec<String>,
    },
    #[error("{tool}: invalid arguments: {}", violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    InvalidArgs {
        tool: String,
        violations: Vec<Violation>,
    },
    #[error("{tool}: {source}")]
    Memory { tool: String, source: MemoryError },
    #[error("{tool}: cannot serialize the result: {message}")]
    Output { tool: String, message: String },
}

impl ToolError {
    /// Whether trying again unchanged might succeed: only a busy or locked database qualifies;
    /// everything else is the plan's fault and must be fixed by replanning.
    pub fn is_transient(&self) -> bool {
        match self {
            ToolError::Memory {
                source: MemoryError::Store(StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))),
                ..
            } => matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ),
            _ => false,
        }
    }

    pub fn memory(tool: &str) -> impl Fn(MemoryError) -> ToolError + '_ {
        move |source| ToolError::Memory {
            tool: tool.to_string(),
            source,
        }
    }
}

impl From<rusqlite::Error> for ToolError {
    fn from(e: rusqlite::Error) -> Self {
        ToolError::Memory {
            tool: "savepoint".into(),
            source: MemoryError::from(e),
        }
    }
}
