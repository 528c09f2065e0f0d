//! The typed-tool adapter that validates and parses arguments, and the registry.

use std::collections::BTreeMap;
use std::sync::Arc;

use rusqlite::Transaction;
use serde_json::Value;

use super::error::ToolError;
use super::typed::{Tool, ToolContext, TypedTool};
use crate::ids::EntityId;
use crate::schema::{SchemaValidator, Violation};

struct Typed<T: TypedTool> {
    tool: T,
    validator: SchemaValidator,
}

/// `args` with each alias renamed to its canonical name (unless both are given).
fn apply_aliases(mut args: Value, aliases: &[(&str, &str)]) -> Value {
    if let Some(map) = args.as_object_mut() {
        for (alias, canonical) in aliases {
            if !map.contains_key(*canonical)
                && let Some(value) = map.remove(*alias)
            {
                map.insert((*canonical).to_string(), value);
            }
        }
    }
    args
}

impl<T: TypedTool> Typed<T> {
    fn parse(&self, args: &Value) -> Result<T::Args, ToolError> {
        let args = &self
            .tool
            .canonical_args(apply_aliases(args.clone(), T::ALIASES));
        let invalid = |violations| ToolError::InvalidArgs {
            tool: T::NAME.to_string(),
            violations,
        };
        let violations = self.validator.violations(args);
        if !violations.is_empty() {
            return Err(invalid(violations));
        }
        serde_path_to_error::deserialize(args).map_err(|e| {
            let field = e.path().to_string();
            invalid(vec![Violation {
                field,
                message: e.into_inner().to_string(),
            }])
        })
    }
}

impl<T: TypedTool> Tool for Typed<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }
    fn args_schema(&self) -> &Value {
        self.validator.schema()
    }
    fn check_args(&self, args: &Value) -> Result<(), ToolError> {
        let args = self.parse(args)?;
        // "$a1.id" names what an earlier action returns: known only when it has run.
        let violations: Vec<Violation> = T::id_fields(&args)
            .into_iter()
            .filter(|(_, value, _)| !value.trim_start().starts_with('$'))
            .filter_map(|(field, value, kind)| {
                EntityId::parse_kind(value, kind).err().map(|_| Violation {
                    field: field.to_string(),
                    message: format!(
                        "`{}` is not a {kind} id: write one like {}0",
                        value.chars().take(40).collect::<String>(),
                        kind.prefix()
                    ),
                })
            })
            .collect();
        if violations.is_empty() {
            Ok(())
        } else {
            Err(ToolError::InvalidArgs {
                tool: T::NAME.to_string(),
                violations,
            })
        }
    }
    fn call(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        args: &Value,
    ) -> Result<Value, ToolError> {
        let args = self.parse(args)?;
        let output = self.tool.run(tx, ctx, args)?;
        serde_json::to_value(output).map_err(|e| ToolError::Output {
            tool: T::NAME.into(),
            message: e.to_string(),
        })
    }
}

/// The set of tools the planner may use, by name.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<&'static str, Arc<dyn Tool>>,
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.tools.keys()).finish()
    }
}

impl ToolRegistry {
    /// Every tool the planner may use: memory search, characters, locations, relationships, lore.
    pub fn standard() -> ToolRegistry {
        let mut r = ToolRegistry::default();
        r.register(super::memory_search::MemorySearch);
        r.register(super::character::CharacterGenerate);
        r.register(super::character::CharacterUpdate);
        r.register(super::location::LocationGenerate);
        r.register(super::location::LocationUpdate);
        r.register(super::relationship::RelationshipCreate);
        r.register(super::relationship::RelationshipUpdate);
        r.register(super::relationship::RelationshipQuery);
        r.register(super::lore::LoreAdd);
        r.register(super::loops::LoopUpdate);
        r
    }

    pub fn register<T: TypedTool>(&mut self, tool: T) {
        let validator = SchemaValidator::for_type::<T::Args>();
        self.tools
            .insert(T::NAME, Arc::new(Typed { tool, validator }));
    }

    /// A registry without the named tools (replanning with failing tools disabled).
    pub fn without(&self, disabled: &[String]) -> ToolRegistry {
        let mut r = self.clone();
        r.tools
            .retain(|name, _| !disabled.iter().any(|d| d == name));
        r
    }

    pub fn names(&self) -> Vec<String> {
        self.tools.keys().map(|n| n.to_string()).collect()
    }

    pub fn get(&self, name: &str) -> Result<&Arc<dyn Tool>, ToolError> {
        self.tools.get(name).ok_or_else(|| ToolError::UnknownTool {
            name: name.chars().take(80).collect(),
            available: self.names(),
        })
    }

    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.tools.values()
    }

    /// Rejects an unknown tool or invalid arguments, running nothing.
    pub fn check(&self, name: &str, args: &Value) -> Result<(), ToolError> {
        self.get(name)?.check_args(args)
    }

    /// Runs one call inside a savepoint: on error, nothing it wrote remains.
    pub fn call(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        name: &str,
        args: &Value,
    ) -> Result<Value, ToolError> {
        let tool = self.get(name)?;
        crate::store::with_savepoint(tx, || tool.call(tx, ctx, args))
    }
}
