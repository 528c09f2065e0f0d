//! Counting tokens the way the profile's model does, where that is possible: the model's own
//! `tokenizer.json` (the profile's `tokenizer_file`, read with the `tokenizers` crate), else a
//! local llama.cpp server's `POST /tokenize`, else the o200k estimate of [`crate::count_tokens`].
//! Counts are cheap to ask for: a server's answers are cached by text, counters are shared per
//! server and per file for the life of the process, and a server without `/tokenize` is asked
//! once. Every count also feeds a calibration — model tokens per estimated token — so code that
//! must count many small pieces synchronously (the context budgets) can use the estimate scaled
//! by [`TokenCounter::ratio`] and count the whole prompt exactly once.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::LlmError;
use crate::fetch::{FetchError, Fetcher, is_local, server_root};
use crate::profile::provider::{ProviderKind, ProviderProfile};
use crate::secret::redact_secrets;
use crate::tokens::estimate::{PER_MESSAGE, REPLY_PRIMING, count_tokens};
use crate::types::ChatRequest;

/// Where a count comes from.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    /// tiktoken's o200k encoding: exact for OpenAI's models, an estimate for others.
    Estimate,
    /// The model's own `tokenizer.json`.
    TokenizerFile,
    /// The server's `/tokenize` endpoint (llama.cpp).
    Server,
}

impl TokenSource {
    /// In words, for `providers test` and the settings.
    pub fn describe(self) -> &'static str {
        match self {
            TokenSource::Estimate => "estimated (o200k tokenizer)",
            TokenSource::TokenizerFile => "the model's tokenizer.json",
            TokenSource::Server => "the server's /tokenize",
        }
    }
}

/// Counts tokens as one model does.
pub trait TokenCounter: Send + Sync {
    /// Where the counts come from now (a server found without `/tokenize` says `Estimate`).
    fn source(&self) -> TokenSource;

    /// Tokens in `text`. Never fails: when the model's tokenizer cannot be reached, the
    /// estimate answers instead.
    fn count<'a>(&'a self, text: &'a str) -> BoxFuture<'a, u32>;

    /// Model tokens per estimated token over everything counted so far; `None` before the
    /// first count.
    fn ratio(&self) -> Option<f64>;
}

/// The estimate, for models without a tokenizer of their own.
#[derive(Debug, Clone, Copy, Default)]
pub struct EstimateCounter;

impl TokenCounter for EstimateCounter {
    fn source(&self) -> TokenSource {
        TokenSource::Estimate
    }

    fn count<'a>(&'a self, text: &'a str) -> BoxFuture<'a, u32> {
        futures::future::ready(count_tokens(text)).boxed()
    }

    fn ratio(&self) -> Option<f64> {
        Some(1.0)
    }
}

/// Tokens of the whole prompt of `req` — system prompt and messages with their markup — in
/// one count of their joined text.
pub async fn count_prompt(counter: &dyn TokenCounter, req: &ChatRequest) -> u32 {
    let texts: Vec<&str> = req
        .system
        .iter()
        .map(String::as_str)
        .chain(req.messages.iter().map(|m| m.content.as_str()))
        .collect();
    let markup = PER_MESSAGE
        .saturating_mul(u32::try_from(texts.len()).unwrap_or(u32::MAX))
        .saturating_add(REPLY_PRIMING);
    counter
        .count(&texts.join("\n"))
        .await
        .saturating_add(markup)
}

/// Prose and JSON of the kind the prompts carry, counted once when nothing else has been yet.
const SAMPLE: &str = "The harbour lay under a low grey sky, and Mira counted the boats twice \
before she let herself believe the Kestrel had not come back. \"You said three days,\" she told \
the harbourmaster, who would not look at her. {\"pov_character\": \"C0\", \"target_location\": \
\"L2\", \"actions\": [{\"tool\": \"memory.search\", \"args\": {\"query\": \"the Kestrel's last \
voyage\"}}]} Somewhere behind the customs house a bell rang for the evening tide.";

/// The counter's ratio, counting a sample first when it has counted nothing yet (at most once
/// per counter, so a server is asked once per process).
pub async fn calibrated_ratio(counter: &dyn TokenCounter) -> f64 {
    if let Some(ratio) = counter.ratio() {
        return ratio;
    }
    counter.count(SAMPLE).await;
    counter.ratio().unwrap_or(1.0)
}

/// Model tokens and estimated tokens of everything counted.
#[derive(Debug, Default)]
struct Calibration {
    model: AtomicU64,
    estimate: AtomicU64,
}

impl Calibration {
    /// Below this many estimated tokens a ratio is noise.
    const MIN_SAMPLE: u64 = 20;

    fn add(&self, model: u32, text: &str) {
        self.model.fetch_add(u64::from(model), Ordering::Relaxed);
        self.estimate
            .fetch_add(u64::from(count_tokens(text)), Ordering::Relaxed);
    }

