//! The models of a run, for any front end: each role's provider profile (novel.toml's
//! `[models]`, the default profile where a role names none, or one profile for every role when
//! the caller says so), each metered against one budget for the run (novel.toml's `[budget]`,
//! the run's limits replaced by the caller's) whose novel-wide limit counts what the novel's
//! committed ticks already spent. A profile is connected once however many roles use it.

use std::collections::HashMap;
use std::sync::Arc;

use novel_llm::{Budget, LanguageModel, Limits, LlmError, ProviderConfig, Spent};

use crate::config::Role;
use crate::novel::Novel;
use crate::store::{self, StoreError};
use crate::tick::Models;

#[derive(Debug, thiserror::Error)]
pub enum RoleModelError {
    /// A role's profile is missing or cannot be connected.
    #[error("the {role}'s provider profile: {source}")]
    Profile {
        role: Role,
        #[source]
        source: LlmError,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The models of `novel`'s roles from `profiles`, every role on `every_role` when given, with
/// `run` replacing the run's limits where it sets one.
pub fn models_for(
    novel: &Novel,
    profiles: &ProviderConfig,
    every_role: Option<&str>,
    run: Limits,
) -> Result<Models, RoleModelError> {
    let config = novel.config();
    let mut run_limits = config.budget.run;
    if run.tokens.is_some() {
        run_limits.tokens = run.tokens;
    }
    if run.cost.is_some() {
        run_limits.cost = run.cost;
    }
    let total = config.budget.novel;
    let before = if total.is_unlimited() {
        Spent::default()
    } else {
        store::spent_on_ticks(novel.store().conn())?
    };
    let budget = Budget::new(run_limits, total, before);
    let mut built: HashMap<String, Arc<dyn LanguageModel>> = HashMap::new();
    let mut model = |role: Role| -> Result<Arc<dyn LanguageModel>, RoleModelError> {
        let fail = |source| RoleModelError::Profile { role, source };
        let chosen = match every_role.or(config.models.for_role(role)) {
            Some(name) => profiles.require(name).map_err(fail)?,
            None => profiles.default().map_err(fail)?,
        };
        if let Some(model) = built.get(&chosen.name) {
            return Ok(model.clone());
        }
        let connected = novel_llm::connect(chosen).map_err(fail)?;
        let model = novel_llm::metered(connected, budget.clone(), chosen.prices);
        built.insert(chosen.name.clone(), model.clone());
        Ok(model)
    };
    Ok(Models {
        planner: model(Role::Planner)?,
        writer: model(Role::Writer)?,
        extractor: model(Role::Extractor)?,
        reviser: model(Role::Reviser)?,
        critic: model(Role::Critic)?,
    })
}
