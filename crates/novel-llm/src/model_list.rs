//! The models a profile's server offers, with each one's context length where the server says:
//! `/v1/models` for OpenAI-compatible servers (vLLM's `max_model_len`, OpenRouter's
//! `context_length`), Ollama's `/api/tags` with `/api/show` (the Modelfile's `num_ctx`, else the
//! model's own maximum), LM Studio's `/api/v0/models` and llama.cpp's `/props` (`n_ctx`) for
//! servers on this machine or the local network, Anthropic's and Gemini's model endpoints. A
//! server that lists no models is not an error: the list is empty and says to type the name.
//! Parsing is pure functions over JSON, tested from fixtures.

use std::collections::HashMap;
use std::time::Duration;

use futures::StreamExt;
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::LlmError;
use crate::fetch::{FetchError, Fetcher, is_local, server_root};
use crate::profile::check::ProfileField;
use crate::profile::key_policy::{key_for_unsaved, resolve_key_with};
use crate::profile::keychain::KeychainOpener;
use crate::profile::provider::{ProviderKind, ProviderProfile};
use crate::secret::{ApiKey, redact};

/// Listing models is quick or broken; it never waits like a generation does.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// `/api/show` calls in flight at once.
const SHOW_CONCURRENCY: usize = 4;

/// One model a server offers.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelEntry {
    /// The name to put in a profile's `model`.
    pub id: String,
    /// Its context window in tokens, where the server tells.
    pub context_length: Option<u32>,
    /// Whether the server has it loaded now (LM Studio says), `None` when unknown.
    pub loaded: Option<bool>,
}

impl ModelEntry {
    fn named(id: impl Into<String>) -> Self {
        ModelEntry {
            id: id.into(),
            context_length: None,
            loaded: None,
        }
    }
}

/// What a server listed.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelList {
    pub models: Vec<ModelEntry>,
    /// Where the list came from (a URL, keys removed).
    pub source: String,
    /// Why the list is empty or partial, in a sentence for the writer.
    pub note: Option<String>,
}

