//! Keeping vectors in step with the passages: embed what has no vector yet (inside the caller's
//! transaction, so a tick's vectors commit with its scene), start over when the model changed,
//! and rebuild everything for `novel reindex`.

use rusqlite::Transaction;
use serde::Serialize;

use super::error::RetrievalError;
use super::handle::{Retrieval, embed_off_runtime};
use crate::store::{self, Chunk};

/// Passages embedded per blocking call.
const EMBED_BATCH: usize = 128;

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    /// Passages that got a vector.
    pub embedded: usize,
    /// The stored vectors were another model's and were all replaced.
    pub model_changed: bool,
}

/// What `novel reindex` rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReindexReport {
    /// Passages in the keyword index.
    pub chunks: usize,
    /// Passages with a vector.
    pub embedded: usize,
    /// Chapter and arc summary lines.
    pub rollups: usize,
    /// The embedding model, when semantic search is on.
    pub model: Option<String>,
    pub dimension: Option<usize>,
    /// Why semantic search is off and how to turn it on.
    pub notice: Option<String>,
}

impl Retrieval {
    /// Gives every passage without a vector one; replaces all vectors first when they are
    /// another model's. Without an embedder it does nothing (the passages wait).
    pub async fn sync(&self, tx: &Transaction<'_>) -> Result<SyncReport, RetrievalError> {
        let Some(embedder) = self.embedder().cloned() else {
            return Ok(SyncReport::default());
        };
        let model = embedder.model_id().to_string();
        let meta = store::vector_meta(tx)?;
        let mut report = SyncReport::default();
        if meta.model.as_deref() != Some(model.as_str()) || meta.dim != Some(embedder.dimension()) {
            report.model_changed = meta.model.is_some();
            if report.model_changed {
                tracing::info!(
                    from = meta.model.as_deref().unwrap_or("-"),
                    to = %model,
                    "embedding model changed: re-embedding every passage"
                );
            }
            store::reset_vectors(tx, &model, embedder.dimension())?;
        }
        loop {
            let pending = store::pending_chunks(tx, EMBED_BATCH)?;
            if pending.is_empty() {
                break;
            }
            let texts: Vec<String> = pending.iter().map(Chunk::embedding_text).collect();
            let vectors = embed_off_runtime(embedder.clone(), texts).await?;
            let rows: Vec<(i64, Vec<f32>)> = pending.iter().map(|c| c.id).zip(vectors).collect();
            store::put_vectors(tx, &model, &rows)?;
            report.embedded += rows.len();
        }
        Ok(report)
    }

    /// Recreates every passage, roll-up and vector from the source tables.
    pub async fn rebuild(&self, tx: &Transaction<'_>) -> Result<ReindexReport, RetrievalError> {
        let chunks = store::rebuild_search_index(tx)?;
        let rollups = crate::store::rebuild_rollups(tx)?;
        if let Some(e) = self.embedder() {
            store::reset_vectors(tx, e.model_id(), e.dimension())?;
        }
        self.sync(tx).await?;
        let meta = store::vector_meta(tx)?;
        Ok(ReindexReport {
            chunks,
            embedded: meta.count,
            rollups,
            model: self.model_id().map(str::to_string),
            dimension: self.embedder().map(|e| e.dimension()),
            notice: self.notice(),
        })
    }
}
