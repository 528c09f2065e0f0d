//! Counting tokens. `estimate` is the o200k count used wherever a server reports no usage and
//! for every prompt budget, `reported` reads the counts servers send without trusting them,
//! `counter` counts the way a profile's own model does (its `tokenizer.json` or its server's
//! `/tokenize`), and `window` keeps a request inside the model's context window by those
//! counts.

pub mod counter;
pub mod estimate;
pub mod reported;
pub mod window;

pub use estimate::{count_tokens, estimate_prompt_tokens, estimate_usage};
