//! A scriptable local HTTP server speaking the OpenAI chat-completions wire format, for the
//! engine's, CLI's and desktop app's end-to-end tests.
//!
//! A [`Script`] of [`Rule`]s decides each answer; [`TestServer`] serves it on 127.0.0.1 and
//! records every chat request for assertions. The `novel-test-server` binary serves a script
//! file for tests that run in another process.
//!
//! The replies (the `type` of a reply in a script file; builders on [`Reply`]):
//!
//! | `type` | builder | what the client gets |
//! |---|---|---|
//! | `text` | [`Reply::text`], [`Reply::empty`] | a normal answer, streamed or not as asked; `usage` (`u64::MAX` allowed), `raw_usage` (any JSON, e.g. `4e9`), `omit_usage`, `stream_usage`, `chunk_delay_ms` |
//! | `status` | [`Reply::status`] | an HTTP error with an OpenAI-style or custom body, optional `Retry-After` |
//! | `reject_json_schema` | [`Reply::reject_json_schema`], [`Reply::reject_json_schema_like`] | the refusal of `response_format: json_schema` as OpenAI (400), llama.cpp (500) or llama-cpp-python (500 with a pydantic validation message) sends it (`like`), else `then` |
//! | `reject_response_format` | [`Reply::reject_response_format`] | 400 for any `response_format`, else `then` |
//! | `cut_stream` | [`Reply::cut_stream`] | `after_chars` characters, then the connection drops |
//! | `delay` | [`Reply::delay`] | `then`, after `ms` milliseconds |
//! | `with_status` | [`Reply::with_status`] | `then`'s body with HTTP status `code` (a 500 whose body is huge or never ends) |
//! | `huge` | [`Reply::huge`] | `chars` characters of generated prose, in `chunk_chars`-sized SSE chunks (one giant line when as large as `chars`) or one plain body |
//! | `keep_alive` | [`Reply::keep_alive`] | `content`, then `: keep-alive` SSE comments (plain: spaces) every `interval_ms`, never finishing |
//! | `trickle` | [`Reply::trickle`] | `content` again every `interval_ms`, never finishing |
//!
//! Server-wide [`Quirks`] (`"quirks"` in a script file; builders on [`Script`]) make it imitate
//! a real server: Ollama's `/api/tags` and `/api/show`, LM Studio's `/api/v0/models`,
//! llama.cpp's `/props` and `/tokenize`, vLLM's `max_model_len`, with a context length; no
//! `/v1/models` at all; a parameter such as `temperature` refused with a 400 naming it. Every
//! request's method and path (chat or not) is kept in [`TestServer::hits`].
//!
//! A prompt cache like llama-server's ([`ServerOptions::cache_slots`], `--cache-slots N`; off
//! by default, and then nothing below is sent): N slots each keep the tokens of the last prompt
//! they served and its answer, and every answer says how much of its prompt was found there.
//!
//! | where | what the client gets with the cache on |
//! |---|---|
//! | non-streamed completion | `usage` with `prompt_tokens` (all prompt tokens, cached included), `completion_tokens`, `total_tokens`, `prompt_tokens_details.cached_tokens`; `timings` with `cache_n`, `prompt_n`, `prompt_ms` (at 100 prompt tokens a second), `prompt_per_token_ms`, `prompt_per_second`, `predicted_n`, `predicted_ms` (10 a second), `predicted_per_token_ms`, `predicted_per_second` |
//! | stream | the same `usage` on the usage chunk (when asked for, as before); `timings` on the last chunk before `[DONE]`: the usage chunk, else the finish chunk |
//! | request field `id_slot` | serves the prompt from that slot (when in range) |
//! | a script's `usage`, `raw_usage`, `omit_usage` | still win over the cache's usage; `timings` are sent all the same |
//! | `GET /slots` (imitating llama.cpp) | `[{"id", "n_ctx", "is_processing": false}, …]`; with the cache off, llama-server's 501 for `--no-slots` |
//! | `GET /props` (imitating llama.cpp) | `total_slots`: the slot count (1 with the cache off) |
//! | [`RecordedRequest::cache`] | the [`CacheReport`] (slot, `cache_n`, `prompt_n`) of each request, in memory |
//!
//! Tokens come from a stand-in tokenizer: the messages flattened as a ChatML chat template
//! would, cut at words (whitespace joining the next word, long words cut every four
//! characters), about four characters a token; equal prefixes give equal tokens. There is no
//! Anthropic `/v1/messages` endpoint.

mod cache;
mod quirks;
mod record;
mod reply;
mod request;
mod routes;
mod script;
mod selection;
mod server;
mod stream;
mod tokens;
mod wire;

pub use cache::CacheReport;
pub use quirks::{Imitates, Quirks};
pub use record::RecordedRequest;
pub use reply::{
    CutStreamReply, EndlessReply, HugeReply, Reply, ServerStyle, StatusReply, TextReply, UsageSpec,
};
pub use script::{DEFAULT_MODEL, Rule, Script, ScriptError};
pub use server::{BlockingTestServer, ServerOptions, TestServer};
