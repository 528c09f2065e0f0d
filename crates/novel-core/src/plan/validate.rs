//! Plan validation: the generated JSON Schema first, then what a schema cannot know — that each
//! tool exists and its arguments fit, that dependencies name real actions, that ids are ids.
//! Every problem is collected (not just the first) because the list goes back to the model.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::scene_plan::{Plan, PlanAction};
use crate::executor::references_in;
use crate::ids::{EntityId, EntityKind};
use crate::schema::{SchemaValidator, schema_of};
use crate::tools::{ToolError, ToolRegistry};

/// The JSON Schema of a plan, as sent to models that support structured output. The action
/// list is bounded by the novel's tools-per-tick limit, so a server that enforces schemas
/// enforces that too.
pub fn plan_schema(max_actions: u32) -> Value {
    let mut schema = schema_of::<Plan>();
    if let Some(actions) = schema.pointer_mut("/properties/actions")
        && let Some(actions) = actions.as_object_mut()
    {
        actions.insert("maxItems".into(), Value::from(max_actions));
    }
    schema
}

/// The names and ids a plan may use this tick.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanChoices {
    pub tools: Vec<String>,
    pub characters: Vec<String>,
    pub locations: Vec<String>,
    /// The outline's open beats.
    pub beats: Vec<String>,
}

/// [`plan_schema`] flattened for grammar converters, with this tick's tool names and ids as
/// enums: a server that constrains output by schema cannot produce a tool or an id that does
/// not exist, and the free-text fields' `maxLength` stops a model that loops.
pub fn plan_schema_for(max_actions: u32, choices: &PlanChoices) -> Value {
    let mut schema = novel_llm::flatten_schema(&plan_schema(max_actions));
    let one_of = |ids: &[String]| -> Value {
        let mut values: Vec<Value> = ids.iter().cloned().map(Value::String).collect();
        values.push(Value::Null);
        Value::Array(values)
    };
    for (field, ids) in [
        ("pov_character", &choices.characters),
        ("target_location", &choices.locations),
        ("beat", &choices.beats),
    ] {
        if let Some(property) = schema
            .pointer_mut(&format!("/properties/{field}"))
            .and_then(Value::as_object_mut)
        {
            property.insert("enum".into(), one_of(ids));
        }
    }
    if let Some(tool) = schema
        .pointer_mut("/properties/actions/items/properties/tool")
        .and_then(Value::as_object_mut)
        && !choices.tools.is_empty()
    {
        let names = choices.tools.iter().cloned().map(Value::String).collect();
        tool.insert("enum".into(), Value::Array(names));
    }
    schema
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    Schema,
    UnknownTool,
    InvalidArgs,
    Dependency,
    Id,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanProblem {
    pub kind: ProblemKind,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the plan is invalid: {}", problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct PlanError {
    pub problems: Vec<PlanProblem>,
}

impl PlanError {
    pub fn names_unknown_tool(&self) -> bool {
        self.problems
            .iter()
            .any(|p| p.kind == ProblemKind::UnknownTool)
    }

    pub fn messages(&self) -> Vec<String> {
        self.problems.iter().map(|p| p.message.clone()).collect()
    }
}

/// Validates a model's plan against the schema, the registry and the tools-per-tick limit.
pub fn validate_plan(
    value: &Value,
    registry: &ToolRegistry,
    max_actions: u32,
) -> Result<Plan, PlanError> {
    let plan = parse_against_schema(value)?;
    let ids = action_ids(&plan);
    let mut problems = action_count_problems(&plan, max_actions);
    problems.extend(scene_id_problems(&plan));
    problems.extend(duplicate_id_problems(&ids));
    // Action by action, so the model reads each action's problems together.
    for (i, action) in plan.actions.iter().enumerate() {
        problems.extend(tool_problem(i, action, registry));
        problems.extend(dependency_problems(i, action, &ids));
        problems.extend(reference_problems(i, action, &ids));
    }
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(PlanError { problems })
    }
}

fn problem(kind: ProblemKind, message: String) -> PlanProblem {
    PlanProblem { kind, message }
}

/// The schema's violations, all of them; then the typed plan (whose path-naming error covers
/// what the schema lets through).
fn parse_against_schema(value: &Value) -> Result<Plan, PlanError> {
    let violations = SchemaValidator::for_type::<Plan>().violations(value);
    if !violations.is_empty() {
        return Err(PlanError {
            problems: violations
                .iter()
                .map(|v| problem(ProblemKind::Schema, v.to_string()))
                .collect(),
        });
    }
    serde_path_to_error::deserialize(value).map_err(|e| PlanError {
        problems: vec![problem(
            ProblemKind::Schema,
            format!("field `{}`: {}", e.path(), e.inner()),
        )],
    })
}

