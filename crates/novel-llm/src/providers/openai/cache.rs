//! Prompt-cache hints for OpenAI-compatible servers. Every local server keeps the last prompt's
//! key/value cache and hosted APIs bill cached prompt tokens at a fraction, but each wants its
//! own hint: llama.cpp's `llama-server` takes `cache_prompt` and a slot per conversation
//! (`id_slot`, so the planner, the writer and the extractor of a book do not evict each
//! other), OpenAI takes `prompt_cache_key` to route a conversation to the same cache. Which
//! server this is is found out once, from the base URL and llama.cpp's `GET /props`; a hint
//! field a server refuses is remembered and not sent again (the others still are). Other servers (Ollama, LM
//! Studio, vLLM) cache on their own and get nothing they might refuse.

use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;

use serde_json::Value;

use super::wire::{CacheFields, refuses_parameter};
use crate::fetch::{Fetcher, is_local, server_root};
use crate::types::ChatRequest;

/// The names of the fields this module may add, as a server's refusal would name them.
const HINT_FIELDS: [&str; 3] = ["cache_prompt", "id_slot", "prompt_cache_key"];

/// How long the one look at `/props` may take: a local server answers at once.
const PROPS_TIMEOUT: Duration = Duration::from_secs(3);

/// Which cache hints a server takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheDialect {
    /// llama.cpp's server with this many slots.
    LlamaCpp { slots: u32 },
    /// OpenAI's own API.
    OpenAi,
    /// A server that caches without being told, or that we do not know to take a hint.
    Silent,
}

/// The dialect of the server at `base_url`, given what its `/props` answered (if asked).
pub(crate) fn dialect_of(base_url: &str, props: Option<&Value>) -> CacheDialect {
    let host = reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    if host.as_deref() == Some("api.openai.com") {
        return CacheDialect::OpenAi;
    }
    let Some(props) = props else {
        return CacheDialect::Silent;
    };
    // `total_slots` and `default_generation_settings` are llama-server's own words.
    let slots = props.get("total_slots").and_then(Value::as_u64);
    if slots.is_none() && props.get("default_generation_settings").is_none() {
        return CacheDialect::Silent;
    }
    let slots = slots.unwrap_or(1).clamp(1, 1024) as u32;
    CacheDialect::LlamaCpp { slots }
}

/// The slot of the conversation `key`: conversations take slots in the order they first
/// appear, wrapping round when there are more conversations than slots.
pub(crate) fn slot_for(seen: &mut Vec<String>, key: &str, slots: u32) -> u32 {
    let index = match seen.iter().position(|k| k == key) {
        Some(i) => i,
        None => {
            seen.push(key.to_string());
            seen.len() - 1
        }
    };
    (index % slots.max(1) as usize) as u32
}

/// The hints for `req` in `dialect`.
pub(crate) fn fields_for(
    req: &ChatRequest,
    dialect: CacheDialect,
    seen: &mut Vec<String>,
) -> CacheFields {
    let key = req.cache_key();
    match dialect {
        CacheDialect::LlamaCpp { slots } => CacheFields {
            cache_prompt: Some(true),
            // With one slot there is nothing to choose, and llama-server picks by similarity.
            id_slot: key
                .filter(|_| slots > 1)
                .map(|key| slot_for(seen, key, slots)),
            prompt_cache_key: None,
        },
        CacheDialect::OpenAi => CacheFields {
            prompt_cache_key: key.map(str::to_string),
            ..CacheFields::default()
        },
        CacheDialect::Silent => CacheFields::default(),
    }
}

/// One model's cache hinting: the server's dialect once known, the conversations' slots, and
/// the hint fields the server refused.
#[derive(Debug)]
pub(crate) struct PromptCaching {
    base_url: String,
    dialect: Mutex<Option<CacheDialect>>,
    seen: Mutex<Vec<String>>,
    refused: Mutex<Vec<&'static str>>,
}

impl PromptCaching {
    pub(crate) fn new(base_url: &str) -> PromptCaching {
        PromptCaching {
            base_url: base_url.to_string(),
            dialect: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
            refused: Mutex::new(Vec::new()),
        }
    }

    /// The hint fields for `req`, without those the server refused; none for a request
    /// without a cache hint.
    pub(crate) async fn fields(&self, req: &ChatRequest) -> CacheFields {
        if req.cache.is_none() {
            return CacheFields::default();
        }
        let dialect = self.dialect().await;
        let mut fields = {
            let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
            fields_for(req, dialect, &mut seen)
        };
        let refused = self.refused.lock().unwrap_or_else(PoisonError::into_inner);
        if refused.contains(&"cache_prompt") {
            fields.cache_prompt = None;
        }
        if refused.contains(&"id_slot") {
            fields.id_slot = None;
        }
        if refused.contains(&"prompt_cache_key") {
            fields.prompt_cache_key = None;
        }
        fields
    }

