//! The typed commands the UI calls, one module per view. Each is a thin adapter: it takes the
//! open novel from [`crate::state`], calls `novel-core`, and maps errors to [`crate::error`].

pub mod allowed;
pub mod audit;
pub mod bible;
pub mod chapters;
pub mod export;
pub mod graph;
pub mod history;
pub mod import;
pub mod library;
mod open_novel;
pub mod provider_discovery;
pub mod providers;
pub mod reader;
pub mod replace;
pub mod search;
pub mod settings;
pub mod shape;
pub mod synopsis;
#[cfg(test)]
mod test_novel;
pub mod timeline;
pub mod write;
