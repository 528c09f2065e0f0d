//! Why retrieval failed: the store could not be read, the embedder failed, or its task on the
//! blocking pool stopped.

use novel_embed::EmbedError;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum RetrievalError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("the embedding task stopped: {0}")]
    Task(String),
}
