//! The plan itself, as the planner answers it: why, what the scene should do, whose eyes,
//! where, and the tool calls to make first; the actions as the executor runs them. Validation
//! and salvage read and mend it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::executor::{ExecAction, references_in};
use crate::model::SceneBrief;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Plan {
    // The lengths bound what a looping model can write: a server that constrains output by
    // schema stops it there (and see `MAX_TEXT` in `validate`).
    /// Why this plan makes sense for the story now.
    #[schemars(length(max = 600))]
    pub rationale: String,
    /// What should happen in the scene, in 1–2 specific sentences.
    #[schemars(length(min = 1, max = 600))]
    pub scene_intention: String,
    /// Character id whose point of view the scene is told from (e.g. "C0").
    #[serde(default)]
    pub pov_character: Option<String>,
    /// Location id where the scene takes place (e.g. "L0"), or null for a place a tool creates.
    #[serde(default)]
    pub target_location: Option<String>,
    /// The outline beat this scene realizes (e.g. "B2"), if it realizes one.
    #[serde(default)]
    pub beat: Option<String>,
    /// Tool calls to make before writing, at most a few.
    pub actions: Vec<PlanAction>,
    /// Concrete story developments the scene should produce.
    #[serde(default)]
    #[schemars(length(max = 6), inner(length(max = 300)))]
    pub expected_outcomes: Vec<String>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlanAction {
    /// A short name for this action so others can depend on it (default: "a" + its index).
    #[serde(default)]
    pub id: Option<String>,
    /// Tool name, e.g. "memory.search".
    pub tool: String,
    /// The tool's arguments.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, crate::specta_types::JsonValue>))]
    pub args: Map<String, Value>,
    /// Why this tool call is needed.
    #[serde(default)]
    #[schemars(length(max = 300))]
    pub reason: String,
    /// Ids of actions that must finish first.
    #[serde(default)]
    pub dependencies: Vec<String>,
    /// Whether the scene cannot be written if this action fails (default true).
    #[serde(default = "required_by_default")]
    pub required: bool,
}

fn required_by_default() -> bool {
    true
}

impl PlanAction {
    pub fn effective_id(&self, index: usize) -> String {
        self.id
            .clone()
            .filter(|id| !id.trim().is_empty())
            .unwrap_or_else(|| format!("a{index}"))
    }
}

impl Plan {
    /// The actions as the executor runs them. An action that uses another's output through a
    /// `"$id.field"` argument depends on it even when the plan forgot to say so.
    pub fn exec_actions(&self) -> Vec<ExecAction> {
        self.actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let args = Value::Object(a.args.clone());
                let mut dependencies = a.dependencies.clone();
                for r in references_in(&args) {
                    if !dependencies.contains(&r.action) {
                        dependencies.push(r.action);
                    }
                }
                ExecAction {
                    id: a.effective_id(i),
                    tool: a.tool.clone(),
                    args,
                    required: a.required,
                    dependencies,
                }
            })
            .collect()
    }
}

impl From<&Plan> for SceneBrief {
    fn from(plan: &Plan) -> SceneBrief {
        SceneBrief {
            scene_intention: plan.scene_intention.clone(),
            pov_character: plan.pov_character.clone(),
            target_location: plan.target_location.clone(),
            expected_outcomes: plan.expected_outcomes.clone(),
        }
    }
}
