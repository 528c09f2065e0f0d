//! The providers: one [`LanguageModel`](crate::model::LanguageModel) per way of reaching a
//! model. `openai` speaks the OpenAI-compatible chat API (OpenAI, llama.cpp, Ollama, LM Studio,
//! vLLM, OpenRouter), `anthropic` and `gemini` their vendors' APIs, `command` runs a
//! command-line agent in a sandbox of its own, and `scripted` answers from a script for tests.
//! Each HTTP provider keeps its wire format (request body, answer and stream parsing) in its
//! own `wire.rs`, pure functions tested from recorded fixtures; what they share (the request
//! loop, server-sent events, bounds, errors) sits beside this folder. Providers do not know
//! each other: `connect` picks one for a profile.

pub mod anthropic;
pub mod command;
pub mod gemini;
pub mod openai;
pub mod scripted;
