//! The bridge from the generic executor to the tool registry: each action runs as one registry
//! call (inside its own savepoint) on the tick's transaction.

use rusqlite::Transaction;
use serde_json::Value;

use crate::executor::{ActionInputs, ActionRunner, ExecAction, ToolFailure};
use crate::tools::{ToolContext, ToolRegistry};

pub struct RegistryRunner<'a, 'conn> {
    pub tx: &'a Transaction<'conn>,
    pub registry: &'a ToolRegistry,
    pub ctx: ToolContext,
}

impl ActionRunner for RegistryRunner<'_, '_> {
    async fn run(&self, action: &ExecAction, _inputs: &ActionInputs) -> Result<Value, ToolFailure> {
        // Tools are synchronous SQLite work; "concurrency" here is interleaving on one task,
        // which keeps the single !Sync transaction safe.
        self.registry
            .call(self.tx, &self.ctx, &action.tool, &action.args)
            .map_err(|e| {
                if e.is_transient() {
                    ToolFailure::transient(e.to_string())
                } else {
                    ToolFailure::permanent(e.to_string())
                }
            })
    }
}
