//! `memory.search`: find what the story already knows before inventing more. Hybrid: keywords
//! (BM25) and meaning (embeddings) fused, when the tick embedded the query beforehand (the
//! runner does, off the async runtime); keywords alone otherwise. Filters by kind and ticks.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::ToolError;
use super::typed::{ToolContext, TypedTool};
use crate::ids::EntityKind;
use crate::memory::MemoryError;
use crate::retrieval::Mode;
use crate::store::{self, SearchFilter, SearchHit};

pub struct MemorySearch;

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemorySearchArgs {
    /// What to look for, in plain words: a name, or a description of the fact.
    pub query: String,
    /// Restrict to these kinds; empty searches everything.
    #[serde(default)]
    pub entity_types: Vec<EntityKind>,
    /// Only what happened at or after this tick.
    #[serde(default)]
    pub from_tick: Option<u32>,
    /// Only what happened at or before this tick.
    #[serde(default)]
    pub to_tick: Option<u32>,
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
    const DESCRIPTION: &'static str = "Search the story memory (characters, locations, relationships, open loops, lore, scene summaries and prose) by names or by meaning, optionally by kind and tick range. Use it before inventing new lore.";
    type Args = MemorySearchArgs;
    type Output = MemorySearchOutput;

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError> {
        let limit = args.limit.unwrap_or(5).clamp(1, 20);
        let filter = SearchFilter {
            kinds: args.entity_types,
            from_tick: args.from_tick,
            to_tick: args.to_tick,
        };
        let store_err = |e| ToolError::memory(Self::NAME)(MemoryError::Store(e));
        let hits = match ctx.retrieval {
            Some(retrieval) => {
                let vector = retrieval.memo(&args.query);
                retrieval
                    .search(
                        tx,
                        &args.query,
                        &filter,
                        limit,
                        vector.as_deref().map(Vec::as_slice),
                        Mode::Hybrid,
                    )
                    .map_err(store_err)?
                    .into_iter()
                    .map(|r| r.hit)
                    .collect()
            }
            None => store::keyword_search(tx, &args.query, &filter, limit)
                .map_err(store_err)?
                .into_iter()
                .map(|k| k.hit)
                .collect(),
        };
        Ok(MemorySearchOutput { hits })
    }
}
