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

mod quirks;
mod record;
mod reply;
mod request;
mod routes;
mod script;
mod selection;
mod server;
mod stream;
mod wire;

pub use quirks::{Imitates, Quirks};
pub use record::RecordedRequest;
pub use reply::{
    CutStreamReply, EndlessReply, HugeReply, Reply, ServerStyle, StatusReply, TextReply, UsageSpec,
};
pub use script::{DEFAULT_MODEL, Rule, Script, ScriptError};
pub use server::{BlockingTestServer, ServerOptions, TestServer};
