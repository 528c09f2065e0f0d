//! The domain types of the story memory (docs/ARCHITECTURE.md, "The data model"): what a character, location,
//! relationship, scene, open loop, lore fact and tick record are. Plain data with serde; the
//! store persists them and the merge module evolves them.

mod brief;
mod change_source;
mod character;
mod failure_kind;
mod guidance;
mod importance;
mod location;
mod lore;
mod open_loop;
mod relationship;
mod scene;
mod steps;
mod tick;
mod usage;
mod verdict;

pub use brief::*;
pub use change_source::{ChangeSource, NamedSource};
pub use character::*;
pub use failure_kind::ErrorKind;
pub use guidance::*;
pub use importance::Importance;
pub use location::*;
pub use lore::*;
pub use open_loop::*;
pub use relationship::*;
pub use scene::*;
pub use steps::{Stage, Step, Timings, stage_label};
pub use tick::*;
pub use usage::*;
pub use verdict::*;
