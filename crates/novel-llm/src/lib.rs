//! The LLM provider layer of Novel Agent. It sends chat requests and returns text, token usage
//! and latency; it knows nothing about stories. One object-safe trait, [`LanguageModel`], with
//! providers for OpenAI-compatible servers (OpenAI, llama.cpp, Ollama, LM Studio, vLLM,
//! OpenRouter), Anthropic, Gemini and command-line agents; profiles from the user's config
//! directory, with keys from the environment or the OS keychain and generation settings
//! (sampling, context length, structured output, prices); structured JSON output with
//! fallback, local repair of unambiguous syntax mistakes and one repair request; the local
//! servers on this machine found ([`detect`]), a server's models listed ([`list_models`]), what
//! it accepts probed ([`test_profile`]), tokens counted by the model's own tokenizer where
//! possible ([`token_counter`]); spending limits checked before each call ([`metered`]);
//! [`ScriptedModel`] for tests. Everything a server or command sends is untrusted: bounded in
//! size and time (`limits`), token counts clamped, secrets redacted from every message.

mod budget;
mod connect;
mod context;
mod discover;
mod error;
mod fetch;
mod http_retry;
mod json;
mod limits;
mod model;
mod model_list;
mod prices;
mod probe;
mod profile;
mod providers;
mod secret;
mod sse;
mod structured;
mod tokens;
mod transport;
mod tuned;
mod types;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod test_support;

pub use budget::{Budget, Limits, Spent, metered};
pub use connect::{connect, connect_with, connect_with_env};
pub use discover::{DetectedServer, LocalServer, PROBE_TIMEOUT, ProbeTarget, USUAL_PORTS, detect};
pub use error::{LimitScope, LlmError};
pub use http_retry::{RetryPolicy, parse_retry_after};
pub use json::repair::{JsonFix, LocalRepair, repair_json_object};
pub use json::text::{JsonTextError, extract_json_object};
pub use profile::key_policy::{
    KeyChange, key_change, key_for_unsaved, resolve_key, resolve_key_with, server_of, takes_key,
};
pub use providers::anthropic::AnthropicModel;
pub use providers::command::{CommandModel, render_prompt};
pub use providers::gemini::GeminiModel;
// `keychain::{store_key, delete_key, has_key}` are called by module path from the front ends.
pub use json::mode::{StructuredMode, schema_instructions};
pub use json::schema_flat::flatten_schema;
pub use model::{EventStream, LanguageModel, collect_stream, stream_completion};
pub use model_list::{ModelEntry, ModelList, list_models, list_unsaved_models};
pub use prices::Prices;
pub use probe::{ProbeReport, ProfileTest, probe, test_profile};
pub use profile::check::{KindInfo, ProfileField, ProfileProblem};
pub use profile::keychain;
pub use profile::keychain::{KEYCHAIN_SERVICE, Keychain, KeychainOpener};
pub use profile::provider::{KeySource, ProviderKind, ProviderProfile};
pub use profile::settings::{Capabilities, Sampling, StructuredOutput};
pub use profile::store::{
    KeyRemoval, PROVIDERS_FILE, ProfileRemoval, ProfileStore, ProviderConfig, config_dir,
    config_dir_with,
};
pub use providers::openai::OpenAiModel;
pub use providers::scripted::ScriptedModel;
pub use secret::ApiKey;
pub use structured::{
    JsonValidator, StructuredCompletion, complete_structured, repair_request, validator_from_schema,
};
pub use tokens::counter::{
    EstimateCounter, FileCounter, ServerCounter, TokenCounter, TokenSource, calibrated_ratio,
    count_prompt, token_counter, token_counter_checked,
};
pub use tokens::{count_tokens, estimate_prompt_tokens, estimate_usage};
pub use types::{
    CacheHint, ChatMessage, ChatRequest, Completion, FinishReason, JsonSchemaSpec, ModelInfo, Role,
    StreamEvent, Usage,
};
