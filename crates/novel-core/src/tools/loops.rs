//! `loop.update`: the planner tends the open threads — parks one for later, abandons one the
//! story has moved past, or merges a duplicate into the loop that carries on — each with a
//! reason the writer reads in the loop's notes.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::ids::EntityKind;
use crate::memory::{self, LoopTending};
use crate::model::OpenLoop;

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoopUpdateArgs {
    /// The open loop's id (O…).
    pub loop_id: String,
    /// park: keep it but set it aside; abandon: the story no longer needs it; merge: it
    /// duplicates `into`.
    pub action: LoopTending,
    /// Why, in a sentence the writer will read.
    pub reason: String,
    /// For merge: the loop that carries on.
    #[serde(default)]
    pub into: Option<String>,
}

pub struct LoopUpdate;

impl TypedTool for LoopUpdate {
    const NAME: &'static str = "loop.update";
    const DESCRIPTION: &'static str = "Tend an open thread: park it for later, abandon it (the story has moved past it) or merge it into the loop it duplicates, with the reason.";
    type Args = LoopUpdateArgs;
    type Output = OpenLoop;
    const ALIASES: &'static [(&'static str, &'static str)] = &[
        ("id", "loop_id"),
        ("note", "reason"),
        ("merge_into", "into"),
    ];

    fn id_fields(args: &Self::Args) -> Vec<(&'static str, &str, EntityKind)> {
        let mut fields = vec![("loop_id", args.loop_id.as_str(), EntityKind::Loop)];
        if let Some(into) = &args.into {
            fields.push(("into", into.as_str(), EntityKind::Loop));
        }
        fields
    }

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        memory::tend_loop(
            tx,
            &args.loop_id,
            args.action,
            &args.reason,
            args.into.as_deref(),
            ctx.tick,
            Self::NAME,
        )
        .map_err(ToolError::memory(Self::NAME))
    }
}
