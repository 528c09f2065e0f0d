//! `relationship.create`, `relationship.update` and `relationship.query`.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::ids::{EntityId, EntityKind};
use crate::memory::{self, EntityUpdate, MemoryError, NewRelationship, UpdateReport};
use crate::model::Relationship;
use crate::store::{self, HistoryEntry};

pub struct RelationshipCreate;

impl TypedTool for RelationshipCreate {
    const NAME: &'static str = "relationship.create";
    const DESCRIPTION: &'static str =
        "Establish a relationship when two characters first interact significantly.";
    type Args = NewRelationship;
    type Output = Relationship;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("relationship_type", "kind")];

    fn id_fields(args: &Self::Args) -> Vec<(&'static str, &str, EntityKind)> {
        vec![
            ("character_a", &args.character_a, EntityKind::Character),
            ("character_b", &args.character_b, EntityKind::Character),
        ]
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        memory::create_relationship(tx, args, ctx.tick, Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelationshipUpdateArgs {
    /// Character id of one side.
    pub character_a: String,
    /// Character id of the other side.
    pub character_b: String,
    #[serde(default)]
    pub status: Option<String>,
    /// 1–10.
    #[serde(default)]
    #[schemars(range(min = 1, max = 10))]
    pub intensity: Option<u8>,
    #[serde(default)]
    pub kind: Option<String>,
    /// How character_a now sees character_b.
    #[serde(default)]
    pub perspective_a: Option<String>,
    /// How character_b now sees character_a.
    #[serde(default)]
    pub perspective_b: Option<String>,
    /// What happened between them, recorded in the relationship's history.
    #[serde(default)]
    pub event: Option<String>,
}

pub struct RelationshipUpdate;

impl TypedTool for RelationshipUpdate {
    const NAME: &'static str = "relationship.update";
    const DESCRIPTION: &'static str = "Record how a relationship changed (status, intensity, perspectives) and the event that changed it.";
    type Args = RelationshipUpdateArgs;
    type Output = UpdateReport;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("relationship_type", "kind")];

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let fail = ToolError::memory(Self::NAME);
        let a = EntityId::parse_kind(&args.character_a, EntityKind::Character)
            .map_err(|e| fail(e.into()))?;
        let b = EntityId::parse_kind(&args.character_b, EntityKind::Character)
            .map_err(|e| fail(e.into()))?;
        let Some(existing) = store::find_relationship(tx, &a.to_string(), &b.to_string())
            .map_err(|e| fail(e.into()))?
        else {
            return Err(fail(MemoryError::Invalid(format!(
                "{a} and {b} have no relationship yet; use relationship.create"
            ))));
        };
        // Perspectives are stored per side: map the caller's a/b onto the record's a/b.
        let swapped = existing.character_a != a.to_string();
        let (pa, pb) = if swapped {
            (args.perspective_b, args.perspective_a)
        } else {
            (args.perspective_a, args.perspective_b)
        };
        let mut changes = Map::new();
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(v) = value {
                changes.insert(key.to_string(), v);
            }
        };
        put("status", args.status.map(Value::from));
        put("intensity", args.intensity.map(Value::from));
        put("kind", args.kind.map(Value::from));
        put("perspective_a", pa.map(Value::from));
        put("perspective_b", pb.map(Value::from));
        let update = EntityUpdate {
            changes,
            append: Map::new(),
        };
        let report =
            memory::update_record::<Relationship>(tx, &existing.id, &update, ctx.tick, Self::NAME)
                .map_err(&fail)?;
        if let Some(event) = args.event.filter(|e| !e.trim().is_empty()) {
            store::append_history(
                tx,
                &HistoryEntry {
                    entity_id: existing.id.clone(),
                    tick: ctx.tick,
                    field: "event".into(),
                    change: event.trim().to_string(),
                    old_value: None,
                    new_value: None,
                    flagged: false,
                    source: Self::NAME.into(),
                },
            )
            .map_err(|e| fail(e.into()))?;
        }
        Ok(report)
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelationshipQueryArgs {
    /// Character id whose relationships to list.
    pub character_id: String,
    /// Only relationships whose status contains this word (e.g. "strained").
    #[serde(default)]
    pub status_filter: Option<String>,
}

pub struct RelationshipQuery;

impl TypedTool for RelationshipQuery {
    const NAME: &'static str = "relationship.query";
    const DESCRIPTION: &'static str =
        "List a character's relationships, optionally filtered by status.";
    type Args = RelationshipQueryArgs;
    type Output = Value;

    fn run(
        &self,
        tx: &Transaction<'_>,
        _ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let fail = ToolError::memory(Self::NAME);
        let id = EntityId::parse_kind(&args.character_id, EntityKind::Character)
            .map_err(|e| fail(e.into()))?
            .to_string();
        if store::get_character(tx, &id)
            .map_err(|e| fail(e.into()))?
            .is_none()
        {
            return Err(fail(MemoryError::NotFound {
                kind: EntityKind::Character,
                id,
            }));
        }
        let filter = args.status_filter.map(|f| f.to_lowercase());
        let rels = store::list_relationships(tx, Some(&id)).map_err(|e| fail(e.into()))?;
        let mut out = Vec::new();
        for r in rels {
            if filter
                .as_ref()
                .is_some_and(|f| !r.status.to_lowercase().contains(f.as_str()))
            {
                continue;
            }
            let other = r.other(&id).to_string();
            let other_name = store::get_character(tx, &other)
                .map_err(|e| fail(e.into()))?
                .map(|c| c.name)
                .unwrap_or_else(|| other.clone());
            out.push(json!({
                "id": r.id, "other": other, "other_name": other_name, "kind": r.kind,
                "status": r.status, "intensity": r.intensity, "perspective": r.perspective_of(&id),
            }));
        }
        Ok(json!({ "relationships": out }))
    }
}
