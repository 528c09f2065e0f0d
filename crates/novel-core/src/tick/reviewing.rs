//! The review step (review mode only): the tick shows the writer everything it is about to
//! commit and waits for the verdict. Edited prose replaces the scene; unticked memory changes
//! are left out of the extraction; a rejection ends the tick with nothing changed.

use super::checking::Checked;
use super::error::{Failure, StepError};
use super::events::{Stage, TickEvent};
use super::extraction::Extraction;
use super::planning::Acted;
use super::review::{Proposal, ToolOutcome, Verdict};
use super::state::TickRun;
use crate::model::count_words;
use crate::text::{clip, strip_controls};

pub(super) async fn review(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    mut checked: Checked,
    extraction: Extraction,
) -> Result<(Checked, Extraction), Failure> {
    let Some(reviewer) = run.options.reviewer.clone() else {
        return Ok((checked, extraction));
    };
    let proposal = Proposal {
        tick: run.tick,
        plan: acted.plan.clone(),
        tools: acted
            .report
            .results
            .iter()
            .map(|r| ToolOutcome {
                tool: r.tool.clone(),
                ok: r.error.is_none(),
                detail: clip(
                    &r.error
                        .clone()
                        .or_else(|| r.output.as_ref().map(ToString::to_string))
                        .unwrap_or_default(),
                    200,
                ),
            })
            .collect(),
        title: extraction.title.clone(),
        summary: extraction.summary.clone(),
        tension: extraction.tension,
        prose: checked.prose.clone(),
        findings: checked.findings.clone(),
        changes: extraction.proposed_changes_in_words(&acted.tx),
        notes: run.notes.clone(),
    };
    run.emit(TickEvent::AwaitingReview {
        proposal: proposal.clone(),
    });
    match reviewer.0.review(&proposal).await {
        Verdict::Reject => Err(StepError::Rejected.at(Stage::Extracting)),
        Verdict::Accept { prose, unticked } => {
            if let Some(edited) = prose.map(|p| strip_controls(p.trim()))
                && edited != checked.prose
                && count_words(&edited) > 0
            {
                checked.prose = edited;
                run.note("the writer edited the prose in review");
            }
            if !unticked.is_empty() {
                run.note(format!(
                    "the writer left out {} memory change(s) in review",
                    unticked.len()
                ));
            }
            Ok((checked, extraction.without(&unticked)))
        }
    }
}