/// Each action's id, given or numbered by position.
fn action_ids(plan: &Plan) -> Vec<String> {
    plan.actions
        .iter()
        .enumerate()
        .map(|(i, a)| a.effective_id(i))
        .collect()
}

/// More actions than the tools-per-tick limit allows.
fn action_count_problems(plan: &Plan, max_actions: u32) -> Vec<PlanProblem> {
    if plan.actions.len() <= max_actions as usize {
        return Vec::new();
    }
    vec![problem(
        ProblemKind::Schema,
        format!(
            "the plan has {} actions; at most {max_actions} are allowed: keep the ones the scene needs most",
            plan.actions.len()
        ),
    )]
}

/// The point-of-view character and the target location, when given, must be ids of their kind.
fn scene_id_problems(plan: &Plan) -> Vec<PlanProblem> {
    let mut problems = Vec::new();
    for (field, value, kind) in [
        ("pov_character", &plan.pov_character, EntityKind::Character),
        (
            "target_location",
            &plan.target_location,
            EntityKind::Location,
        ),
    ] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty())
            && EntityId::parse_kind(v, kind).is_err()
        {
            problems.push(problem(
                ProblemKind::Id,
                format!(
                    "`{field}` must be a {kind} id like {}0, not `{v}`",
                    kind.prefix()
                ),
            ));
        }
    }
    problems
}

/// One problem for each repeat of an action id.
fn duplicate_id_problems(ids: &[String]) -> Vec<PlanProblem> {
    let mut seen = HashSet::new();
    ids.iter()
        .filter(|id| !seen.insert(*id))
        .map(|id| {
            problem(
                ProblemKind::Dependency,
                format!("two actions share the id `{id}`"),
            )
        })
        .collect()
}

/// The action's tool must exist and its arguments fit it.
fn tool_problem(i: usize, action: &PlanAction, registry: &ToolRegistry) -> Option<PlanProblem> {
    match registry.check(&action.tool, &Value::Object(action.args.clone())) {
        Ok(()) => None,
        Err(e @ ToolError::UnknownTool { .. }) => Some(problem(
            ProblemKind::UnknownTool,
            format!("actions[{i}]: {e}"),
        )),
        Err(e) => Some(problem(
            ProblemKind::InvalidArgs,
            format!("actions[{i}]: {e}"),
        )),
    }
}

/// Each dependency must name another action.
fn dependency_problems(i: usize, action: &PlanAction, ids: &[String]) -> Vec<PlanProblem> {
    action
        .dependencies
        .iter()
        .filter(|dep| !ids.contains(dep) || **dep == ids[i])
        .map(|dep| {
            problem(
                ProblemKind::Dependency,
                format!("actions[{i}] depends on `{dep}`, which is not another action's id"),
            )
        })
        .collect()
}