    fn ratio(&self) -> Option<f64> {
        let estimate = self.estimate.load(Ordering::Relaxed);
        (estimate >= Self::MIN_SAMPLE).then(|| {
            let ratio = self.model.load(Ordering::Relaxed) as f64 / estimate as f64;
            // A tokenizer four times off the estimate is broken, not a different model.
            ratio.clamp(0.25, 4.0)
        })
    }
}

/// A model's own `tokenizer.json`.
pub struct FileCounter {
    tokenizer: tokenizers::Tokenizer,
    calibration: Calibration,
}

impl FileCounter {
    /// Loads `path`: a `tokenizer.json`, or a folder holding one.
    pub fn load(path: &Path) -> Result<Self, LlmError> {
        let file = if path.is_dir() {
            path.join("tokenizer.json")
        } else {
            path.to_path_buf()
        };
        let tokenizer = tokenizers::Tokenizer::from_file(&file).map_err(|e| {
            LlmError::Config(format!(
                "cannot read the tokenizer {}: {e}; point `tokenizer_file` at the model's \
                 tokenizer.json (or its folder), or remove it to use an estimate",
                file.display()
            ))
        })?;
        Ok(FileCounter {
            tokenizer,
            calibration: Calibration::default(),
        })
    }
}

impl TokenCounter for FileCounter {
    fn source(&self) -> TokenSource {
        TokenSource::TokenizerFile
    }

    fn count<'a>(&'a self, text: &'a str) -> BoxFuture<'a, u32> {
        let count = match self.tokenizer.encode(text, false) {
            Ok(encoding) => u32::try_from(encoding.len()).unwrap_or(u32::MAX),
            Err(e) => {
                tracing::warn!("the tokenizer failed ({e}); estimating instead");
                count_tokens(text)
            }
        };
        self.calibration.add(count, text);
        futures::future::ready(count).boxed()
    }

    fn ratio(&self) -> Option<f64> {
        self.calibration.ratio()
    }
}

/// A llama.cpp server's `POST /tokenize`.
pub struct ServerCounter {
    url: String,
    fetcher: Fetcher,
    /// 0: not asked yet, 1: answers, 2: has no `/tokenize` (404) — never asked again.
    state: AtomicU8,
    cache: Mutex<HashMap<u64, u32>>,
    calibration: Calibration,
}

/// Cached counts kept per server before the cache starts over.
const CACHE_ENTRIES: usize = 512;
const ANSWERS: u8 = 1;
const ABSENT: u8 = 2;

impl ServerCounter {
    /// A counter asking `{root}/tokenize`.
    pub fn new(root: &str) -> Result<Self, LlmError> {
        Ok(ServerCounter {
            url: format!("{}/tokenize", root.trim_end_matches('/')),
            fetcher: Fetcher::new(Duration::from_secs(2), Duration::from_secs(10))?,
            state: AtomicU8::new(0),
            cache: Mutex::default(),
            calibration: Calibration::default(),
        })
    }

    async fn ask(&self, text: &str) -> Option<u32> {
        if self.state.load(Ordering::Relaxed) == ABSENT {
            return None;
        }
        let key = {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut hasher);
            hasher.finish()
        };
        let cached = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .copied();
        if cached.is_some() {
            return cached;
        }
        let body = json!({"content": text, "add_special": false});
        match self.fetcher.post(&self.url, &[], &body).await {
            Ok(answer) => {
                let count = answer
                    .get("tokens")
                    .and_then(Value::as_array)
                    .map(|tokens| u32::try_from(tokens.len()).unwrap_or(u32::MAX))?;
                self.state.store(ANSWERS, Ordering::Relaxed);
                let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
                if cache.len() >= CACHE_ENTRIES {
                    cache.clear();
                }
                cache.insert(key, count);
                Some(count)
            }
            // The address may carry credentials (`user:pw@`, `?key=`) and the answer may quote
            // them: both are redacted before they reach a log.
            Err(FetchError::Status(status @ (401 | 403 | 404 | 405 | 501), _)) => {
                tracing::info!(
                    url = %redact_secrets(&self.url),
                    status,
                    "the server offers no /tokenize; token counts are estimated"
                );
                self.state.store(ABSENT, Ordering::Relaxed);
                None
            }
            Err(err) => {
                tracing::warn!(
                    url = %redact_secrets(&self.url),
                    "/tokenize failed ({}); estimating this count",
                    redact_secrets(&err.to_string())
                );
                None
            }
        }
    }
}

impl TokenCounter for ServerCounter {
    fn source(&self) -> TokenSource {
        if self.state.load(Ordering::Relaxed) == ABSENT {
            TokenSource::Estimate
        } else {
            TokenSource::Server
        }
    }

    fn count<'a>(&'a self, text: &'a str) -> BoxFuture<'a, u32> {
        async move {
            if text.is_empty() {
                return 0;
            }
            match self.ask(text).await {
                Some(count) => {
                    self.calibration.add(count, text);
                    count
                }
                None => count_tokens(text),
            }
        }
        .boxed()
    }

    fn ratio(&self) -> Option<f64> {
        match self.state.load(Ordering::Relaxed) {
            ABSENT => Some(1.0),
            _ => self.calibration.ratio(),
        }
    }
}

