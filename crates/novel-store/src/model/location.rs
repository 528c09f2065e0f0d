//! A location: its description and atmosphere, the threats and people found there, a tension
//! level from 1 (calm) to 5 (explosive), and its connections on the story's map.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub sensory: Vec<String>,
    #[serde(default)]
    pub threats: Vec<String>,
    #[serde(default)]
    pub inhabitants: Vec<String>,
    #[serde(default = "default_tension")]
    pub tension_level: u8,
    /// Ids of directly reachable locations; kept in step with the connections table.
    #[serde(default)]
    pub connections: Vec<String>,
    #[serde(default)]
    pub facts: BTreeMap<String, String>,
    pub first_tick: u32,
    pub last_update_tick: u32,
}

fn default_tension() -> u8 {
    2
}
