//! Progress of a running tick, as a stream of events for whoever watches (the CLI's progress
//! bar, the desktop app's channel). Serializable so a shell can forward them unchanged.

use serde::{Deserialize, Serialize};

use crate::evaluate::Finding;
use crate::plan::Plan;

pub use crate::model::Stage;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TickEvent {
    Started {
        tick: u32,
    },
    Stage {
        stage: Stage,
    },
    Planned {
        plan: Plan,
    },
    ToolFinished {
        id: String,
        tool: String,
        ok: bool,
        detail: String,
    },
    /// A piece of prose as it streams from the writer (or the reviser, after `Stage::Revising`).
    ProseDelta {
        text: String,
    },
    Findings {
        findings: Vec<Finding>,
    },
    Usage {
        role: crate::config::Role,
        prompt_tokens: u32,
        completion_tokens: u32,
    },
    /// The tick waits for the writer to accept, edit or reject its plan.
    AwaitingPlanReview {
        plan: Plan,
    },
    /// The tick waits for the writer's verdict on what it would commit.
    AwaitingReview {
        proposal: super::review::Proposal,
    },
    Committed {
        tick: u32,
        scene_id: String,
        title: String,
        words: u32,
    },
}

/// Receives events; `()` ignores them.
pub trait TickObserver {
    fn on_event(&self, event: TickEvent);
}

impl TickObserver for () {
    fn on_event(&self, _event: TickEvent) {}
}

impl<F: Fn(TickEvent)> TickObserver for F {
    fn on_event(&self, event: TickEvent) {
        self(event)
    }
}
