//! The Novel Agent engine: a novel's directory and store, its story memory (characters,
//! locations, relationships, open loops, lore, scenes, ticks), the typed tools the planner
//! calls, plan validation, the plan executor, the story tick and manuscript export. It knows
//! nothing of any user interface: the CLI and the desktop shell are thin fronts over this crate.
//!
//! The modules form layers, and a module uses only modules of its own layer or those below
//! (`tests/engine/layers.rs` fails the build on an upward `use`). `docs/ARCHITECTURE.md` explains
//! each layer.
//!
//! The front ends see layer 7 (what they call), the plain data of layer 0, and the few types
//! of the inner layers re-exported below or by a layer-7 module; the inner layers (1–6) are
//! private to the engine. Its own tests, examples and benchmarks reach them through the
//! `test-support` feature.

/// Declares modules of the engine's inner layers: private, except with the `test-support`
/// feature, where the engine's own tests, examples and benchmarks use them directly.
macro_rules! inner {
    ($($name:ident),* $(,)?) => {
        $(
            #[cfg(feature = "test-support")]
            pub mod $name;
            // Without the tests, what only they use (re-exports, helpers) is unused here.
            #[cfg(not(feature = "test-support"))]
            #[allow(unused_imports, dead_code)]
            mod $name;
        )*
    };
}

// Layers 0 and 1 — plain data, settings, ids, text, and the store that owns `novel.db` — are
// the `novel-store` crate. Their modules keep their paths here (`crate::store`, `crate::model`);
// the plain-data ones are part of this crate's API, the store and its helpers are not.
#[cfg(feature = "specta")]
pub(crate) use novel_store::specta_types;
pub use novel_store::{clock, config, diff, ids, layout, model, text};
use novel_store::{fsutil, merge, schema};
#[cfg(feature = "test-support")]
pub use novel_store::{lock, store};
#[cfg(not(feature = "test-support"))]
use novel_store::{lock, store};

// Layer 2 — memory and search over the store, moves through recorded history, and the
// deterministic checks.
inner!(branches, evaluate, memory, retrieval);

// Layer 3 — a novel on disk (opening, backups, the readable files kept in line with the
// database) and the typed tools the planner calls.
inner!(backup, files, novel, reconcile, tools);

// Layer 4 — plans and their executor.
inner!(executor, plan);

// Layer 5 — what the prompts say: bounded story context, then the templates.
inner!(context, prompts);

// Layer 6 — the story tick.
inner!(tick);

// Layer 7 — what the front ends call: runs and each role's model, the writer's edits (the
// story bible, chapters, a name replaced across the book), read models, checks, backups, export
// and import, the library of novels, seed files, and generated novels for tests and benchmarks,
// and the book audit.
pub mod audit;
pub mod backups;
pub mod bible;
pub mod chapters;
pub mod checks;
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

// The handle on a novel and the errors a front end tells apart.
pub use branches::BranchError;
pub use novel::{Access, Novel, NovelError, NovelSeed};
pub use novel_store::lock::LockError;
pub use novel_store::store::StoreError;
