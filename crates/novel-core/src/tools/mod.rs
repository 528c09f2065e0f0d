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
mod typed;

pub use character::{CharacterGenerate, CharacterUpdate};
pub use error::ToolError;
pub use location::{LocationGenerate, LocationUpdate};
pub use loops::{LoopUpdate, LoopUpdateArgs};
pub use lore::LoreAdd;
pub use memory_search::{MemorySearch, MemorySearchArgs};
pub use registry::ToolRegistry;
pub use relationship::{
    RelationshipCreate, RelationshipQuery, RelationshipUpdate, RelationshipUpdateArgs,
};
pub use typed::{Tool, ToolContext, TypedTool};

/// What a tool does, in a writer's words, for a note ("add a character"); a tool this build
/// does not know by its name with the dots as spaces.
pub fn in_words(tool: &str) -> String {
    match tool {
        "memory.search" => "look something up in the story's memory",
        "character.generate" => "add a character",
        "character.update" => "change a character",
        "location.generate" => "add a place",
        "location.update" => "change a place",
        "relationship.create" => "link two characters",
        "relationship.update" => "change a relationship",
        "relationship.query" => "look up a character's relationships",
        "lore.add" => "add lore",
        "loop.update" => "tend an open thread",
        other => return other.replace(['.', '_'], " "),
    }
    .to_string()
}

#[cfg(test)]
mod tests;
