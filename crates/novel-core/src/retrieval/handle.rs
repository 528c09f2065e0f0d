//! The per-novel retrieval handle: the embedder if semantic search is on (or why it is off),
//! the cached vectors and the query vectors already computed, and embedding on tokio's
//! blocking pool, which searching and syncing share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use novel_embed::{Embedder, Semantic, Unavailable};

use super::error::RetrievalError;
use super::vector_index::VectorIndex;

/// Query vectors kept for reuse; a tick asks for a handful, so a small bound suffices.
const QUERY_MEMO: usize = 64;

/// Retrieval for one novel.
pub struct Retrieval {
    semantic: Semantic,
    /// The cached vectors, loaded on first search (see `hybrid`).
    pub(super) index: Mutex<Option<Arc<VectorIndex>>>,
    queries: Mutex<HashMap<String, Arc<Vec<f32>>>>,
}

impl std::fmt::Debug for Retrieval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retrieval")
            .field("semantic", &self.semantic)
            .finish()
    }
}

impl Retrieval {
    pub fn new(semantic: Semantic) -> Retrieval {
        Retrieval {
            semantic,
            index: Mutex::new(None),
            queries: Mutex::new(HashMap::new()),
        }
    }

    /// Semantic search with this embedder.
    pub fn with_embedder(embedder: Arc<dyn Embedder>) -> Retrieval {
        Retrieval::new(Semantic::On(embedder))
    }

    /// Keywords only, for the reason given.
    pub fn keyword_only(reason: impl Into<String>) -> Retrieval {
        Retrieval::new(Semantic::Off(Unavailable::new(reason)))
    }

    /// The machine's local model (see `novel_embed::locate`), or keywords only when it is
    /// missing. The model is loaded once per process.
    pub fn local() -> Retrieval {
        Retrieval::new(novel_embed::local())
    }

    pub fn embedder(&self) -> Option<&Arc<dyn Embedder>> {
        match &self.semantic {
            Semantic::On(e) => Some(e),
            Semantic::Off(_) => None,
        }
    }

    pub fn is_semantic(&self) -> bool {
        self.embedder().is_some()
    }

    /// The model vectors are made with, when semantic search is on.
    pub fn model_id(&self) -> Option<&str> {
        self.embedder().map(|e| e.model_id())
    }

    /// Why semantic search is off and how to turn it on; `None` when it is on.
    pub fn notice(&self) -> Option<String> {
        match &self.semantic {
            Semantic::On(_) => None,
            Semantic::Off(why) => Some(why.notice()),
        }
    }

    /// The vector of `text`, computed on the blocking pool and remembered; `None` without an
    /// embedder or when embedding fails (the search then falls back to keywords).
    pub async fn embed_query(&self, text: &str) -> Option<Arc<Vec<f32>>> {
        let embedder = self.embedder()?.clone();
        if let Some(v) = self.memo(text) {
            return Some(v);
        }
        let vectors = match embed_off_runtime(embedder, vec![text.to_string()]).await {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!("query embedding failed, searching by keywords: {e}");
                return None;
            }
        };
        let vector = Arc::new(vectors.into_iter().next()?);
        if let Ok(mut memo) = self.queries.lock() {
            if memo.len() >= QUERY_MEMO {
                memo.clear();
            }
            memo.insert(text.to_string(), vector.clone());
        }
        Some(vector)
    }

    /// A query vector [`Self::embed_query`] already computed.
    pub fn memo(&self, text: &str) -> Option<Arc<Vec<f32>>> {
        self.queries.lock().ok()?.get(text).cloned()
    }
}

/// Runs the embedder on tokio's blocking pool.
pub(crate) async fn embed_off_runtime(
    embedder: Arc<dyn Embedder>,
    texts: Vec<String>,
) -> Result<Vec<Vec<f32>>, RetrievalError> {
    let vectors = tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        embedder.embed(&refs)
    })
    .await
    .map_err(|e| RetrievalError::Task(e.to_string()))??;
    Ok(vectors)
}
