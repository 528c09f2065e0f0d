//! `memory.search`: find what the story already knows before inventing more (keyword search now;
//! the retrieval issue makes it hybrid with embeddings behind the same arguments).

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ToolContext, ToolError, TypedTool};
use crate::ids::EntityKind;
use crate::memory::MemoryError;
use crate::store::{self, SearchHit};

pub struct MemorySearch;

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemorySearchArgs {
    /// What to look for, in plain words.
    pub query: String,
    /// Restrict to these kinds; empty searches everything.
    #[serde(default)]
    pub entity_types: Vec<EntityKind>,
    /// How many results, 1–20 (default 5).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub limit: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct MemorySearchOutput {
    pub hits: Vec<SearchHit>,
}

impl TypedTool for MemorySearch {
    const NAME: &'static str = "memory.search";
    const DESCRIPTION: &'static str = "Search the story memory (characters, locations, relationships, open loops, lore, scene summaries) by keywords. Use it before inventing new lore.";
    type Args = MemorySearchArgs;
    type Output = MemorySearchOutput;

    fn run(
        &self,
        tx: &Transaction<'_>,
        _ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let limit = args.limit.unwrap_or(5).clamp(1, 20);
        let hits = store::search(tx, &args.query, &args.entity_types, limit)
            .map_err(|e| ToolError::memory(Self::NAME)(MemoryError::Store(e)))?;
        Ok(MemorySearchOutput { hits })
    }
}
