//! Memory retrieval that scales: keyword search (SQLite FTS5, BM25) and semantic search (local
//! embeddings, brute-force cosine over vectors cached in memory) fused by reciprocal rank, with
//! filters by kind and tick range. This is what `memory.search` and the context builder's
//! "recalled" section use.
//!
//! A [`Retrieval`] is the per-novel handle: the embedder if semantic search is on (or why it is
//! off), the cached vectors, and the query vectors already computed. Embedding is blocking CPU
//! work and always runs on tokio's blocking pool, never on the async runtime's threads: async
//! callers embed first ([`Retrieval::embed_query`]), synchronous code (tools inside a
//! transaction) then searches with what was embedded. Without an embedder everything works on
//! keywords alone.

mod error;
mod fuse;
mod handle;
mod hybrid;
mod sync;
mod vector_index;

pub use error::RetrievalError;
pub use handle::Retrieval;
pub use hybrid::{Mode, RankedHit, RecallQuery};
pub use sync::{ReindexReport, SyncReport};

#[cfg(test)]
mod tests;
