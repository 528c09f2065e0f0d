//! Local sentence embeddings for Novel Agent's memory, and nothing about stories. An
//! [`Embedder`] turns passages into unit-length vectors; [`MiniLm`] is the real one
//! (all-MiniLM-L6-v2 through `fastembed`, ONNX Runtime loaded from a file at run time), and
//! [`HashEmbedder`] a deterministic stand-in for tests and benchmarks. [`local`] finds the
//! model files (see [`locate`]) once per process and says plainly why semantic search is off
//! when they are missing: embeddings are derived data, never required.

mod availability;
mod hashing;
pub mod locate;
mod minilm;
pub mod vector;

pub use availability::{Semantic, Unavailable, local, local_or_required};
pub use hashing::HashEmbedder;
pub use minilm::{MINILM_DIMENSION, MINILM_ID, MiniLm};

/// Turns texts into vectors of one fixed dimension, each of unit length so that a dot product
/// is the cosine similarity.
///
/// `embed` is blocking CPU work (tens of milliseconds per batch): call it from a blocking
/// thread (`tokio::task::spawn_blocking`), never on an async runtime's worker.
pub trait Embedder: Send + Sync {
    /// Names the model; vectors made under another id are stale and must be rebuilt.
    fn model_id(&self) -> &str;
    fn dimension(&self) -> usize;
    /// One vector per text, in order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot load ONNX Runtime from {path}: {message}")]
    Runtime {
        path: std::path::PathBuf,
        message: String,
    },
    #[error("cannot load the embedding model: {0}")]
    Model(String),
    #[error("embedding failed: {0}")]
    Inference(String),
}
