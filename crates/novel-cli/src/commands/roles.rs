//! The models of a CLI run: the user's provider profiles handed to the engine's
//! [`novel_core::role_models`], with `--profile` for every role and the run's limits from
//! `--max-tokens` / `--max-cost`.

use anyhow::Result;
use novel_core::Novel;
use novel_core::run::Models;
use novel_llm::Limits;

/// The models of `novel`'s roles, metered against its budget and `run`'s limits.
pub fn models_for(novel: &Novel, profile: Option<&str>, run: Limits) -> Result<Models> {
    let profiles = super::providers::configured()?;
    Ok(novel_core::role_models::models_for(
        novel, &profiles, profile, run,
    )?)
}
