//! The test server's own tests over HTTP and as a process, linked into one test binary.

mod common;
mod http;
mod imitations;
mod misbehaviour;
mod processes;
mod prompt_cache;
mod scripting;
