//! Whether a scene did what its plan intended: the extractor's verdict, given in the same call
//! that reads the scene (no extra call), and stored per scene. The outline counts a beat done
//! only on a scene that realized it (`tick/pressure.rs`), and the book audit reads it back.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How much of the plan the scene carried out.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Realized {
    /// The scene did what was planned.
    Realized,
    /// Some of it: `missed` says what not.
    Partly,
    /// The scene went elsewhere.
    Not,
}

impl Realized {
    pub fn as_str(self) -> &'static str {
        match self {
            Realized::Realized => "realized",
            Realized::Partly => "partly",
            Realized::Not => "not",
        }
    }

    /// The stored word back; also reads the words models use for it ("realised", "partial",
    /// "no"), because a verdict is untrusted model output before it is stored.
    pub fn parse(s: &str) -> Option<Realized> {
        match s.trim().to_lowercase().as_str() {
            "realized" | "realised" | "yes" | "done" | "full" | "fully" | "complete" => {
                Some(Realized::Realized)
            }
            "partly" | "partial" | "partially" | "some" | "in part" => Some(Realized::Partly),
            "not" | "no" | "none" | "not realized" | "not realised" | "missed" | "failed" => {
                Some(Realized::Not)
            }
            _ => None,
        }
    }

    /// A beat the plan named is done when its scene realized it, fully or in part (a scene that
    /// carries most of a beat has moved the outline on; one that went elsewhere has not).
    pub fn completes_beat(self) -> bool {
        matches!(self, Realized::Realized | Realized::Partly)
    }
}

/// Did the scene do what its plan intended (the scene intention and expected outcomes)?
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SceneVerdict {
    /// realized, partly or not.
    pub verdict: Realized,
    /// What the plan wanted that the scene did not do (empty when realized).
    #[serde(default)]
    pub missed: Vec<String>,
}