    async fn dialect(&self) -> CacheDialect {
        if let Some(known) = *self.dialect.lock().unwrap_or_else(PoisonError::into_inner) {
            return known;
        }
        // Only a server on this machine or network can be llama.cpp's; a hosted API is not
        // asked for an endpoint it does not have.
        let props = if is_local(&self.base_url) {
            match Fetcher::new(PROPS_TIMEOUT, PROPS_TIMEOUT) {
                Ok(fetcher) => {
                    let url = format!("{}/props", server_root(&self.base_url));
                    fetcher.get(&url, &[]).await.ok()
                }
                Err(_) => None,
            }
        } else {
            None
        };
        let found = dialect_of(&self.base_url, props.as_ref());
        tracing::debug!(dialect = ?found, "prompt-cache hints for this server");
        *self.dialect.lock().unwrap_or_else(PoisonError::into_inner) = Some(found);
        found
    }

    /// Whether the refusal `body` names a hint field that was sent; if so that field is not
    /// sent to this server again, and the request can go again without it.
    pub(crate) fn refused(&self, sent: &CacheFields, body: &str) -> bool {
        let was_sent = [
            sent.cache_prompt.is_some(),
            sent.id_slot.is_some(),
            sent.prompt_cache_key.is_some(),
        ];
        let names: Vec<&'static str> = HINT_FIELDS
            .iter()
            .zip(was_sent)
            .filter(|(name, sent)| *sent && refuses_parameter(body, name))
            .map(|(name, _)| *name)
            .collect();
        if names.is_empty() {
            return false;
        }
        tracing::info!(fields = ?names, "the server refused a prompt-cache hint; sending requests without it");
        self.refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(names);
        true
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::test_support::fixture_json;

    #[test]
    fn the_dialect_comes_from_the_host_and_llama_cpps_props() {
        let props = fixture_json("llama_server/props.json");
        assert_eq!(
            dialect_of("http://127.0.0.1:8080/v1", Some(&props)),
            CacheDialect::LlamaCpp {
                slots: props["total_slots"].as_u64().unwrap() as u32
            }
        );
        assert_eq!(
            dialect_of("https://api.openai.com/v1", None),
            CacheDialect::OpenAi
        );
        // Ollama and LM Studio answer /props with 404 (no JSON) or something else entirely.
        assert_eq!(
            dialect_of("http://127.0.0.1:11434/v1", None),
            CacheDialect::Silent
        );
        assert_eq!(
            dialect_of("http://127.0.0.1:1234/v1", Some(&json!({"data": []}))),
            CacheDialect::Silent
        );
        let no_count = json!({"default_generation_settings": {"n_ctx": 4096}});
        assert_eq!(
            dialect_of("http://box.local:8080", Some(&no_count)),
            CacheDialect::LlamaCpp { slots: 1 }
        );
    }

    #[test]
    fn each_conversation_keeps_its_slot_and_more_conversations_wrap_round() {
        let mut seen = Vec::new();
        assert_eq!(slot_for(&mut seen, "book-planner", 3), 0);
        assert_eq!(slot_for(&mut seen, "book-writer", 3), 1);
        assert_eq!(slot_for(&mut seen, "book-planner", 3), 0);
        assert_eq!(slot_for(&mut seen, "book-reviser", 3), 2);
        assert_eq!(slot_for(&mut seen, "book-extractor", 3), 0);
        assert_eq!(slot_for(&mut seen, "book-writer", 3), 1);
    }

    #[test]
    fn hints_follow_the_dialect() {
        let keyed = ChatRequest::new("hi").with_cache_key("book-writer");
        let mut seen = vec!["book-planner".to_string()];
        let llama = fields_for(&keyed, CacheDialect::LlamaCpp { slots: 3 }, &mut seen);
        assert_eq!((llama.cache_prompt, llama.id_slot), (Some(true), Some(1)));
        assert_eq!(llama.prompt_cache_key, None);
        let one_slot = fields_for(&keyed, CacheDialect::LlamaCpp { slots: 1 }, &mut seen);
        assert_eq!(
            (one_slot.cache_prompt, one_slot.id_slot),
            (Some(true), None)
        );
        let openai = fields_for(&keyed, CacheDialect::OpenAi, &mut seen);
        assert_eq!(openai.prompt_cache_key.as_deref(), Some("book-writer"));
        assert_eq!(openai.id_slot, None);
        assert_eq!(
            fields_for(&keyed, CacheDialect::Silent, &mut seen),
            CacheFields::default()
        );
    }

    #[test]
    fn a_refused_hint_is_remembered_and_an_unrelated_error_is_not() {
        let caching = PromptCaching::new("https://api.openai.com/v1");
        let sent = CacheFields {
            prompt_cache_key: Some("k".into()),
            ..CacheFields::default()
        };
        assert!(!caching.refused(&sent, r#"{"error":{"message":"context length exceeded"}}"#));
        let refusal = r#"{"error":{"message":"Unrecognized request argument supplied: prompt_cache_key","param":null}}"#;
        assert!(caching.refused(&sent, refusal));
        let request = ChatRequest::new("hi").with_cache_key("k");
        let fields = futures::executor::block_on(caching.fields(&request));
        assert_eq!(fields, CacheFields::default());
    }
}
