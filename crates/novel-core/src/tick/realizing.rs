//! The after-reading step: the extraction call judges whether the scene did what its plan
//! intended (realized, partly, not), and its memory changes are tried against the story
//! memory. A scene that went elsewhere, or that says the opposite of what memory holds (a dead
//! man walking, a recorded fact changed with no reason the scene gives), is revised once — when
//! the tick's one revision is unspent — and read again, so its memory changes and verdict are
//! those of the prose that is kept. What still disagrees after that is committed flagged and
//! named in the tick's notes, never silently. Partly realized is recorded and kept: the audit
//! counts it, and an outline beat still moves on.

use rusqlite::Transaction;

use super::checking::{Checked, revise_after_reading};
use super::error::{AtStage, Failure};
use super::events::Stage;
use super::extracting::extract;
use super::extraction::Extraction;
use super::planning::Acted;
use super::state::TickRun;
use crate::merge::Contradiction;
use crate::model::Realized;
use crate::plan::Plan;
use crate::store::{self, StoreError};

pub(super) async fn hold_to_plan(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    checked: Checked,
    extraction: Extraction,
) -> Result<(Checked, Extraction), Failure> {
    let conflicts = dry_run(&acted.tx, &extraction, run.tick).at(Stage::Extracting)?;
    let missed = match &extraction.plan_verdict {
        Some(v) if v.verdict == Realized::Not => Some(v.missed.clone()),
        _ => None,
    };
    if checked.revised || (missed.is_none() && conflicts.is_empty()) {
        note_conflicts(run, &acted.tx, &conflicts);
        return Ok((checked, extraction));
    }
    let mut brief = String::new();
    let mut why = Vec::new();
    if let Some(missed) = &missed {
        brief.push_str(&plan_brief(&acted.plan, missed));
        why.push(format!("the plan (missed: {})", missed.join("; ")));
    }
    if !conflicts.is_empty() {
        brief.push_str(&memory_brief(&conflicts, brief.is_empty()));
        why.push("what the story memory holds".to_string());
    }
    let Some(revised) =
        revise_after_reading(run, acted, &checked, &brief, &why.join(" and ")).await?
    else {
        note_conflicts(run, &acted.tx, &conflicts);
        return Ok((checked, extraction));
    };
    let extraction = extract(run, acted, &revised).await?;
    let still = dry_run(&acted.tx, &extraction, run.tick).at(Stage::Extracting)?;
    note_conflicts(run, &acted.tx, &still);
    Ok((revised, extraction))
}

/// The contradictions `extraction` would meet if applied now, found by applying it and
/// rolling back: the commit step applies it again for real.
fn dry_run(
    tx: &Transaction<'_>,
    extraction: &Extraction,
    tick: u32,
) -> Result<Vec<(String, Contradiction)>, StoreError> {
    tx.execute_batch("SAVEPOINT after_reading")?;
    let report = extraction.apply(tx, tick);
    tx.execute_batch("ROLLBACK TO after_reading; RELEASE after_reading")?;
    Ok(report.contradictions)
}

fn note_conflicts(
    run: &mut TickRun<'_>,
    tx: &Transaction<'_>,
    conflicts: &[(String, Contradiction)],
) {
    for (id, c) in conflicts {
        run.note(format!(
            "kept although the scene disagrees with the story memory (flagged on {}): {}",
            record_name(tx, id),
            c.reason
        ));
    }
}

/// The name a writer knows a character or place by; the id when it has none.
fn record_name(tx: &Transaction<'_>, id: &str) -> String {
    let character = store::get_character(tx, id).ok().flatten().map(|c| c.name);
    character
        .or_else(|| store::get_location(tx, id).ok().flatten().map(|l| l.name))
        .unwrap_or_else(|| id.to_string())
}

/// The reviser's brief when the scene went elsewhere than its plan: the intention, the
/// outcomes expected, and what the extractor found missing.
fn plan_brief(plan: &Plan, missed: &[String]) -> String {
    let mut brief = String::from(
        "1. [must fix] The scene does not do what was planned for it. Revise it so that it does, keeping what already works.\n",
    );
    brief.push_str(&format!("   Intended: {}\n", plan.scene_intention.trim()));
    if !plan.expected_outcomes.is_empty() {
        brief.push_str(&format!(
            "   Expected outcomes: {}\n",
            plan.expected_outcomes.join("; ")
        ));
    }
    let missed: Vec<&str> = missed
        .iter()
        .map(|m| m.trim())
        .filter(|m| !m.is_empty())
        .collect();
    if missed.is_empty() {
        brief.push_str(&format!("   Missing: {}\n", plan.scene_intention.trim()));
    }
    for item in missed {
        brief.push_str(&format!("   Missing: {item}\n"));
    }
    brief
}

/// The reviser's brief when the scene contradicts the story memory: each recorded fact, so the
/// revision agrees with it.
fn memory_brief(conflicts: &[(String, Contradiction)], first: bool) -> String {
    let mut brief = format!(
        "{}. [must fix] The scene contradicts what the story memory records. Revise it to agree with the record, changing as little as possible:\n",
        if first { 1 } else { 2 }
    );
    for (_, c) in conflicts {
        brief.push_str(&format!("   - {}\n", c.reason));
    }
    brief
}
