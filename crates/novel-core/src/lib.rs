//! The Novel Agent engine: a novel's directory and store, its story memory (characters,
//! locations, relationships, open loops, lore, scenes, ticks), the typed tools the planner
//! calls, plan validation, the plan executor and manuscript export. It knows nothing of any
//! user interface: the CLI and the desktop shell are thin fronts over this crate.

pub mod backup;
pub mod clock;
pub mod config;
pub mod context;
pub mod edits;
pub mod evaluate;
pub mod executor;
pub mod export;
pub mod fsutil;
pub mod ids;
pub mod library;
pub mod lock;
pub mod memory;
pub mod merge;
pub mod model;
pub mod novel;
pub mod plan;
pub mod prompts;
pub mod reconcile;
pub mod retrieval;
pub mod run;
pub mod schema;
pub mod seed;
#[cfg(feature = "specta")]
pub mod specta_types;
pub mod store;
pub mod synthetic;
pub mod tick;
pub mod tools;
pub mod views;
