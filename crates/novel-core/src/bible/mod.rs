//! The story bible belongs to the writer: every record (characters, places and their
//! connections, relationships, loops, lore), the foundation and the author's note, the outline
//! of beats and the pressure on the story can be added to and changed here. Each change is
//! validated with the same rules as the agent's, written to the history as the writer's, and
//! recorded as one change of the story's history — so it is undone by a rewind and belongs to
//! its branch like everything else.

mod edit;
mod guidance;
mod prose_edits;
mod records;

#[cfg(test)]
mod tests;

pub use edit::BibleError;
// The records' changes as the writer makes them (the memory layer is inner).
pub use crate::memory::{
    EntityUpdate, LoopEdit, LoreEdit, NewCharacter, NewLocation, UpdateReport,
};
pub use guidance::*;
pub use prose_edits::*;
pub use records::*;
