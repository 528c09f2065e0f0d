//! A writer's prose edit reaches the memory. After an edit, one extraction call reads the scene
//! as it now is and proposes what changes — its title, summary and tension, and each memory
//! change as an item the writer can untick — together with the later scenes whose continuity
//! checks would newly fail against the changed memory ("scene 14 still has Bram alive"). Those
//! are listed for the writer, never rewritten. Accepting applies the kept items as one
//! recorded change.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::edit::{BibleError, recorded};
use crate::clock::Clock;
use crate::config::NovelConfig;
use crate::evaluate::{self, Check, CheckScope, Finding};
use crate::model::Scene;
use crate::novel::Novel;
use crate::store;
use crate::tick::{ApplyReport, Extraction, Models, ProposedChange, extract_scene};

/// A later scene that the changed memory now contradicts.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaterIssue {
    pub tick: u32,
    pub title: String,
    /// The continuity findings that are new against the changed memory.
    pub findings: Vec<Finding>,
}

/// What re-reading an edited scene proposes.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditProposal {
    pub tick: u32,
    pub title: String,
    pub summary: Vec<String>,
    pub tension: u8,
    /// Every memory change, numbered; untick by number.
    pub changes: Vec<ProposedChange>,
    /// Later scenes whose checks would newly fail if every change is kept.
    pub later: Vec<LaterIssue>,
    /// What the engine repaired in the extractor's answer.
    pub notes: Vec<String>,
    /// The extraction the proposal was made from; accepting applies it.
    pub extraction: Extraction,
}

/// What accepting a proposal did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditAccepted {
    pub applied: ApplyReport,
    /// Later scenes that now fail their continuity checks (flagged for the writer).
    pub later: Vec<LaterIssue>,
}

const CONTINUITY: [Check; 5] = [
    Check::DeadCharacter,
    Check::LostItem,
    Check::TwoPlaces,
    Check::Contradiction,
    Check::Unreachable,
];

fn scene_at(conn: &rusqlite::Connection, tick: u32) -> Result<Scene, BibleError> {
    store::list_scenes(conn)?
        .into_iter()
        .find(|s| s.tick == tick)
        .ok_or_else(|| BibleError::NotFound {
            what: "scene",
            id: tick.to_string(),
        })
}

/// The continuity findings of every scene after `tick`, against the memory `conn` holds.
fn continuity_after(
    conn: &rusqlite::Connection,
    config: &NovelConfig,
    tick: u32,
) -> Result<BTreeMap<u32, (String, Vec<Finding>)>, BibleError> {
    let mut out = BTreeMap::new();
    for scene in store::list_scenes(conn)?
        .into_iter()
        .filter(|s| s.tick > tick)
    {
        let scope = CheckScope {
            pov_character: scene.pov_character.clone(),
            location: scene.location.clone(),
        };
        let findings = evaluate::check_text(conn, config, &scope, &scene.prose)
            .map_err(|e| BibleError::Invalid(e.to_string()))?
            .into_iter()
            .filter(|f| CONTINUITY.contains(&f.check))
            .collect();
        out.insert(scene.tick, (scene.title, findings));
    }
    Ok(out)
}

/// The findings of `after` that `before` did not have, scene by scene.
fn newly_failing(
    before: &BTreeMap<u32, (String, Vec<Finding>)>,
    after: BTreeMap<u32, (String, Vec<Finding>)>,
) -> Vec<LaterIssue> {
    after
        .into_iter()
        .filter_map(|(tick, (title, findings))| {
            let old = before.get(&tick).map(|(_, f)| f.as_slice()).unwrap_or(&[]);
            let fresh: Vec<Finding> = findings
                .into_iter()
                .filter(|f| {
                    !old.iter()
                        .any(|o| o.check == f.check && o.excerpt == f.excerpt)
                })
                .collect();
            (!fresh.is_empty()).then_some(LaterIssue {
                tick,
                title,
                findings: fresh,
            })
        })
        .collect()
}

/// Re-reads the scene of `tick` (after the writer edited it) and proposes its memory changes.
pub async fn propose_after_edit(
    novel: &Novel,
    models: &Models,
    tick: u32,
) -> Result<EditProposal, BibleError> {
    let conn = novel.store().conn();
    let config = novel.config();
    let scene = scene_at(conn, tick)?;
    let read = extract_scene(conn, config, &*models.extractor, &scene)
        .await
        .map_err(|e| BibleError::Invalid(format!("the scene could not be re-read: {e}")))?;
    let before = continuity_after(conn, config, tick)?;
    // What would fail: the changes applied in a transaction that is then rolled back.
    let later = {
        let tx = novel.store().begin()?;
        read.extraction.apply(&tx, tick);
        let after = continuity_after(&tx, config, tick)?;
        drop(tx);
        newly_failing(&before, after)
    };
    Ok(EditProposal {
        tick,
        title: read.extraction.title.clone(),
        summary: read.extraction.summary.clone(),
        tension: read.extraction.tension,
        changes: read.extraction.proposed_changes_in_words(conn),
        later,
        notes: read.notes,
        extraction: read.extraction,
    })
}

/// Applies a proposal without the changes numbered in `unticked`: the scene's new title,
/// summary and tension and the kept memory changes, as one recorded change.
pub fn accept_edit_proposal(
    novel: &mut Novel,
    proposal: &EditProposal,
    unticked: &[u32],
    clock: &dyn Clock,
) -> Result<EditAccepted, BibleError> {
    let config = novel.config().clone();
    let tick = proposal.tick;
    let before = continuity_after(novel.store().conn(), &config, tick)?;
    let kept = proposal.extraction.clone().without(unticked);
    let label = format!("the memory follows the writer's edit of scene {tick}");
    let (applied, scene) = recorded(novel, &label, clock, |tx, _| {
        let scene = scene_at(tx, tick)?;
        store::update_scene_title(tx, &scene.id, &kept.title)?;
        store::update_scene_summary(tx, &scene.id, &kept.summary, Some(kept.tension))?;
        let applied = kept.apply(tx, tick);
        Ok((applied, scene_at(tx, tick)?))
    })?;
    let root = novel.root().to_path_buf();
    if let Err(e) =
        crate::files::write_scene(&root, tick, &scene.title, &scene.summary, &scene.prose)
    {
        tracing::warn!("scene {tick} changed but its file was not rewritten: {e}");
    }
    let after = continuity_after(novel.store().conn(), &config, tick)?;
    Ok(EditAccepted {
        applied,
        later: newly_failing(&before, after),
    })
}
