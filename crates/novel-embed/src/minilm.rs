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
/// Passages per inference call: large enough to amortise the call, small enough to keep
/// padding (to the longest passage of the batch) cheap.
const BATCH: usize = 32;

pub struct MiniLm {
    // `TextEmbedding::embed` takes `&mut self`; one inference at a time is what 2 cores allow.
    model: Mutex<TextEmbedding>,
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
        })
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
        // A batch is padded to its longest passage, so passages of similar length go together:
        // one long character record among short lines would make the whole batch pay for it.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut vectors: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for batch in order.chunks(BATCH) {
            let group: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
            let embedded = model
                .embed(&group, Some(BATCH))
                .map_err(|e| EmbedError::Inference(e.to_string()))?;
            for (&i, v) in batch.iter().zip(embedded) {
                vectors[i] = v;
            }
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
