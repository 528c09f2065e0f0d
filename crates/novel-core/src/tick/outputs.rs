//! The files step and the failure record. After a commit the scene and plan files are written
//! (the database is the source of truth; a file that could not be written is rewritten from it
//! the next time the novel is opened for writing). After a failure, `errors/error_NNN.json` and
//! `.log` (`error_NNN_note_K.*` for a scene asked for at a place, see `files`) say what failed, where, what the tick had got to — the plan, the tools' results and
//! the draft prose, so nothing the model wrote is lost — and what to do next; a failure row
//! remembers it in the database while the story itself stays untouched.

use std::path::PathBuf;

use serde_json::json;

use super::committing::Committed;
use super::error::Failure;
use super::outcome::{TickError, TickOutcome};
use super::state::TickRun;
use crate::files::{self, ErrorInfo, ErrorRecord};
use crate::model::{Step, TickFailure};
use crate::novel::Novel;
use crate::store::{self, StoreError};

pub(super) fn write_files(
    run: &TickRun<'_>,
    committed: Committed,
    findings: Vec<crate::evaluate::Finding>,
    revised: bool,
) -> TickOutcome {
    let Committed {
        plan,
        report,
        scene,
        applied,
    } = committed;
    let writing = std::time::Instant::now();
    let mut written: Vec<PathBuf> = Vec::new();
    match files::write_scene(
        &run.root,
        run.tick,
        &scene.title,
        &scene.summary,
        &scene.prose,
    ) {
        Ok(p) => written.push(p),
        Err(e) => tracing::warn!(
            "scene {} committed but its file was not written: {e}",
            run.tick
        ),
    }
    let plan_file = json!({
        "tick": run.tick,
        "timestamp": run.started_at,
        "plan": plan,
        "execution": report,
        "findings": findings,
        "revised": revised,
        "usage": run.usage,
        "applied": applied,
        "notes": run.notes,
        "context_used": run.context_used,
    });
    let path = files::plan_path(&run.root, run.tick);
    match files::write_json(&path, &plan_file) {
        Ok(()) => written.push(path),
        Err(e) => tracing::warn!(
            "plan {} committed but its file was not written: {e}",
            run.tick
        ),
    }
    let mut timings = run.timings.clone();
    timings.insert(
        Step::Files,
        u64::try_from(writing.elapsed().as_micros()).unwrap_or(u64::MAX),
    );
    TickOutcome {
        tick: run.tick,
        timings,
        scene,
        plan,
        execution: report,
        findings,
        revised,
        applied,
        usage: run.usage.clone(),
        notes: run.notes.clone(),
        files: written,
    }
}

/// Writes the error files and the failure row; the story tables are untouched.
pub(super) fn record_failure(novel: &mut Novel, run: &TickRun<'_>, failure: Failure) -> TickError {
    let tick = run.tick;
    let message = crate::text::strip_controls(&failure.error.to_string());
    let kind = failure.error.kind();
    let record = ErrorRecord {
        tick,
        timestamp: run.started_at.clone(),
        error: ErrorInfo {
            kind,
            message: message.clone(),
        },
        stage: failure.stage,
        plan: run.partial.plan.clone(),
        execution: run.partial.execution.clone(),
        prose: run.partial.prose.clone(),
        findings: run.partial.findings.clone(),
        notes: run.notes.clone(),
        context_used: serde_json::to_value(&run.context_used).ok(),
        instructions: if run.placed {
            failure.error.advice_then(
                failure.stage,
                "then ask the agent again for this scene (`novel scene write`, or Ask the agent \
                 in the Manuscript)",
            )
        } else {
            format!(
                "{}\nTo retry: novel tick --retry\nTo give up on this attempt: novel tick --skip",
                failure.error.advice(failure.stage)
            )
        },
    };
    let root = novel.root().to_path_buf();
    // A scene asked for at a place has files of its own: its number may be the next scene's,
    // whose error file (and draft) must stay, and the writer may ask there again.
    let written = if run.placed {
        files::write_note_error(&root, &record)
    } else {
        files::write_error(&root, &record)
    };
    let error_file = match written {
        Ok((json, _log)) => json,
        Err(e) => {
            tracing::error!("cannot write the error file: {e}");
            files::error_paths(&root, tick).0
        }
    };
    if let Some(store) = novel.store_mut() {
        let row = TickFailure {
            seq: 0,
            tick,
            at: run.started_at.clone(),
            error_type: kind.as_str().to_string(),
            message: message.clone(),
            error_file: error_file.display().to_string(),
            // A scene asked for at a place is no next scene for Next scene to retry.
            resolved: run.placed,
        };
        let saved = store.transaction().and_then(|tx| {
            store::record_failure(&tx, &row)?;
            tx.commit().map_err(StoreError::from)
        });
        if let Err(e) = saved {
            tracing::error!("cannot record the failure in the database: {e}");
        }
    }
    TickError::Failed {
        tick,
        stage: failure.stage,
        kind,
        message,
        error_file,
    }
}
