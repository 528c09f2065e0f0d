//! The real embedder: all-MiniLM-L6-v2 (int8 ONNX, 384 dimensions, mean pooling) run by
//! `fastembed` on an ONNX Runtime library loaded from a file at run time — nothing is
//! downloaded, at build time or later.

use std::sync::Mutex;

use fastembed::{
    InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel,
};

use crate::locate::ModelFiles;
use crate::vector::normalize;
use crate::{EmbedError, Embedder};

/// The id stored with every vector this model makes.
pub const MINILM_ID: &str = "all-MiniLM-L6-v2-int8";
pub const MINILM_DIMENSION: usize = 384;
/// The model was trained on passages up to 256 word pieces; longer input is truncated.
const MAX_TOKENS: usize = 256;
/// Passages per inference call: one. A batch is padded to its longest passage and attention
/// grows with the square of the length, so on the CPU batching costs more than the calls it
/// saves, and ONNX Runtime's arena keeps the largest batch's buffers for the life of the
/// process. Measured on 2 cores (`examples/model_memory.rs`), 50 rounds of 13 passages of
/// 12–240 words: one at a time 13 s and 15 MB over the loaded model, in batches of 13 28 s and
/// 450 MB; of 12–36 words, about the same time either way and 1.4 MB against 15 MB.
const BATCH: usize = 1;

pub struct MiniLm {
    // `TextEmbedding::embed` takes `&mut self`; one inference at a time is what 2 cores allow.
    model: Mutex<TextEmbedding>,
    batch: usize,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MiniLm")
    }
}

impl MiniLm {
    /// Loads the runtime library and the model. Slow (about a second): do it once per process.
    pub fn load(files: &ModelFiles) -> Result<MiniLm, EmbedError> {
        let runtime_err = |message: String| EmbedError::Runtime {
            path: files.runtime.clone(),
            message,
        };
        let environment = ort::init_from(&files.runtime)
            .map_err(|e| runtime_err(e.to_string()))?
            .with_name("novel-embed")
            .build()
            .map_err(|e| runtime_err(e.to_string()))?;
        let read = |name: &str| {
            let path = files.model_dir.join(name);
            std::fs::read(&path).map_err(|source| EmbedError::Read { path, source })
        };
        let tokenizer = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        let model = UserDefinedEmbeddingModel::new(read("model.onnx")?, tokenizer)
            .with_pooling(Pooling::Mean);
        let options = InitOptionsUserDefined::new()
            .with_environment(environment)
            .with_max_length(MAX_TOKENS);
        let model = TextEmbedding::try_new_from_user_defined(model, options)
            .map_err(|e| EmbedError::Model(e.to_string()))?;
        Ok(MiniLm {
            model: Mutex::new(model),
            batch: BATCH,
        })
    }

    /// The same model run on `passages` per inference call instead of one, to measure what
    /// batching costs (`examples/model_memory.rs`).
    pub fn with_batch(mut self, passages: usize) -> MiniLm {
        self.batch = passages.max(1);
        self
    }
}

impl Embedder for MiniLm {
    fn model_id(&self) -> &str {
        MINILM_ID
    }

    fn dimension(&self) -> usize {
        MINILM_DIMENSION
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut model = self
            .model
            .lock()
            .map_err(|_| EmbedError::Inference("an earlier embedding call panicked".into()))?;
        let mut vectors = model
            .embed(texts, Some(self.batch))
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
        if vectors.len() != texts.len() {
            return Err(EmbedError::Inference(format!(
                "the model returned {} vectors for {} passages",
                vectors.len(),
                texts.len()
            )));
        }
        for v in &mut vectors {
            if v.len() != MINILM_DIMENSION {
                return Err(EmbedError::Inference(format!(
                    "the model returned {} dimensions, expected {MINILM_DIMENSION}",
                    v.len()
                )));
            }
            normalize(v);
        }
        Ok(vectors)
    }
}
