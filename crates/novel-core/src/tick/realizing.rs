//! The plan-kept step: the extraction call judges whether the scene did what its plan intended
//! (realized, partly, not). A scene that went elsewhere, in a tick whose one revision is still
//! unspent, is revised once with what was missed and read again, so its memory changes and
//! verdict are those of the prose that is kept. Partly is recorded and kept: the audit counts
//! it, and an outline beat still moves on.

use super::checking::{Checked, revise_to_plan};
use super::error::Failure;
use super::extracting::extract;
use super::extraction::Extraction;
use super::planning::Acted;
use super::state::TickRun;
use crate::model::Realized;

pub(super) async fn hold_to_plan(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    checked: Checked,
    extraction: Extraction,
) -> Result<(Checked, Extraction), Failure> {
    let missed = match &extraction.plan_verdict {
        Some(v) if v.verdict == Realized::Not && !checked.revised => v.missed.clone(),
        _ => return Ok((checked, extraction)),
    };
    let missed = if missed.is_empty() {
        vec![acted.plan.scene_intention.trim().to_string()]
    } else {
        missed
    };
    match revise_to_plan(run, acted, &checked, &missed).await? {
        Some(revised) => {
            let extraction = extract(run, acted, &revised).await?;
            Ok((revised, extraction))
        }
        None => Ok((checked, extraction)),
    }
}