/// Each `$<id>.<field>` in the arguments must name another action.
fn reference_problems(i: usize, action: &PlanAction, ids: &[String]) -> Vec<PlanProblem> {
    references_in(&Value::Object(action.args.clone()))
        .into_iter()
        .filter(|r| !ids.contains(&r.action) || r.action == ids[i])
        .map(|r| {
            problem(
                ProblemKind::Dependency,
                format!(
                    "actions[{i}] uses `${}`, which is not another action's id; write \"$<id>.<field>\" with the id of an earlier action",
                    r.action
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn valid_plan() -> Value {
        json!({
            "rationale": "Tamsin needs help to escape the harbor.",
            "scene_intention": "Tamsin persuades a dockhand to hide her.",
            "pov_character": "C0",
            "target_location": "L0",
            "actions": [
                {"id": "find", "tool": "memory.search", "args": {"query": "dockworkers"}, "reason": "who works here"},
                {"tool": "character.generate", "args": {"name": "Bram", "role": "dockhand"}, "dependencies": ["find"]},
                {"tool": "location.update", "args": {"id": "L0", "changes": {"tension_level": 4}}, "required": false}
            ],
            "expected_outcomes": ["Tamsin gains an ally"]
        })
    }

    #[test]
    fn a_valid_plan_parses_with_defaults() {
        let plan = validate_plan(&valid_plan(), &ToolRegistry::standard(), 3).unwrap();
        assert_eq!(plan.actions.len(), 3);
        let exec = plan.exec_actions();
        assert_eq!(exec[0].id, "find");
        assert_eq!(exec[1].id, "a1");
        assert_eq!(exec[1].dependencies, vec!["find".to_string()]);
        assert!(exec[1].required);
        assert!(!exec[2].required);
    }

    #[test]
    fn a_missing_field_is_named() {
        let mut plan = valid_plan();
        plan.as_object_mut().unwrap().remove("scene_intention");
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        assert_eq!(err.problems[0].kind, ProblemKind::Schema);
        assert!(err.to_string().contains("scene_intention"), "{err}");
    }

    #[test]
    fn an_unknown_tool_is_named_with_the_available_ones() {
        let mut plan = valid_plan();
        plan["actions"][0]["tool"] = json!("weather.forecast");
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        assert!(err.names_unknown_tool());
        let msg = err.to_string();
        assert!(
            msg.contains("weather.forecast") && msg.contains("memory.search"),
            "{msg}"
        );
    }

    #[test]
    fn a_wrong_argument_type_names_tool_and_field() {
        let mut plan = valid_plan();
        plan["actions"][0]["args"] = json!({"query": "docks", "limit": "five"});
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        assert_eq!(err.problems[0].kind, ProblemKind::InvalidArgs);
        let msg = err.to_string();
        assert!(
            msg.contains("memory.search") && msg.contains("limit"),
            "{msg}"
        );
    }

    #[test]
    fn an_argument_naming_no_entity_is_refused_before_anything_runs() {
        // Seen from SmolLM2 on a real llama-server: `character.update` with id `A`, which
        // failed the tick halfway through its tools instead of being repaired or left out.
        let mut plan = valid_plan();
        plan["actions"][0] = json!({"id": "upd", "tool": "character.update",
            "args": {"id": "A", "changes": {"emotional_state": "tense"}}});
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        assert!(
            err.problems
                .iter()
                .any(|p| p.kind == ProblemKind::InvalidArgs),
            "{err}"
        );
        let msg = err.to_string();
        assert!(msg.contains("`A` is not a character id"), "{msg}");
        // A location id where a character belongs is refused too; an id or a reference to
        // what an earlier action returns is taken.
        plan["actions"][0]["args"]["id"] = json!("L0");
        assert!(validate_plan(&plan, &ToolRegistry::standard(), 3).is_err());
        for fine in ["C0", "$find.id"] {
            plan["actions"][0]["args"]["id"] = json!(fine);
            plan["actions"][0]["dependencies"] = json!([]);
            let result = validate_plan(&plan, &ToolRegistry::standard(), 3);
            assert!(
                result.as_ref().err().is_none_or(|e| e
                    .problems
                    .iter()
                    .all(|p| p.kind != ProblemKind::InvalidArgs)),
                "{fine}: {result:?}"
            );
        }
    }

    #[test]
    fn bad_ids_and_dependencies_are_reported_together() {
        let mut plan = valid_plan();
        plan["pov_character"] = json!("../../etc/passwd");
        plan["actions"][1]["dependencies"] = json!(["nope"]);
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        let kinds: Vec<ProblemKind> = err.problems.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, vec![ProblemKind::Id, ProblemKind::Dependency]);
    }

    #[test]
    fn the_tools_per_tick_limit_is_enforced() {
        let mut plan = valid_plan();
        let err = validate_plan(&plan, &ToolRegistry::standard(), 2).unwrap_err();
        assert!(err.to_string().contains("at most 2"), "{err}");
        plan["actions"].as_array_mut().unwrap().truncate(2);
        plan["actions"][1]["dependencies"] = json!([]);
        assert!(validate_plan(&plan, &ToolRegistry::standard(), 2).is_ok());
    }

    #[test]
    fn references_must_name_another_action() {
        let mut plan = valid_plan();
        plan["actions"][2] = json!({"tool": "relationship.create",
            "args": {"character_a": "C0", "character_b": "$a1.id", "kind": "ally"}});
        let ok = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap();
        assert_eq!(
            ok.exec_actions()[2].dependencies,
            vec!["a1".to_string()],
            "a reference implies the dependency"
        );
        plan["actions"][2]["args"]["character_b"] = json!("$ghost.id");
        let err = validate_plan(&plan, &ToolRegistry::standard(), 3).unwrap_err();
        assert!(err.to_string().contains("$ghost"), "{err}");
    }

    #[test]
    fn the_schema_is_generated_from_the_types() {
        let schema = plan_schema(3);
        assert_eq!(schema["properties"]["actions"]["maxItems"], 3);
        let required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(
            required.contains(&"rationale")
                && required.contains(&"actions")
                && required.contains(&"scene_intention")
        );
        assert!(schema.to_string().contains("dependencies"));
    }
}
