//! The planner's plan: why, what the scene should do, whose eyes, where, and which
//! tools to call first. The JSON Schema sent to the model is generated from these types, and
//! `validate` checks a model's answer against it and against the tool registry.

mod salvage;
mod scene_plan;
mod validate;

pub use salvage::{Known, MAX_TEXT_CHARS, Mending, Named, mend_plan};
pub use scene_plan::{Plan, PlanAction};
pub use validate::{
    PlanChoices, PlanError, PlanProblem, ProblemKind, plan_schema, plan_schema_for, validate_plan,
};
