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

mod anthropic;
mod budget;
mod command;
mod command_sandbox;
mod connect;
mod context;
mod cut_answer;
mod discover;
mod error;
mod fetch;
mod gemini;
mod http_retry;
mod json_repair;
mod json_text;
mod key_policy;
pub mod keychain;
mod limits;
mod model;
mod model_list;
mod openai;
mod probe;
mod profile;
mod profile_check;
mod schema_flat;
mod scripted;
mod secret;
mod settings;
mod sse;
mod structured;
mod token_count;
mod token_counter;
mod tokens;
mod transport;
mod tuned;
mod types;
mod window;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod test_support;

pub use anthropic::AnthropicModel;
pub use budget::{Budget, LimitScope, Limits, Spent, metered};
pub use command::{CommandModel, render_prompt};
pub use connect::{
    KeychainOpener, connect, connect_with, connect_with_env, resolve_key, resolve_key_with,
};
pub use discover::{DetectedServer, LocalServer, PROBE_TIMEOUT, ProbeTarget, USUAL_PORTS, detect};
pub use error::LlmError;
pub use gemini::GeminiModel;
pub use http_retry::{RetryPolicy, parse_retry_after};
pub use json_repair::{JsonFix, LocalRepair, repair_json_object};
pub use json_text::{JsonTextError, extract_json_object};
pub use key_policy::{KeyChange, key_change, key_for_unsaved, server_of, takes_key};
pub use keychain::{KEYCHAIN_SERVICE, Keychain};
pub use model::{EventStream, LanguageModel, collect_stream, stream_completion};
pub use model_list::{ModelEntry, ModelList, list_models, list_unsaved_models};
pub use openai::OpenAiModel;
pub use probe::{ProbeReport, ProfileTest, probe, test_profile};
pub use profile::{
    KeyRemoval, KeySource, PROVIDERS_FILE, ProfileRemoval, ProfileStore, ProviderConfig,
    ProviderKind, ProviderProfile, config_dir, config_dir_with,
};
pub use profile_check::{KindInfo, ProfileField, ProfileProblem};
pub use schema_flat::flatten_schema;
pub use scripted::ScriptedModel;
pub use secret::ApiKey;
pub use settings::{Capabilities, Prices, Sampling, StructuredOutput};
pub use structured::{
    JsonValidator, StructuredCompletion, StructuredMode, complete_structured, repair_request,
    schema_instructions, validator_from_schema,
};
pub use token_counter::{
    EstimateCounter, FileCounter, ServerCounter, TokenCounter, TokenSource, calibrated_ratio,
    count_prompt, token_counter, token_counter_checked,
};
pub use tokens::{count_tokens, estimate_prompt_tokens, estimate_usage};
pub use types::{
    CacheHint, ChatMessage, ChatRequest, Completion, FinishReason, JsonSchemaSpec, ModelInfo, Role,
    StreamEvent, Usage,
};
