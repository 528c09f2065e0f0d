//! The writer in control of the story's history: regenerate the latest scene, rewind to an
//! earlier scene (the later scenes become a branch, never lost), fork a "what if" branch at any
//! scene, switch, rename and delete branches, and read every version of a scene and a scene as
//! each branch has it. Every move is exact (recorded changes, see `store::changes`) and one
//! transaction; the scene and plan files follow the database afterwards.

mod again;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::branches::{self, BranchError, BranchInfo, MoveReport};
use crate::clock::{Clock, timestamp};
use crate::files::{self, MirrorError};
use crate::novel::{Novel, NovelError};
use crate::store::{self, SceneVersion, StoreError};
use crate::tick::{self, CancelToken, Models, TickError, TickObserver, TickOptions, TickOutcome};

pub use again::write_again_refusal;

#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("there is no scene to regenerate yet; write one with Next scene")]
    NothingToRegenerate,
    #[error("the novel is open read-only; this needs it opened for writing")]
    ReadOnly,
    #[error(transparent)]
    Branch(#[from] BranchError),
    #[error(transparent)]
    Tick(#[from] TickError),
    #[error(transparent)]
    Novel(#[from] NovelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Files(#[from] MirrorError),
}

fn store_of(novel: &mut Novel) -> Result<&mut store::Store, ControlError> {
    novel.store_mut().ok_or(ControlError::ReadOnly)
}

/// Runs `f` on one transaction that moves the story, then brings the files in line.
fn moving<T>(
    novel: &mut Novel,
    f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<(T, MoveReport), BranchError>,
) -> Result<(T, MoveReport), ControlError> {
    let root = novel.root().to_path_buf();
    let store = store_of(novel)?;
    let tx = store.transaction()?;
    let (value, report) = f(&tx)?;
    tx.commit().map_err(StoreError::from)?;
    files::mirror_ticks(&root, novel.store().conn(), report.ticks.iter().copied())?;
    novel.write_foundation_file()?;
    Ok((value, report))
}

/// Writes the latest scene again: its tick's changes (and any edits since) are undone exactly,
/// a new tick runs with the same number, and the old scene stays as a version. If the new tick
/// fails or is cancelled the old scene comes back, exactly as it was.
pub async fn regenerate(
    novel: &mut Novel,
    models: &Models,
    options: &TickOptions,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<TickOutcome, ControlError> {
    let current = novel.state()?.current_tick;
    if current == 0 {
        return Err(ControlError::NothingToRegenerate);
    }
    let ((), _) = moving(novel, |tx| {
        // Only the agent's own latest scene is written again (see `again`).
        let Some(latest) = again::agent_scene_change(tx, current)? else {
            return Err(BranchError::BeforeHistory {
                tick: current,
                baseline: store::head(tx)?.baseline_tick,
            });
        };
        let old_head = store::head(tx)?.head;
        let parent = store::get_change(tx, latest)?.parent;
        let report = branches::reset_branch(tx, parent)?;
        // Until the new scene commits, opening the novel brings the old one back.
        store::set_restore_to(tx, old_head)?;
        Ok(((), report))
    })?;
    let options = TickOptions {
        regeneration: true,
        ..options.clone()
    };
    let outcome = tick::run_tick(novel, models, &options, observer, cancel, clock).await;
    match outcome {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            moving(novel, |tx| {
                let back = branches::finish_interrupted(tx)?;
                // The failure belonged to the attempt, not to the scene that is back.
                store::resolve_failures(tx, current)?;
                let report = if back {
                    MoveReport {
                        ticks: BTreeSet::from([current]),
                        ..MoveReport::default()
                    }
                } else {
                    MoveReport::default()
                };
                Ok(((), report))
            })?;
            Err(e.into())
        }
    }
}

/// What a rewind did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RewindReport {
    /// The scene the story now ends with.
    pub tick: u32,
    /// The branch that keeps the scenes after it, when there were any.
    pub kept_in: Option<String>,
}

/// Returns the story exactly to its state right after scene `to`; the scenes and edits after
/// it become a new branch (named after what it holds), so nothing is lost.
pub fn rewind(novel: &mut Novel, to: u32, clock: &dyn Clock) -> Result<RewindReport, ControlError> {
    let now = timestamp(clock.now());
    let current = novel.state()?.current_tick;
    let (kept_in, _) = moving(novel, |tx| {
        let target = branches::change_of_tick(tx, to)?;
        let head = store::head(tx)?;
        if head.head == target {
            return Ok((None, MoveReport::default()));
        }
        let base = format!("{} (scenes {}–{current})", head.branch_name, to + 1);
        let base = if to >= current {
            format!("{} (edits after scene {to})", head.branch_name)
        } else {
            base
        };
        let name = branches::unused_name(tx, &base)?;
        branches::create_branch(tx, &name, head.head, &now)?;
        let mut report = branches::reset_branch(tx, target)?;
        report.ticks.extend(to + 1..=current);
        Ok((Some(name), report))
    })?;
    Ok(RewindReport { tick: to, kept_in })
}

/// A new branch at scene `at` (default: the latest), made current: the story moves there.
pub fn fork(
    novel: &mut Novel,
    name: &str,
    at: Option<u32>,
    clock: &dyn Clock,
) -> Result<String, ControlError> {
    let now = timestamp(clock.now());
    let current = novel.state()?.current_tick;
    let (name, _) = moving(novel, |tx| {
        let target = match at {
            Some(tick) => branches::change_of_tick(tx, tick)?,
            None => store::head(tx)?.head,
        };
        let name = branches::create_branch(tx, name, target, &now)?;
        let mut report = branches::switch_branch(tx, &name)?;
        report.ticks.extend(at.unwrap_or(current) + 1..=current);
        Ok((name, report))
    })?;
    Ok(name)
}

/// Makes branch `name` current; the story takes that branch's latest state.
pub fn switch(novel: &mut Novel, name: &str) -> Result<MoveReport, ControlError> {
    let before = novel.state()?.current_tick;
    let ((), mut report) = moving(novel, |tx| Ok(((), branches::switch_branch(tx, name)?)))?;
    let after = novel.state()?.current_tick;
    // Scenes past the end of the shorter line have no file any more, or a new one.
    let tail: Vec<u32> = (after.min(before) + 1..=after.max(before)).collect();
    files::mirror_ticks(novel.root(), novel.store().conn(), tail.iter().copied())?;
    report.ticks.extend(tail);
    Ok(report)
}

pub fn rename(novel: &mut Novel, from: &str, to: &str) -> Result<String, ControlError> {
    let store = store_of(novel)?;
    let tx = store.transaction()?;
    let name = branches::rename_branch(&tx, from, to)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(name)
}

pub fn delete(novel: &mut Novel, name: &str) -> Result<(), ControlError> {
    let store = store_of(novel)?;
    let tx = store.transaction()?;
    branches::delete_branch(&tx, name)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

pub fn list(novel: &Novel) -> Result<Vec<BranchInfo>, ControlError> {
    Ok(branches::list_branches(novel.store().conn())?)
}

/// Every version of a scene, oldest first, and which one the scene shows now.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SceneVersions {
    pub tick: u32,
    pub versions: Vec<SceneVersion>,
    /// The id of the version the current branch shows.
    #[cfg_attr(feature = "specta", specta(type = Option<u32>))]
    pub current: Option<i64>,
}

pub fn versions(novel: &Novel, tick: u32) -> Result<SceneVersions, ControlError> {
    let conn = novel.store().conn();
    let head = store::head(conn)?;
    let current = branches::scene_on_branch(conn, &head.branch_name, tick)?.map(|v| v.id);
    Ok(SceneVersions {
        tick,
        versions: store::versions_of(conn, tick)?,
        current,
    })
}

/// The scene of `tick` as each branch has it (a branch that never reached it has none).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BranchScene {
    pub branch: String,
    pub current: bool,
    pub scene: Option<SceneVersion>,
}

pub fn scene_across_branches(novel: &Novel, tick: u32) -> Result<Vec<BranchScene>, ControlError> {
    let conn = novel.store().conn();
    branches::list_branches(conn)?
        .into_iter()
        .map(|b| {
            let scene = if b.tick >= tick {
                branches::scene_on_branch(conn, &b.name, tick)?
            } else {
                None
            };
            Ok(BranchScene {
                branch: b.name,
                current: b.current,
                scene,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_again;
