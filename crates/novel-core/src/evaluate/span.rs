//! Where offending words are in the checked prose, in characters: what a finding points at and
//! what the prose reader measures.

use serde::{Deserialize, Serialize};

/// A range of characters (Unicode scalar values, not bytes) in the checked prose: `start`
/// inclusive, `end` exclusive.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}
