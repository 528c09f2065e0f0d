//! The provider-neutral vocabulary of a chat call: the request the engine builds, the events a
//! streaming answer is normalised into, and the completed answer with its usage and latency.
//! Every provider translates from and to these types; nothing here knows any wire format.

use serde::{Deserialize, Serialize};

/// Who wrote a message in the conversation. The system prompt is not a message: it lives in
/// [`ChatRequest::system`] because providers place it differently on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The human side (the engine's prompts).
    User,
    /// The model's earlier answers.
    Assistant,
}

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: Role,
    /// Plain text content.
    pub content: String,
}

impl ChatMessage {
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// A JSON Schema the answer must satisfy, sent as structured-output hint where supported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonSchemaSpec {
    /// A short identifier (`[a-zA-Z0-9_-]`), required by OpenAI's `json_schema` format.
    pub name: String,
    /// The schema itself.
    pub schema: serde_json::Value,
}

/// One chat call, independent of any provider.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The system prompt.
    pub system: Option<String>,
    /// The conversation so far; the last message is normally the user's.
    pub messages: Vec<ChatMessage>,
    /// Upper bound on generated tokens.
    pub max_tokens: Option<u32>,
    /// Sampling temperature.
    pub temperature: Option<f32>,
    /// Nucleus sampling: only the most likely tokens whose probabilities add up to this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f32>,
    /// Ask for a JSON answer matching this schema.
    pub json_schema: Option<JsonSchemaSpec>,
    /// How the request may reuse the server's prompt cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheHint>,
}

/// What a caller knows about how its prompts repeat, for the servers' prompt caches: each
/// provider turns it into its own hint (llama.cpp `cache_prompt` and a slot per key, OpenAI
/// `prompt_cache_key`, Anthropic `cache_control` breakpoints) where the server takes it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CacheHint {
    /// Requests with the same key continue the same long prompt (one book's planner, say):
    /// they are sent to the same cache slot. Empty: no key.
    pub key: String,
    /// Bytes at the start of the first user message that stay the same from call to call
    /// (0: none beyond the system prompt); a cache breakpoint goes after them.
    pub stable_prefix: usize,
}

impl ChatRequest {
    /// A request with one user message and nothing else set.
    pub fn new(user: impl Into<String>) -> Self {
        ChatRequest {
            messages: vec![ChatMessage::user(user)],
            ..ChatRequest::default()
        }
    }

    /// Sets the system prompt.
    pub fn with_system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// Sets `max_tokens`.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// Sets the temperature.
    pub fn with_temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Sets top_p.
    pub fn with_top_p(mut self, top_p: f32) -> Self {
        self.top_p = Some(top_p);
        self
    }

    /// Marks the first `stable_prefix` bytes of the first user message as the part that repeats
    /// from call to call (clamped to a character boundary of that message).
    pub fn with_stable_prefix(mut self, stable_prefix: usize) -> Self {
        let first = self.messages.first().map_or("", |m| m.content.as_str());
        let mut at = stable_prefix.min(first.len());
        while !first.is_char_boundary(at) {
            at -= 1;
        }
        self.cache
            .get_or_insert_with(CacheHint::default)
            .stable_prefix = at;
        self
    }

    /// Names the conversation this request continues, for the server's cache slots.
    pub fn with_cache_key(mut self, key: impl Into<String>) -> Self {
        self.cache.get_or_insert_with(CacheHint::default).key = key.into();
        self
    }

    /// The cache key, when one was set.
    pub fn cache_key(&self) -> Option<&str> {
        self.cache
            .as_ref()
            .map(|c| c.key.as_str())
            .filter(|k| !k.is_empty())
    }

    /// Asks for a JSON answer matching `schema`.
    pub fn with_json_schema(mut self, name: impl Into<String>, schema: serde_json::Value) -> Self {
        self.json_schema = Some(JsonSchemaSpec {
            name: name.into(),
            schema,
        });
        self
    }
}

/// Token counts for one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens in the prompt (system + messages).
    pub prompt_tokens: u32,
    /// Tokens generated.
    pub completion_tokens: u32,
    /// True when we counted with our own tokenizer because the server reported nothing.
    pub estimated: bool,
    /// Of `prompt_tokens`, those the server read from its prompt cache instead of processing
    /// them again (OpenAI `cached_tokens`, llama.cpp `cache_n`, Anthropic cache reads, Gemini
    /// `cachedContentTokenCount`); hosted APIs bill them at a reduced rate.
    #[serde(default)]
    pub cached_tokens: u32,
    /// Of `prompt_tokens`, those written to the cache by this call (Anthropic
    /// `cache_creation_input_tokens`, billed above the plain input rate).
    #[serde(default)]
    pub cache_write_tokens: u32,
    /// The server's own time reading the uncached part of the prompt (llama.cpp
    /// `timings.prompt_ms`), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill_ms: Option<u32>,
}

impl Usage {
    /// Counts reported by a server: prompt and completion tokens, nothing cached.
    pub fn reported(prompt_tokens: u32, completion_tokens: u32) -> Usage {
        Usage {
            prompt_tokens,
            completion_tokens,
            ..Usage::default()
        }
    }

    /// Prompt plus completion tokens.
    pub fn total(&self) -> u32 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }

    /// Prompt tokens the server had to read afresh (not from its cache).
    pub fn uncached_prompt_tokens(&self) -> u32 {
        self.prompt_tokens.saturating_sub(self.cached_tokens)
    }
}

/// Why the model stopped, normalised across providers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// A natural end of the answer.
    Stop,
    /// The token limit was reached: the answer is truncated.
    Length,
    /// The provider's safety filter stopped the answer.
    ContentFilter,
    /// Anything else, with the provider's own word for it.
    Other(String),
}

/// One normalised event of a streaming answer.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// The next piece of text.
    TextDelta(String),
    /// Token usage as reported by the server (or estimated, see [`Usage::estimated`]).
    Usage(Usage),
    /// The model finished; the stream may still carry a usage event after this.
    Finish(FinishReason),
}

/// Which model answered, for records and logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The provider kind, e.g. `openai-compatible`, `anthropic`, `scripted`.
    pub kind: String,
    /// The profile the model was built from (empty for test doubles).
    pub profile: String,
    /// The model name sent to the provider.
    pub model: String,
}

/// A finished answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    /// The full text.
    pub text: String,
    /// Token usage for this call.
    pub usage: Usage,
    /// Why the model stopped.
    pub finish_reason: FinishReason,
    /// The model that answered (as reported by the server where it says, else as configured).
    pub model: String,
    /// Wall-clock time from sending the request to the end of the answer.
    pub latency_ms: u64,
}
