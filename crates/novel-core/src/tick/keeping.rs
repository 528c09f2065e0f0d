//! "Keep anyway": the draft of a tick that failed because its scene could not be kept
//! (commentary instead of story, the wrong person throughout; see `evaluate::blocks_commit`),
//! committed because the writer says so. The draft, its plan and its findings come from the
//! tick's error file; the scene is extracted and committed like an adopted one, and its tick
//! record says that the writer overrode the checks and what they had found.
//!
//! "Keep as a draft": the same draft (or the part of it that streamed before the provider
//! failed) committed with no model call at all, for the writer to finish by hand in the
//! editor: its title and summary come from its own sentences and its memory is left unread
//! (the editor's save offers to read it), so it can be kept while the provider is still down.

use super::adopting::{Adopted, WrittenScene, run_steps};
use super::cancel::CancelToken;
use super::events::TickObserver;
use super::options::{Models, TickOptions};
use super::outcome::{TickError, TickOutcome};
use super::starting::{new_run, start};
use crate::clock::Clock;
use crate::evaluate::{Finding, Severity};
use crate::files;
use crate::novel::Novel;
use crate::plan::Plan;
use crate::store;

/// How a failed draft is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepAs {
    /// A scene like any other: its memory is read with one extraction call ("Keep anyway").
    Scene,
    /// A draft the writer finishes by hand: no model call, memory left unread.
    Draft,
}

/// Commits the failed draft of the next tick as it is, with one extraction call.
pub async fn keep_failed_draft(
    novel: &mut Novel,
    models: &Models,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, TickError> {
    keep_failed_draft_as(novel, models, KeepAs::Scene, observer, cancel, clock).await
}

/// Commits the failed draft of the next tick, as a scene or as a draft to finish by hand.
pub async fn keep_failed_draft_as(
    novel: &mut Novel,
    models: &Models,
    keep_as: KeepAs,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, TickError> {
    let tick = start(novel, "keeping a failed draft", observer)?;
    let setup = |message: String| TickError::Setup(message);
    let pending = store::list_failures(novel.store().conn())
        .map_err(|e| setup(e.to_string()))?
        .into_iter()
        .any(|f| f.tick == tick && !f.resolved);
    if !pending {
        return Err(setup(format!(
            "there is no failed draft to keep: tick {tick} has not failed"
        )));
    }
    let (path, _) = files::error_paths(novel.root(), tick);
    let record: serde_json::Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or_else(|| setup(format!("cannot read {}", path.display())))?;
    let Some(prose) = record["prose"].as_str().filter(|p| !p.trim().is_empty()) else {
        return Err(setup(format!(
            "tick {tick} failed before it had a draft ({}): there is nothing to keep; retry it instead",
            record["error"]["message"]
                .as_str()
                .unwrap_or("see its error file")
        )));
    };
    let findings: Vec<Finding> =
        serde_json::from_value(record["findings"].clone()).unwrap_or_default();
    let plan: Option<Plan> = serde_json::from_value(record["plan"].clone()).ok();
    let scene = WrittenScene {
        prose: prose.to_string(),
        title: None,
    };
    let adopted = Adopted {
        plan: plan.unwrap_or_else(|| Plan {
            rationale: "A failed draft the writer kept.".into(),
            scene_intention: "The draft as written.".into(),
            pov_character: None,
            target_location: None,
            beat: None,
            actions: Vec::new(),
            expected_outcomes: Vec::new(),
        }),
        revised: record["findings"].is_array(),
        findings: findings.clone(),
        read_memory: keep_as == KeepAs::Scene,
    };
    let options = TickOptions::default();
    let mut run = new_run(novel, tick, models, &options, observer, cancel, clock).await;
    // Should keeping fail too, its error file still holds the draft.
    run.partial.prose = Some(scene.prose.clone());
    run.partial.plan = Some(record["plan"].clone()).filter(|p| !p.is_null());
    run.partial.findings = Some(record["findings"].clone()).filter(|f| !f.is_null());
    let mut overridden: Vec<String> = findings
        .iter()
        .filter(|f| f.severity == Severity::Violation)
        .map(|f| f.check.label().to_string())
        .collect();
    overridden.dedup();
    run.note(if keep_as == KeepAs::Draft {
        "the writer kept this draft to finish by hand after its scene could not be written; memory was not read from it yet".to_string()
    } else if overridden.is_empty() {
        "the writer kept this draft after its tick failed".to_string()
    } else {
        format!(
            "the writer kept this draft over the checks: {}",
            overridden.join(", ")
        )
    });
    run_steps(novel, &mut run, &scene, adopted, &|_, _| Ok(()), cancel).await
}