/// The models of `profile`'s server, its key read as [`crate::connect`] reads it.
pub async fn list_models(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<ModelList, LlmError> {
    if profile.kind == ProviderKind::Command {
        return Ok(ModelList {
            models: Vec::new(),
            source: String::new(),
            note: Some("A command-line agent chooses its own model; there is no list.".into()),
        });
    }
    profile.validate_except(&[ProfileField::Model])?;
    let key = resolve_key_with(profile, env, keychain)?;
    list_with_key(profile, key.as_ref()).await
}

/// The models of a profile the settings form has not saved (`saved` is the saved profile of
/// the same name, if any), sending only the key [`key_for_unsaved`] allows: one typed into the
/// form, or the saved key while the form still points where it was saved for.
pub async fn list_unsaved_models(
    profile: &ProviderProfile,
    typed_key: Option<&str>,
    saved: Option<&ProviderProfile>,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<ModelList, LlmError> {
    profile.validate_except(&[ProfileField::Model, ProfileField::Name])?;
    let key = key_for_unsaved(profile, typed_key, saved, env, keychain)?;
    list_with_key(profile, key.as_ref()).await
}

/// [`list_models`] with the key already read.
pub(crate) async fn list_with_key(
    profile: &ProviderProfile,
    key: Option<&ApiKey>,
) -> Result<ModelList, LlmError> {
    if profile.kind == ProviderKind::Command {
        return Ok(ModelList {
            models: Vec::new(),
            source: String::new(),
            note: Some("A command-line agent chooses its own model; there is no list.".into()),
        });
    }
    let base = profile
        .effective_base_url()
        .ok_or_else(|| LlmError::Config(format!("{}: set `base_url`", profile.location())))?;
    let lister = Lister {
        fetcher: Fetcher::new(CONNECT_TIMEOUT, LIST_TIMEOUT)?,
        profile,
        key,
    };
    match profile.kind {
        ProviderKind::Ollama => lister.ollama(&base).await,
        ProviderKind::OpenAiCompatible => lister.openai(&base).await,
        ProviderKind::Anthropic => lister.anthropic(&base).await,
        ProviderKind::Gemini => lister.gemini(&base).await,
        ProviderKind::Command => unreachable!("handled above"),
    }
}

struct Lister<'a> {
    fetcher: Fetcher,
    profile: &'a ProviderProfile,
    key: Option<&'a ApiKey>,
}

impl Lister<'_> {
    fn redact(&self, text: &str) -> String {
        redact(text, self.key)
    }

    fn bearer(&self) -> Vec<(&'static str, String)> {
        self.key
            .map(|key| vec![("authorization", format!("Bearer {}", key.expose()))])
            .unwrap_or_default()
    }

    /// A failure to list, naming the URL and what to check.
    fn failed(&self, url: &str, err: &FetchError) -> LlmError {
        let url = self.redact(url);
        let err = self.redact(&err.to_string());
        if err.starts_with("HTTP 401") || err.starts_with("HTTP 403") {
            LlmError::Config(format!(
                "{}: {url} refused the API key ({err}); check the profile's key",
                self.profile.location()
            ))
        } else {
            LlmError::Config(format!(
                "{}: cannot list the models at {url}: {err}; is the server running and is \
                 `base_url` right?",
                self.profile.location()
            ))
        }
    }

    fn unlisted(&self, url: &str) -> ModelList {
        ModelList {
            models: Vec::new(),
            source: self.redact(url),
            note: Some(
                "This server does not list its models (no /v1/models); type the model's name."
                    .into(),
            ),
        }
    }

    async fn openai(&self, base: &str) -> Result<ModelList, LlmError> {
        let url = format!("{base}/models");
        let mut models = match self.fetcher.get(&url, &self.bearer()).await {
            Ok(body) => parse_openai_models(&body),
            Err(FetchError::Status(404 | 405, _)) => return Ok(self.unlisted(&url)),
            Err(err) => return Err(self.failed(&url, &err)),
        };
        if is_local(base) && models.iter().any(|m| m.context_length.is_none()) {
            self.local_context(&server_root(base), &mut models).await;
        }
        Ok(ModelList {
            models,
            source: self.redact(&url),
            note: None,
        })
    }

    /// Context lengths from a local server's own endpoints: LM Studio's per model, llama.cpp's
    /// for the model it runs. Whatever does not answer is simply not there.
    async fn local_context(&self, root: &str, models: &mut [ModelEntry]) {
        let studio_url = format!("{root}/api/v0/models");
        let props_url = format!("{root}/props");
        let (studio, props) = futures::join!(
            self.fetcher.get(&studio_url, &[]),
            self.fetcher.get(&props_url, &[])
        );
        if let Ok(body) = studio {
            let by_id: HashMap<String, ModelEntry> = parse_lm_studio_models(&body)
                .into_iter()
                .map(|m| (m.id.clone(), m))
                .collect();
            for model in models.iter_mut() {
                if let Some(found) = by_id.get(&model.id) {
                    model.context_length = model.context_length.or(found.context_length);
                    model.loaded = found.loaded;
                }
            }
        }
        if let Some(n_ctx) = props.ok().as_ref().and_then(parse_llama_props) {
            for model in models.iter_mut() {
                model.context_length.get_or_insert(n_ctx);
            }
        }
    }

    async fn ollama(&self, base: &str) -> Result<ModelList, LlmError> {
        let root = server_root(base);
        let url = format!("{root}/api/tags");
        let names = match self.fetcher.get(&url, &[]).await {
            Ok(body) => parse_ollama_tags(&body),
            // Not Ollama after all (or an old one): its OpenAI list may still work.
            Err(FetchError::Status(404, _)) => return self.openai(base).await,
            Err(err) => return Err(self.failed(&url, &err)),
        };
        let models = ollama_contexts(&self.fetcher, &root, names).await;
        Ok(ModelList {
            models,
            source: self.redact(&url),
            note: None,
        })
    }

    async fn anthropic(&self, base: &str) -> Result<ModelList, LlmError> {
        let url = format!("{base}/v1/models?limit=100");
        let mut headers = vec![("anthropic-version", "2023-06-01".to_string())];
        if let Some(key) = self.key {
            headers.push(("x-api-key", key.expose().to_string()));
        }
        match self.fetcher.get(&url, &headers).await {
            Ok(body) => Ok(ModelList {
                models: parse_openai_models(&body),
                source: self.redact(&url),
                note: None,
            }),
            Err(FetchError::Status(404, _)) => Ok(self.unlisted(&url)),
            Err(err) => Err(self.failed(&url, &err)),
        }
    }

    async fn gemini(&self, base: &str) -> Result<ModelList, LlmError> {
        // The key goes in a header, never in the URL, where it would reach messages.
        let url = format!("{base}/v1beta/models?pageSize=1000");
        let headers: Vec<(&'static str, String)> = self
            .key
            .map(|key| vec![("x-goog-api-key", key.expose().to_string())])
            .unwrap_or_default();
        match self.fetcher.get(&url, &headers).await {
            Ok(body) => Ok(ModelList {
                models: parse_gemini_models(&body),
                source: self.redact(&url),
                note: None,
            }),
            Err(FetchError::Status(404, _)) => Ok(self.unlisted(&url)),
            Err(err) => Err(self.failed(&url, &err)),
        }
    }
}

/// Each Ollama model with its context length from `/api/show`, asked a few at a time.
pub(crate) async fn ollama_contexts(
    fetcher: &Fetcher,
    root: &str,
    names: Vec<String>,
) -> Vec<ModelEntry> {
    let url = format!("{root}/api/show");
    futures::stream::iter(names)
        .map(|name| {
            let url = url.clone();
            async move {
                let shown = fetcher.post(&url, &[], &json!({"model": name})).await;
                ModelEntry {
                    context_length: shown.ok().as_ref().and_then(parse_ollama_show),
                    ..ModelEntry::named(name)
                }
            }
        })
        .buffered(SHOW_CONCURRENCY)
        .collect()
        .await
}

fn as_u32(value: Option<&Value>) -> Option<u32> {
    value
        .and_then(Value::as_u64)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
        .filter(|n| *n > 0)
}

/// `{"data": [{"id", …}]}` as OpenAI, vLLM, OpenRouter, LM Studio's `/v1`, llama.cpp, Jan and
/// Anthropic list models. llama.cpp's `meta.n_ctx_train` is the context the model was trained
/// with, not the one the server runs, so it is not taken.
pub(crate) fn parse_openai_models(body: &Value) -> Vec<ModelEntry> {
    let entries = body.get("data").and_then(Value::as_array);
    entries
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let id = entry.get("id")?.as_str()?.trim();
            if id.is_empty() {
                return None;
            }
            let context_length = as_u32(entry.get("max_model_len"))
                .or_else(|| as_u32(entry.get("context_length")))
                .or_else(|| as_u32(entry.get("loaded_context_length")))
                .or_else(|| as_u32(entry.get("max_context_length")))
                .or_else(|| as_u32(entry.pointer("/top_provider/context_length")));
            Some(ModelEntry {
                context_length,
                ..ModelEntry::named(id)
            })
        })
        .collect()
}

