//! Hybrid search: the keyword ranking and the vector ranking of the same filtered passages,
//! fused (see [`super::fuse`]), with a snippet for every hit — the keyword index's own
//! snippet where it matched, the passage's opening words where only the meaning did.

use std::sync::Arc;

use rusqlite::Connection;

use super::fuse::fuse;
use super::handle::Retrieval;
use super::vector_index::VectorIndex;
use crate::store::{self, SearchFilter, SearchHit, StoreResult};

/// What to ask the memory for the "recalled" section: passages of earlier scenes (those shown
/// in detail are already in the prompt) relevant to what comes next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecallQuery {
    pub text: String,
    pub filter: SearchFilter,
    pub limit: u32,
}

/// Which rankings a search uses; `Hybrid` falls back to keywords without vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Hybrid,
    KeywordOnly,
    SemanticOnly,
}

/// A hit with where each ranking put it (0-based), for tests and diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedHit {
    pub chunk_id: i64,
    pub hit: SearchHit,
    pub keyword_rank: Option<usize>,
    pub semantic_rank: Option<usize>,
}

/// How deep each ranking is read before fusing: deeper than the answer, so that a passage both
/// rankings place moderately well can still rise.
fn depth(limit: u32) -> u32 {
    (limit * 4).max(40)
}

impl Retrieval {
    /// Embeds `text` (off the runtime), then searches.
    pub async fn hybrid(
        &self,
        conn: &Connection,
        text: &str,
        filter: &SearchFilter,
        limit: u32,
    ) -> StoreResult<Vec<RankedHit>> {
        let vector = self.embed_query(text).await;
        self.search(
            conn,
            text,
            filter,
            limit,
            vector.as_deref().map(Vec::as_slice),
            Mode::Hybrid,
        )
    }

    /// Searches with a query vector computed beforehand (`None`: keywords only).
    pub fn search(
        &self,
        conn: &Connection,
        text: &str,
        filter: &SearchFilter,
        limit: u32,
        vector: Option<&[f32]>,
        mode: Mode,
    ) -> StoreResult<Vec<RankedHit>> {
        let limit = limit.max(1);
        let deep = depth(limit);
        let keyword = if mode == Mode::SemanticOnly {
            Vec::new()
        } else {
            store::keyword_ranking(conn, text, filter, deep)?
        };
        let semantic = match (mode, vector) {
            (Mode::KeywordOnly, _) | (_, None) => Vec::new(),
            (_, Some(v)) => match self.vector_index(conn)? {
                Some(index) => index.top_k(v, filter, deep as usize),
                None => Vec::new(),
            },
        };
        let keyword_ids: Vec<i64> = keyword.iter().map(|k| k.chunk_id).collect();
        let semantic_ids: Vec<i64> = semantic.iter().map(|(id, _)| *id).collect();
        let fused = fuse(&keyword_ids, &semantic_ids);
        let mut out = Vec::with_capacity(limit as usize);
        // Only the hits shown are read and given a snippet.
        for f in fused.iter().take(limit as usize) {
            let Some(hit) =
                store::describe_hit(conn, text, f.id, f.score, f.keyword_rank.is_some())?
            else {
                continue; // deleted since the ranking (another writer)
            };
            out.push(RankedHit {
                chunk_id: f.id,
                hit,
                keyword_rank: f.keyword_rank,
                semantic_rank: f.semantic_rank,
            });
        }
        Ok(out)
    }

    /// The in-memory vectors of the current model, reloaded when the store's have changed;
    /// `None` without an embedder or when the stored vectors are another model's.
    fn vector_index(&self, conn: &Connection) -> StoreResult<Option<Arc<VectorIndex>>> {
        let Some(embedder) = self.embedder() else {
            return Ok(None);
        };
        let key = VectorIndex::current_key(conn, embedder.model_id())?;
        let mut stale = None;
        if let Ok(mut cached) = self.index.lock() {
            if let Some(index) = cached.as_ref()
                && index.key == key
            {
                return Ok(Some(index.clone()));
            }
            stale = cached.take();
        }
        // The stale copy's buffers are refilled when no search still holds it.
        let spare = stale.and_then(|index| Arc::try_unwrap(index).ok());
        let index = Arc::new(VectorIndex::load(conn, key, embedder.dimension(), spare)?);
        if index.len() == 0 {
            return Ok(None);
        }
        if let Ok(mut cached) = self.index.lock() {
            *cached = Some(index.clone());
        }
        Ok(Some(index))
    }
}

impl Retrieval {
    /// The passages a prompt's "recalled" section asks for. Recall is an aid: a failing
    /// search is logged and recalls nothing.
    pub async fn recall(&self, conn: &Connection, query: &RecallQuery) -> Vec<SearchHit> {
        match self
            .hybrid(conn, &query.text, &query.filter, query.limit)
            .await
        {
            Ok(hits) => hits.into_iter().map(|r| r.hit).collect(),
            Err(e) => {
                tracing::warn!("recall failed: {e}");
                Vec::new()
            }
        }
    }
}
