//! The engine's integration tests (checks corpus, context scale, layering, retrieval), linked into
//! one test binary to keep the build's disk use and link time down. Run one module with
//! `cargo test -p novel-core --test engine <module>::`.

mod audit_corpus;
mod check_corpus;
mod context_scale;
mod layers;
mod modules;
mod prose_corpus;
mod retrieval;
