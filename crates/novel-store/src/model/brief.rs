//! What the next scene is to be, as the prompts see it: the intention, whose eyes, where, and
//! what should come of it. A plan carries one; the context builder and the prompts read only
//! this, so they need not know how plans are made or validated.

/// The scene-level part of a plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SceneBrief {
    pub scene_intention: String,
    /// Character id of the point of view, when the plan chose one.
    pub pov_character: Option<String>,
    /// Location id of the scene, when the plan chose one.
    pub target_location: Option<String>,
    pub expected_outcomes: Vec<String>,
}
