//! The providers over real HTTP against the test server, linked into one test binary to keep the
//! build's disk use and link time down. Run one module with `cargo test -p novel-llm --test http <module>::`.

mod anthropic_gemini_http;
mod hostile_servers;
mod local_servers;
mod openai_http;
mod redirects_http;
mod secrets_http;
mod support;
