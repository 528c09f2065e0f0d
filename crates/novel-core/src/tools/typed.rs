//! The shared shape of a tool: the context a call runs in, the untyped `Tool` the registry
//! runs and the `TypedTool` each tool is written against. It sits below both the tools and the
//! registry so neither has to reach into the other for it.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::ToolError;
use crate::ids::EntityKind;

/// What a tool may know about the tick it runs in.
#[derive(Debug, Clone, Copy)]
pub struct ToolContext<'a> {
    /// The tick being generated (the last committed tick + 1).
    pub tick: u32,
    /// The novel's retrieval (vectors, query embeddings made before the call); `None` searches
    /// by keywords alone.
    pub retrieval: Option<&'a crate::retrieval::Retrieval>,
}

impl ToolContext<'_> {
    /// A context for `tick` with keyword-only search.
    pub fn at(tick: u32) -> ToolContext<'static> {
        ToolContext {
            tick,
            retrieval: None,
        }
    }
}

/// A tool as the registry and executor see it: untyped JSON in, JSON out.
pub trait Tool: Send + Sync {
    fn name(&self) -> &'static str;
    fn description(&self) -> &'static str;
    fn args_schema(&self) -> &Value;
    /// Checks arguments without running anything.
    fn check_args(&self, args: &Value) -> Result<(), ToolError>;
    fn call(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: &Value,
    ) -> Result<Value, ToolError>;
}

/// A tool written against typed arguments; `register` adapts it into a `Tool`.
pub trait TypedTool: Send + Sync + 'static {
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    type Args: DeserializeOwned + JsonSchema;
    type Output: Serialize;
    /// Other names planners use for this tool's arguments, `(alias, canonical)`: renamed before
    /// validation when the canonical name is not given too.
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// Rewrites arguments given in another common shape into this tool's own (after aliases).
    fn canonical_args(&self, args: Value) -> Value {
        args
    }
    /// The arguments that name a story entity, `(field, value, kind)`: checked with the rest
    /// when a plan is validated, so a plan naming `A` for a character is repaired or salvaged
    /// before anything runs instead of failing halfway through its tools.
    fn id_fields(_args: &Self::Args) -> Vec<(&'static str, &str, EntityKind)> {
        Vec::new()
    }
    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, ToolError>;
}
