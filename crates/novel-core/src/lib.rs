//! The Novel Agent engine: a novel's directory and store, its story memory (characters,
//! locations, relationships, open loops, lore, scenes, ticks), the typed tools the planner
//! calls, plan validation, the plan executor, the story tick and manuscript export. It knows
//! nothing of any user interface: the CLI and the desktop shell are thin fronts over this crate.
//!
//! The modules form layers, and a module uses only modules of its own layer or those below
//! (`tests/engine/layers.rs` fails the build on an upward `use`). `docs/ARCHITECTURE.md` explains
//! each layer.

// Layers 0 and 1 — plain data, settings, ids, text, and the store that owns `novel.db` — are
// the `novel-store` crate. Their modules keep their paths here (`crate::store`, `crate::model`);
// the plain-data ones are part of this crate's API, the store and its helpers are not.
#[cfg(feature = "specta")]
pub(crate) use novel_store::specta_types;
pub use novel_store::{clock, config, diff, ids, layout, lock, model, store, text};
pub(crate) use novel_store::{fsutil, merge, schema};

// Layer 2 — memory and search over the store, moves through recorded history, and the
// deterministic checks.
pub mod branches;
pub mod evaluate;
pub mod memory;
pub mod retrieval;

// Layer 3 — a novel on disk (opening, backups, the readable files kept in line with the
// database) and the typed tools the planner calls.
pub mod backup;
pub mod files;
pub mod novel;
pub mod reconcile;
pub mod restore;
pub mod tools;

// Layer 4 — plans and their executor.
pub mod executor;
pub mod plan;

// Layer 5 — what the prompts say: bounded story context, then the templates.
pub mod context;
pub mod prompts;

// Layer 6 — the story tick.
pub mod tick;

// Layer 7 — what the front ends call: runs and each role's model, the writer's edits (the
// story bible, chapters, a name replaced across the book), read models, export and import, the
// library of novels, seed files, and generated novels for tests and benchmarks, and the book audit.
pub mod audit;
pub mod bible;
pub mod chapters;
pub mod control;
pub mod edits;
pub mod export;
pub mod import;
pub mod library;
pub mod role_models;
pub mod run;
// Alphabetically before `run`; placed after it to keep merges with `main` clean.
pub mod rename;
pub mod seed;
pub mod shape;
#[cfg(any(test, feature = "test-support"))]
pub mod synthetic;
pub mod views;
