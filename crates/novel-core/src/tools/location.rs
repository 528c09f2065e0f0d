//! `location.generate` and `location.update`.

use rusqlite::Transaction;
use serde_json::Value;

use super::character::UpdateArgs;
use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::ids::EntityKind;
use crate::memory::{self, NewLocation, UpdateReport};
use crate::model::Location;

pub struct LocationGenerate;

impl TypedTool for LocationGenerate {
    const NAME: &'static str = "location.generate";
    const DESCRIPTION: &'static str = "Create a new location, optionally connected to existing ones. Returns the location with its new id.";
    type Args = NewLocation;
    type Output = Location;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("features", "sensory")];

    /// An `atmosphere` sentence becomes the first sensory detail.
    fn canonical_args(&self, mut args: Value) -> Value {
        if let Some(map) = args.as_object_mut()
            && let Some(atmosphere) = map.remove("atmosphere")
        {
            let mut sensory = match map.remove("sensory") {
                Some(Value::Array(items)) => items,
                Some(Value::String(s)) => vec![Value::String(s)],
                _ => Vec::new(),
            };
            if let Value::String(text) = atmosphere
                && !text.trim().is_empty()
            {
                sensory.insert(0, Value::String(text));
            }
            map.insert("sensory".into(), Value::Array(sensory));
        }
        args
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        memory::create_location(tx, args, ctx.tick, Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}

pub struct LocationUpdate;

impl TypedTool for LocationUpdate {
    const NAME: &'static str = "location.update";
    const DESCRIPTION: &'static str = "Change a location (description, sensory, threats, inhabitants, tension_level 1–5, connections, facts).";
    type Args = UpdateArgs;
    type Output = UpdateReport;

    fn id_fields(args: &Self::Args) -> Vec<(&'static str, &str, EntityKind)> {
        vec![("id", &args.id, EntityKind::Location)]
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let (id, update) = args.into_parts();
        memory::update_record::<Location>(tx, &id, &update, ctx.tick, Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}
