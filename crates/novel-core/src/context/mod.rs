//! The context builder (docs/ARCHITECTURE.md, "The tick"): what the LLM calls of a tick know about
//! the story. [`gather`] reads the store into bounded, pre-rendered sections — foundation,
//! overall summary (hierarchical roll-ups, see [`rollup`]), recent scenes, the previous scene's
//! last words, open loops, the POV character, their relationships, the place, triggered lore,
//! mentioned characters and places, known entities — and the tick adds what it learns later
//! (the plan, tool results, the writer's note, and the passages hybrid search recalls for
//! them, see [`StoryContext::recall_query`]). Every section has a token budget, so a prompt
//! built from a [`StoryContext`] stays the same size at scene 300 as at scene 10. The prompt
//! templates decide which sections each role sees.

mod budget;
mod gather;
mod lore;
mod mentions;
mod render;
mod rollup;
mod scene_loops;
mod story;
mod summary;
mod tool_results;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;

pub use budget::{ContextBudgets, Section, SectionKind, SectionReport, TRIM_MARKER};
pub use gather::{Focus, gather, gather_with};
pub use rollup::Rollups;
pub use story::{EntityRef, StoryContext};
pub use summary::{FirstBullets, SummaryLine, SummarySource};
