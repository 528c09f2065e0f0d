//! A scriptable local HTTP server speaking the OpenAI chat-completions wire format, for the
//! engine's, CLI's and desktop app's end-to-end tests.
//!
//! A [`Script`] of [`Rule`]s decides each answer; [`TestServer`] serves it on 127.0.0.1 and
//! records every chat request for assertions. The `novel-test-server` binary serves a script
//! file for tests that run in another process.

mod record;
mod reply;
mod request;
mod routes;
mod script;
mod selection;
mod server;
mod stream;
mod wire;

pub use record::RecordedRequest;
pub use reply::{CutStreamReply, Reply, StatusReply, TextReply, UsageSpec};
pub use script::{DEFAULT_MODEL, Rule, Script, ScriptError};
pub use server::{BlockingTestServer, ServerOptions, TestServer};
