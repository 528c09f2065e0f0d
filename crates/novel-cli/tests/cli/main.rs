//! The `novel` binary's tests, one module per concern, linked into one test binary: every
//! integration test binary links the whole engine, so one binary instead of fourteen keeps the
//! build's disk use and link time down. Run one module with `cargo test -p novel-cli --test cli <module>::`.

mod audit;
mod bible;
mod budgets;
mod check;
mod common;
mod crash;
mod durability;
mod foundation;
mod help_examples;
mod history;
mod import_book;
mod interrupt;
mod keychain;
mod manuscript;
mod memory;
mod providers;
mod real_server;
mod roles_and_budgets;
mod shape;
mod story;
mod terminal_output;
mod usage;
mod weak_models;
