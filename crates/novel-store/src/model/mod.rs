//! The domain types of the story memory (docs/ARCHITECTURE.md, "The data model"): what a character, location,
//! relationship, scene, open loop, lore fact and tick record are. Plain data with serde; the
//! store persists them and the merge module evolves them.

mod brief;
mod character;
mod failure_kind;
mod guidance;
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
pub use character::*;
pub use failure_kind::ErrorKind;
pub use guidance::*;
pub use location::*;
pub use lore::*;
pub use open_loop::*;
pub use relationship::*;
pub use scene::*;
pub use steps::{Stage, Step, Timings, stage_label};
pub use tick::*;
pub use usage::*;
pub use verdict::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How much a loop or a lore fact matters to the story.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Importance {
    Low,
    #[default]
    Medium,
    High,
    Critical,
}

impl Importance {
    pub fn as_str(self) -> &'static str {
        match self {
            Importance::Low => "low",
            Importance::Medium => "medium",
            Importance::High => "high",
            Importance::Critical => "critical",
        }
    }

    pub fn parse(s: &str) -> Option<Importance> {
        match s {
            "low" => Some(Importance::Low),
            "medium" => Some(Importance::Medium),
            "high" => Some(Importance::High),
            "critical" => Some(Importance::Critical),
            _ => None,
        }
    }
}
