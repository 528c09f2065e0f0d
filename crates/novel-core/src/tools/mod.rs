//! The tools the planner may call: typed arguments with a JSON Schema generated from
//! the Rust type, a name constant, a description for the planner, and their own error type. The
//! registry rejects unknown tools and invalid arguments before anything runs, and runs each
//! call inside a savepoint so a failing call leaves the database exactly as it was.

mod character;
mod error;
mod location;
mod loops;
mod lore;
mod memory_search;
mod registry;
mod relationship;

pub use character::{CharacterGenerate, CharacterUpdate};
pub use error::ToolError;
pub use location::{LocationGenerate, LocationUpdate};
pub use loops::{LoopUpdate, LoopUpdateArgs};
pub use lore::LoreAdd;
pub use memory_search::{MemorySearch, MemorySearchArgs};
pub use registry::{Tool, ToolContext, ToolRegistry, TypedTool};
pub use relationship::{
    RelationshipCreate, RelationshipQuery, RelationshipUpdate, RelationshipUpdateArgs,
};

#[cfg(test)]
mod tests;
