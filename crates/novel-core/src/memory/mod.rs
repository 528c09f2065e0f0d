//! The story memory's write rules: how characters, locations, relationships, loops and lore are
//! created and updated. Every write keeps the search index in step and appends to the history
//! log; updates deep-merge and refuse to silently overwrite established facts. All functions
//! take the caller's transaction, so a tick commits its memory changes with everything else.

mod conditions;
mod connections;
mod create;
mod error;
mod record;
mod tending;
mod update;
mod writer;

pub use conditions::{begin_condition, end_condition};
pub use connections::*;
pub use create::*;
pub use error::MemoryError;
pub use record::Record;
pub(crate) use tending::content_words;
pub use tending::{LoopTending, open_or_advance_loop, tend_loop};
pub use update::*;
pub use writer::*;

#[cfg(test)]
mod tests;