/// The counter for `profile`'s model, shared with every other user of the same tokenizer file
/// or server in this process. A tokenizer file that cannot be read is an error.
pub fn token_counter_checked(profile: &ProviderProfile) -> Result<Arc<dyn TokenCounter>, LlmError> {
    if let Some(file) = profile.tokenizer_file.as_deref() {
        return shared_file(Path::new(file.trim()));
    }
    let base = profile.effective_base_url().unwrap_or_default();
    // Only a local OpenAI-compatible server may be llama.cpp; Ollama has no /tokenize.
    if profile.kind == ProviderKind::OpenAiCompatible && is_local(&base) {
        return shared_server(&server_root(&base));
    }
    Ok(Arc::new(EstimateCounter))
}

/// [`token_counter_checked`], estimating (with a warning in the log) when the profile's
/// tokenizer file cannot be read: a count is never worth a failed scene.
pub fn token_counter(profile: &ProviderProfile) -> Arc<dyn TokenCounter> {
    token_counter_checked(profile).unwrap_or_else(|err| {
        tracing::warn!("{err}");
        Arc::new(EstimateCounter)
    })
}

fn shared_file(path: &Path) -> Result<Arc<dyn TokenCounter>, LlmError> {
    static FILES: OnceLock<Mutex<HashMap<PathBuf, Arc<FileCounter>>>> = OnceLock::new();
    let files = FILES.get_or_init(Mutex::default);
    if let Some(found) = files
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(path)
    {
        return Ok(found.clone());
    }
    // Loaded outside the lock: a large tokenizer takes a moment.
    let loaded = Arc::new(FileCounter::load(path)?);
    files
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(path.to_path_buf(), loaded.clone());
    Ok(loaded)
}

fn shared_server(root: &str) -> Result<Arc<dyn TokenCounter>, LlmError> {
    static SERVERS: OnceLock<Mutex<HashMap<String, Arc<ServerCounter>>>> = OnceLock::new();
    let mut servers = SERVERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = servers.get(root) {
        return Ok(found.clone());
    }
    let counter = Arc::new(ServerCounter::new(root)?);
    servers.insert(root.to_string(), counter.clone());
    Ok(counter)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word-level tokenizer.json: one token per whitespace-separated word, like the test
    /// server's `/tokenize`.
    pub(crate) fn word_tokenizer(dir: &Path) -> PathBuf {
        let json = json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": [],
            "normalizer": null,
            "pre_tokenizer": {"type": "WhitespaceSplit"},
            "post_processor": null,
            "decoder": null,
            "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "the": 1}, "unk_token": "[UNK]"}
        });
        let path = dir.join("tokenizer.json");
        std::fs::write(&path, json.to_string()).unwrap();
        path
    }

    #[tokio::test]
    async fn a_tokenizer_file_counts_as_the_model_does_and_calibrates() {
        let dir = tempfile::tempdir().unwrap();
        word_tokenizer(dir.path());
        // The folder is enough: tokenizer.json is found in it.
        let counter = FileCounter::load(dir.path()).unwrap();
        assert_eq!(counter.ratio(), None);
        let text = "antidisestablishmentarianism ".repeat(30);
        assert_eq!(counter.count(&text).await, 30);
        let ratio = counter.ratio().unwrap();
        assert!(
            ratio < 1.0,
            "one token per long word is fewer than BPE's: {ratio}"
        );
        let req = ChatRequest::new("one two three").with_system("four five");
        assert_eq!(
            count_prompt(&counter, &req).await,
            5 + 2 * PER_MESSAGE + REPLY_PRIMING
        );
    }

    #[test]
    fn an_unreadable_tokenizer_file_says_what_to_do_and_the_engine_estimates() {
        let mut profile = ProviderProfile::new("p", ProviderKind::OpenAiCompatible, "m")
            .with_base_url("https://api.example.com/v1");
        profile.tokenizer_file = Some("/nonexistent/tokenizer.json".into());
        let err = token_counter_checked(&profile).err().unwrap().to_string();
        assert!(
            err.contains("/nonexistent/tokenizer.json") && err.contains("tokenizer_file"),
            "{err}"
        );
        assert_eq!(token_counter(&profile).source(), TokenSource::Estimate);
        profile.tokenizer_file = None;
        assert_eq!(
            token_counter(&profile).source(),
            TokenSource::Estimate,
            "a hosted API has no /tokenize to ask"
        );
        let local = ProviderProfile::new("l", ProviderKind::OpenAiCompatible, "m")
            .with_base_url("http://127.0.0.1:9/v1");
        assert_eq!(token_counter(&local).source(), TokenSource::Server);
        let ollama = ProviderProfile::new("o", ProviderKind::Ollama, "m");
        assert_eq!(token_counter(&ollama).source(), TokenSource::Estimate);
    }

    #[tokio::test]
    async fn the_estimate_needs_no_calibration() {
        assert_eq!(calibrated_ratio(&EstimateCounter).await, 1.0);
        assert_eq!(EstimateCounter.count("hello").await, 1);
    }
}
