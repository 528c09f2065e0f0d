//! `lore.add`: record a world fact so later scenes stay consistent with it.

use rusqlite::Transaction;

use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::memory::{self, NewLore};
use crate::model::LoreFact;

pub struct LoreAdd;

impl TypedTool for LoreAdd {
    const NAME: &'static str = "lore.add";
    const DESCRIPTION: &'static str = "Record a fact about the world (history, magic, customs, places) with keywords that recall it later.";
    type Args = NewLore;
    type Output = LoreFact;

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        memory::add_lore(tx, args, ctx.tick, Some(ctx.tick), Self::NAME)
            .map_err(ToolError::memory(Self::NAME))
    }
}
