//! JSON in a model's answers, below any model call: `mode` is how a provider asks its server for
//! JSON, `text` finds the object in an answer, `repair` fixes its unambiguous syntax mistakes
//! locally, `cut_answer` says what a token limit cut off, and `schema_flat` rewrites a JSON
//! Schema into the subset local servers compile. `structured` builds the whole structured call
//! (ask, validate, repair once) on top of these.

pub mod cut_answer;
pub mod mode;
pub mod repair;
pub mod schema_flat;
pub mod text;