/// Ollama's `/api/tags`: the names of the pulled models.
pub(crate) fn parse_ollama_tags(body: &Value) -> Vec<String> {
    let models = body.get("models").and_then(Value::as_array);
    models
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("name").or(m.get("model"))?.as_str())
        .filter(|name| !name.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Ollama's `/api/show`: the Modelfile's `num_ctx` (what the server runs with), else the
/// model's own maximum (`<architecture>.context_length`).
pub(crate) fn parse_ollama_show(body: &Value) -> Option<u32> {
    let num_ctx = body
        .get("parameters")
        .and_then(Value::as_str)
        .into_iter()
        .flat_map(str::lines)
        .find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("num_ctx"))
                .then(|| words.next()?.parse::<u32>().ok())
                .flatten()
        });
    num_ctx.filter(|n| *n > 0).or_else(|| {
        let info = body.get("model_info")?.as_object()?;
        info.iter()
            .find(|(key, _)| key.ends_with(".context_length"))
            .and_then(|(_, value)| as_u32(Some(value)))
    })
}

/// LM Studio's `/api/v0/models`: the context a loaded model runs with, else its maximum.
pub(crate) fn parse_lm_studio_models(body: &Value) -> Vec<ModelEntry> {
    let entries = body.get("data").and_then(Value::as_array);
    entries
        .into_iter()
        .flatten()
        .filter(|e| e.get("type").and_then(Value::as_str) != Some("embeddings"))
        .filter_map(|entry| {
            let id = entry.get("id")?.as_str()?;
            Some(ModelEntry {
                id: id.to_string(),
                context_length: as_u32(entry.get("loaded_context_length"))
                    .or_else(|| as_u32(entry.get("max_context_length"))),
                loaded: entry
                    .get("state")
                    .and_then(Value::as_str)
                    .map(|state| state == "loaded"),
            })
        })
        .collect()
}

/// llama.cpp's `/props`: the context the server runs with.
pub(crate) fn parse_llama_props(body: &Value) -> Option<u32> {
    as_u32(body.pointer("/default_generation_settings/n_ctx")).or_else(|| as_u32(body.get("n_ctx")))
}

