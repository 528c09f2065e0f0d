//! `character.generate` and `character.update`.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::ids::EntityKind;
use crate::memory::{self, EntityUpdate, NewCharacter, UpdateReport};
use crate::model::Character;

pub struct CharacterGenerate;

impl TypedTool for CharacterGenerate {
    const NAME: &'static str = "character.generate";
    const DESCRIPTION: &'static str = "Create a new character when the story needs a new role. Returns the character with its new id.";
    type Args = NewCharacter;
    type Output = Character;
    const ALIASES: &'static [(&'static str, &'static str)] =
        &[("traits", "personality"), ("brief", "description")];

    /// A character asked for by a brief alone ("brutish but loyal dockhand ally") gets a
    /// provisional name from its role or brief, which the writer's scene can replace.
    fn canonical_args(&self, mut args: Value) -> Value {
        if let Some(map) = args.as_object_mut()
            && !map.contains_key("name")
        {
            let basis = ["role", "description"]
                .iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str))
                .map(str::trim)
                .filter(|s| !s.is_empty());
            if let Some(basis) = basis {
                let words: Vec<&str> = basis.split_whitespace().take(4).collect();
                map.insert(
                    "name".into(),
                    Value::String(format!("the {}", words.join(" "))),
                );
                map.entry("facts").or_insert_with(|| serde_json::json!({}));
                if let Some(facts) = map.get_mut("facts").and_then(Value::as_object_mut) {
                    facts.insert("name".into(), Value::String("provisional".into()));
                }
            }
        }
        args
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        memory::create_character(tx, args, ctx.tick, Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}

/// Arguments shared by the update tools.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    /// Id of the record to change (e.g. "C0" or "L2").
    pub id: String,
    /// Fields to change, deep-merged: nested objects merge, lists are replaced, null removes.
    #[serde(default)]
    pub changes: Map<String, Value>,
    /// Items to add to list fields, e.g. {"inventory": ["brass key"]}.
    #[serde(default)]
    pub append: Map<String, Value>,
}

impl UpdateArgs {
    pub fn into_parts(self) -> (String, EntityUpdate) {
        (
            self.id,
            EntityUpdate {
                changes: self.changes,
                append: self.append,
            },
        )
    }
}

pub struct CharacterUpdate;

impl TypedTool for CharacterUpdate {
    const NAME: &'static str = "character.update";
    const DESCRIPTION: &'static str = "Change a character's state (goals, inventory, emotional_state, last_location, status, arc, facts, …). Changing a recorded fact is refused and flagged as a contradiction.";
    type Args = UpdateArgs;
    type Output = UpdateReport;

    fn id_fields(args: &Self::Args) -> Vec<(&'static str, &str, EntityKind)> {
        vec![("id", &args.id, EntityKind::Character)]
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let (id, update) = args.into_parts();
        memory::update_record::<Character>(tx, &id, &update, ctx.tick, Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}
