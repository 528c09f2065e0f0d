//! Whether semantic search is on in this process, decided once: the model files are looked up
//! and loaded the first time anyone asks, and every later caller gets the same answer — the
//! loaded model, or the plain reason it is off and how to turn it on.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use crate::Embedder;
use crate::locate::SearchPaths;
use crate::minilm::MiniLm;

/// The variable CI sets so that tests needing the real model fail instead of skipping.
pub const REQUIRE_ENV: &str = "NOVEL_REQUIRE_EMBEDDINGS";

/// Semantic search in this process: on with an embedder, or off and why.
#[derive(Clone)]
pub enum Semantic {
    On(Arc<dyn Embedder>),
    Off(Unavailable),
}

impl std::fmt::Debug for Semantic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Semantic::On(e) => write!(f, "On({})", e.model_id()),
            Semantic::Off(u) => write!(f, "Off({})", u.reason),
        }
    }
}

impl Semantic {
    pub fn embedder(&self) -> Option<Arc<dyn Embedder>> {
        match self {
            Semantic::On(e) => Some(e.clone()),
            Semantic::Off(_) => None,
        }
    }
}

/// Why semantic search is off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    pub reason: String,
}

impl Unavailable {
    pub fn new(reason: impl Into<String>) -> Unavailable {
        Unavailable {
            reason: reason.into(),
        }
    }

    /// The one-paragraph notice fronts show once: what is off, what still works, how to fix it.
    pub fn notice(&self) -> String {
        format!(
            "Semantic search is off: {}. Memory search uses keywords only. To turn it on, run \
             scripts/fetch-embedding-model.sh from the Novel Agent source folder, or set \
             ORT_DYLIB_PATH to libonnxruntime.so and NOVEL_EMBEDDING_MODEL_DIR to the \
             all-MiniLM-L6-v2 folder, then run `novel reindex`.",
            self.reason
        )
    }
}

static LOCAL: OnceLock<Semantic> = OnceLock::new();

/// The local model, loaded on first use and shared by the whole process.
pub fn local() -> Semantic {
    LOCAL.get_or_init(load_local).clone()
}

fn load_local() -> Semantic {
    let files = match SearchPaths::from_process().find() {
        Ok(files) => files,
        Err(missing) => return Semantic::Off(Unavailable::new(missing.to_string())),
    };
    // A library of the wrong build can make the runtime bindings panic; that must turn into
    // "off", not take the program down.
    match std::panic::catch_unwind(AssertUnwindSafe(|| MiniLm::load(&files))) {
        Ok(Ok(model)) => {
            tracing::info!(runtime = %files.runtime.display(), model = %files.model_dir.display(), "semantic search on");
            Semantic::On(Arc::new(model))
        }
        Ok(Err(e)) => Semantic::Off(Unavailable::new(e.to_string())),
        Err(_) => Semantic::Off(Unavailable::new(format!(
            "ONNX Runtime at {} could not be used",
            files.runtime.display()
        ))),
    }
}

/// For tests that need the real model: the model when present; `None` (with a line on stderr)
/// when not — unless `NOVEL_REQUIRE_EMBEDDINGS=1`, which makes a missing model a failure, so
/// that CI, which fetches the model first, can never skip these tests silently.
pub fn local_or_required() -> Option<Arc<dyn Embedder>> {
    match local() {
        Semantic::On(e) => Some(e),
        Semantic::Off(why) => {
            let required = std::env::var(REQUIRE_ENV).is_ok_and(|v| v == "1");
            assert!(
                !required,
                "{REQUIRE_ENV}=1 but the embedding model is unavailable: {}",
                why.reason
            );
            eprintln!(
                "skipping: the real embedding model is unavailable: {}",
                why.reason
            );
            None
        }
    }
}
