//! What a tick is given: the model of each role, the writer's steering and the limits, the
//! reviewer, and the tools' health shared by the ticks of a run.

use std::sync::{Arc, Mutex};

use novel_llm::LanguageModel;

use super::review::Reviewer;
use crate::config::Role;
use crate::executor::{ExecutorConfig, HealthBook};

/// The models a tick talks to; one model may fill every role.
#[derive(Clone)]
pub struct Models {
    pub planner: Arc<dyn LanguageModel>,
    pub writer: Arc<dyn LanguageModel>,
    pub extractor: Arc<dyn LanguageModel>,
    /// The second opinion, when the novel asks for one (`generation.critic`).
    pub critic: Arc<dyn LanguageModel>,
    /// Rewrites a draft the checks found fault with (usually the writer's model).
    pub reviser: Arc<dyn LanguageModel>,
}

impl Models {
    pub fn single(model: Arc<dyn LanguageModel>) -> Models {
        Models {
            planner: model.clone(),
            writer: model.clone(),
            extractor: model.clone(),
            critic: model.clone(),
            reviser: model,
        }
    }

    /// The model of `role`, as the tick names roles in its usage.
    pub fn for_role(&self, role: Role) -> &Arc<dyn LanguageModel> {
        match role {
            Role::Planner => &self.planner,
            Role::Writer => &self.writer,
            Role::Extractor => &self.extractor,
            Role::Reviser => &self.reviser,
            Role::Critic => &self.critic,
        }
    }

    /// The most model tokens per estimated token among the roles whose prompts carry the
    /// story's context, so budgets scaled by it fit every one of those models.
    pub async fn tokens_per_estimate(&self) -> f64 {
        let ratios = futures::future::join_all(
            [
                &self.planner,
                &self.writer,
                &self.reviser,
                &self.extractor,
                &self.critic,
            ]
            .map(|m| m.tokens_per_estimate()),
        )
        .await;
        ratios
            .into_iter()
            .filter(|r| r.is_finite() && *r > 0.0)
            .reduce(f64::max)
            .unwrap_or(1.0)
    }
}

/// The health of the tools across a run of ticks: a tool that keeps failing stays out of the
/// planner's catalog for the rest of the run, not just the tick it failed in.
#[derive(Debug, Clone, Default)]
pub struct RunHealth(Arc<Mutex<HealthBook>>);

impl RunHealth {
    fn snapshot(&self) -> HealthBook {
        self.0.lock().map(|h| h.clone()).unwrap_or_default()
    }

    fn store(&self, book: HealthBook) {
        if let Ok(mut h) = self.0.lock() {
            *h = book;
        }
    }
}

#[derive(Debug, Clone)]
pub struct TickOptions {
    /// The writer's steering note for this scene.
    pub steering: Option<String>,
    /// Plans tried before the tick gives up (each may include one repair call).
    pub max_plan_attempts: u32,
    pub executor: ExecutorConfig,
    /// Shared by the ticks of one run; a fresh one per tick when not.
    pub health: RunHealth,
    /// This tick writes again a scene that was undone: its version is a regeneration.
    pub regeneration: bool,
    /// Who reviews the plan and the result before anything commits (review mode); `None`
    /// commits without asking.
    pub reviewer: Option<ReviewBy>,
    /// How many more times a run tries a tick whose scene could not be kept (see
    /// `evaluate::blocks_commit`), each with a fresh plan and draft, before it stops.
    pub retries: u32,
}

/// The reviewer of a tick, shareable between the ticks of a run.
#[derive(Clone)]
pub struct ReviewBy(pub Arc<dyn Reviewer>);

impl std::fmt::Debug for ReviewBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReviewBy(..)")
    }
}

impl TickOptions {
    pub(super) fn health_snapshot(&self) -> HealthBook {
        self.health.snapshot()
    }

    pub(super) fn store_health(&self, book: HealthBook) {
        self.health.store(book);
    }
}

impl Default for TickOptions {
    fn default() -> Self {
        TickOptions {
            steering: None,
            max_plan_attempts: 3,
            executor: ExecutorConfig::default(),
            health: RunHealth::default(),
            regeneration: false,
            reviewer: None,
            retries: 2,
        }
    }
}
