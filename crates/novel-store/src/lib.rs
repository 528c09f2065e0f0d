//! The bottom of the Novel Agent engine: plain story data (characters, places, loops, scenes,
//! ticks), a novel's settings, id minting rules, deep merge, JSON Schemas from types, text
//! hygiene, word diffs, the names inside a novel's folder, its lock, and the store: the one
//! owner of `novel.db`, its schema and migrations, and the data derived from it.
//!
//! Nothing here knows a story's logic (what a scene must do, how memory changes are checked,
//! what a prompt says): that is `novel-core`, built on this crate. The split is the one the
//! imports draw: none of these modules, their tests included, uses anything above them, and
//! everything above uses them. `docs/ARCHITECTURE.md` explains each layer.

// Layer 0 — foundations: plain data and helpers with no story logic.
pub mod clock;
pub mod config;
pub mod diff;
pub mod fsutil;
pub mod ids;
pub mod layout;
pub mod lock;
pub mod merge;
pub mod model;
pub mod schema;
#[cfg(feature = "specta")]
pub mod specta_types;
pub mod text;

// Layer 1 — the store: the one owner of `novel.db`, its schema, and derived data.
pub mod store;