/// Gemini's `/v1beta/models`: generating models, named without `models/`, with their input
/// limit.
pub(crate) fn parse_gemini_models(body: &Value) -> Vec<ModelEntry> {
    let entries = body.get("models").and_then(Value::as_array);
    entries
        .into_iter()
        .flatten()
        .filter(|m| {
            m.get("supportedGenerationMethods")
                .and_then(Value::as_array)
                .is_none_or(|methods| methods.iter().any(|x| x == "generateContent"))
        })
        .filter_map(|m| {
            let name = m.get("name")?.as_str()?;
            Some(ModelEntry {
                context_length: as_u32(m.get("inputTokenLimit")),
                ..ModelEntry::named(name.trim_start_matches("models/"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_lists_take_the_context_each_server_reports() {
        let body = json!({"object": "list", "data": [
            {"id": "meta-llama/Llama-3.1-8B-Instruct", "owned_by": "vllm", "max_model_len": 32768},
            {"id": "anthropic/claude-sonnet-4", "context_length": 200000, "top_provider": {"context_length": 200000}},
            {"id": "qwen.gguf", "meta": {"n_ctx_train": 131072}},
            {"id": "gpt-4o-mini", "owned_by": "system"},
            {"id": "   "},
            {"object": "model"}
        ]});
        let models = parse_openai_models(&body);
        let pairs: Vec<(&str, Option<u32>)> = models
            .iter()
            .map(|m| (m.id.as_str(), m.context_length))
            .collect();
        assert_eq!(
            pairs,
            [
                ("meta-llama/Llama-3.1-8B-Instruct", Some(32768)),
                ("anthropic/claude-sonnet-4", Some(200000)),
                ("qwen.gguf", None),
                ("gpt-4o-mini", None)
            ]
        );
        assert!(parse_openai_models(&json!({"data": "nope"})).is_empty());
    }

    #[test]
    fn ollama_prefers_num_ctx_to_the_models_maximum() {
        let tags =
            json!({"models": [{"name": "llama3.1:8b"}, {"model": "qwen2.5:14b"}, {"name": ""}]});
        assert_eq!(parse_ollama_tags(&tags), ["llama3.1:8b", "qwen2.5:14b"]);
        let show = json!({"parameters": "stop \"<|eot_id|>\"\nnum_ctx                        8192",
                          "model_info": {"llama.context_length": 131072}});
        assert_eq!(parse_ollama_show(&show), Some(8192));
        let bare =
            json!({"model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768}});
        assert_eq!(parse_ollama_show(&bare), Some(32768));
        assert_eq!(
            parse_ollama_show(&json!({"parameters": "num_ctx lots"})),
            None
        );
    }

    #[test]
    fn lm_studio_llama_cpp_and_gemini_shapes() {
        let studio = json!({"data": [
            {"id": "qwen2.5-7b-instruct", "type": "llm", "state": "loaded", "max_context_length": 32768, "loaded_context_length": 8192},
            {"id": "nomic-embed", "type": "embeddings", "state": "not-loaded", "max_context_length": 2048},
            {"id": "mistral-7b", "type": "llm", "state": "not-loaded", "max_context_length": 32768}
        ]});
        let models = parse_lm_studio_models(&studio);
        assert_eq!(models.len(), 2, "embedding models cannot write");
        assert_eq!(
            (models[0].context_length, models[0].loaded),
            (Some(8192), Some(true))
        );
        assert_eq!(
            (models[1].context_length, models[1].loaded),
            (Some(32768), Some(false))
        );
        let props = json!({"default_generation_settings": {"n_ctx": 16384}, "total_slots": 1});
        assert_eq!(parse_llama_props(&props), Some(16384));
        assert_eq!(parse_llama_props(&json!({"n_ctx": 4096})), Some(4096));
        assert_eq!(parse_llama_props(&json!({})), None);
        let gemini = json!({"models": [
            {"name": "models/gemini-2.5-flash", "inputTokenLimit": 1048576, "supportedGenerationMethods": ["generateContent", "countTokens"]},
            {"name": "models/text-embedding-004", "inputTokenLimit": 2048, "supportedGenerationMethods": ["embedContent"]}
        ]});
        let models = parse_gemini_models(&gemini);
        assert_eq!(models.len(), 1);
        assert_eq!(
            (models[0].id.as_str(), models[0].context_length),
            ("gemini-2.5-flash", Some(1048576))
        );
    }
}
