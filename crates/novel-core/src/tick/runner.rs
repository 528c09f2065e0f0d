//! The bridge from the generic executor to the tool registry: each action runs as one registry
//! call (inside its own savepoint) on the tick's transaction, its `"$id.field"` arguments
//! filled in from the outputs of the actions it depends on. A `memory.search` query is
//! embedded first, asynchronously on the blocking pool, so the synchronous tool can search by
//! meaning without embedding on the runtime's thread.

use rusqlite::Transaction;
use serde_json::Value;

use crate::executor::{ActionInputs, ActionRunner, ExecAction, ToolFailure, resolve_references};
use crate::text::strip_controls_in_json;
use crate::tools::{MemorySearch, ToolContext, ToolRegistry, TypedTool};

pub struct RegistryRunner<'a, 'conn> {
    pub tx: &'a Transaction<'conn>,
    pub registry: &'a ToolRegistry,
    pub ctx: ToolContext<'a>,
}

impl ActionRunner for RegistryRunner<'_, '_> {
    async fn run(&self, action: &ExecAction, inputs: &ActionInputs) -> Result<Value, ToolFailure> {
        let mut args = resolve_references(&action.args, inputs)?;
        // Names and facts a tool stores come from the model: nothing in them may drive a terminal.
        strip_controls_in_json(&mut args);
        if action.tool == MemorySearch::NAME
            && let (Some(retrieval), Some(query)) = (
                self.ctx.retrieval,
                args.get("query").and_then(Value::as_str),
            )
        {
            retrieval.embed_query(query).await;
        }
        // Tools are synchronous SQLite work; "concurrency" here is interleaving on one task,
        // which keeps the single !Sync transaction safe.
        self.registry
            .call(self.tx, &self.ctx, &action.tool, &args)
            .map_err(|e| {
                if e.is_transient() {
                    ToolFailure::transient(e.to_string())
                } else {
                    ToolFailure::permanent(e.to_string())
                }
            })
    }
}
