//! What a tick ends with: the committed scene and everything recorded with it, or the error
//! that left the story unchanged.

use std::path::PathBuf;

use super::error::ErrorKind;
use super::events::Stage;
use super::extraction::ApplyReport;
use crate::evaluate::Finding;
use crate::executor::ExecutionReport;
use crate::model::{Scene, TickUsage};
use crate::plan::Plan;

/// What a committed tick produced.
#[derive(Debug, Clone)]
pub struct TickOutcome {
    pub tick: u32,
    pub scene: Scene,
    pub plan: Plan,
    pub execution: ExecutionReport,
    pub findings: Vec<Finding>,
    pub revised: bool,
    pub applied: ApplyReport,
    pub usage: TickUsage,
    /// What the engine repaired, clamped or dropped on the way.
    pub notes: Vec<String>,
    pub files: Vec<PathBuf>,
    /// Microseconds per step, the commit and the files included.
    pub timings: crate::model::Timings,
}

#[derive(Debug, thiserror::Error)]
pub enum TickError {
    #[error("tick {tick} failed while {}: {message}\nThe story is unchanged. Details: {}", stage.label(), error_file.display())]
    Failed {
        tick: u32,
        stage: Stage,
        kind: ErrorKind,
        message: String,
        error_file: PathBuf,
    },
    #[error("tick {tick} was cancelled; the story is unchanged")]
    Cancelled { tick: u32 },
    #[error("tick {tick} was rejected in review; the story is unchanged")]
    Rejected { tick: u32 },
    #[error("{0}")]
    Setup(String),
}

impl TickError {
    pub fn tick(&self) -> Option<u32> {
        match self {
            TickError::Failed { tick, .. }
            | TickError::Cancelled { tick }
            | TickError::Rejected { tick } => Some(*tick),
            TickError::Setup(_) => None,
        }
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            TickError::Failed { kind, .. } => *kind,
            TickError::Cancelled { .. } => ErrorKind::Cancelled,
            TickError::Rejected { .. } => ErrorKind::Rejected,
            TickError::Setup(_) => ErrorKind::Setup,
        }
    }
}
