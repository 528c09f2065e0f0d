//! A character: static traits (name, role, personality) and the dynamic state the story
//! changes tick by tick (goals, inventory, whereabouts, mood, alive or dead, arc).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub personality: Vec<String>,
    #[serde(default)]
    pub goals: Vec<String>,
    #[serde(default)]
    pub fears: Vec<String>,
    #[serde(default)]
    pub inventory: Vec<String>,
    /// A one-line view of each relationship by the other character's id ("C1": "wary ally").
    #[serde(default)]
    pub relationships: BTreeMap<String, String>,
    #[serde(default)]
    pub last_location: Option<String>,
    #[serde(default)]
    pub emotional_state: Option<String>,
    #[serde(default)]
    pub status: LifeStatus,
    #[serde(default)]
    pub arc: CharacterArc,
    /// Established facts ("brother": "alive"); changing one is a contradiction, not an update,
    /// unless a scene shows the change and says why (then it is superseded, with history).
    #[serde(default)]
    pub facts: BTreeMap<String, String>,
    /// States with a beginning and, once healed or dropped, an end: injuries, illnesses,
    /// disguises. Kept after they end, so the book remembers when.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    pub first_tick: u32,
    pub last_update_tick: u32,
}

impl Character {
    /// The conditions that have not ended.
    pub fn active_conditions(&self) -> impl Iterator<Item = &Condition> {
        self.conditions.iter().filter(|c| c.until_tick.is_none())
    }
}

/// A state a character is in from one scene to another.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// What it is, in a few words ("broken left arm", "fever", "dressed as a priest").
    pub name: String,
    /// injury, illness, disguise, state, …
    #[serde(default)]
    pub kind: String,
    /// The scene it began in.
    pub since_tick: u32,
    /// The scene it ended in (healed, cured, dropped); `None` while it lasts.
    #[serde(default)]
    pub until_tick: Option<u32>,
    /// How it began, and how it ended.
    #[serde(default)]
    pub note: String,
}

impl Condition {
    /// Whether `name` names this condition: the same words, or one holding the other
    /// ("arm" for "broken arm"), case aside.
    pub fn is_named(&self, name: &str) -> bool {
        let (a, b) = (self.name.trim().to_lowercase(), name.trim().to_lowercase());
        !b.is_empty() && (a == b || a.contains(&b) || b.contains(&a))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LifeStatus {
    #[default]
    Alive,
    Dead,
    Unknown,
}

impl LifeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LifeStatus::Alive => "alive",
            LifeStatus::Dead => "dead",
            LifeStatus::Unknown => "unknown",
        }
    }
}

/// The character's personal arc: what they want, what they need, and where they are on the way.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CharacterArc {
    #[serde(default)]
    pub want: String,
    #[serde(default)]
    pub need: String,
    #[serde(default)]
    pub phase: String,
}
