//! The story's history in the reader and the branches panel: the versions of a scene, the
//! difference between two of them, restoring one; rewinding to an earlier scene; listing,
//! making, switching, renaming and deleting branches; a scene as each branch has it. Moves
//! take the write handle (refused while a scene is being written); reads use their own
//! connection.

use std::sync::Arc;

use novel_core::clock::SystemClock;
use novel_core::control::{self, BranchScene, RewindReport, SceneVersions};
use novel_core::diff::DiffRun;
use novel_core::edits;
use novel_core::views::{self, BranchRow, SceneView};
use tauri::{AppHandle, State};

use super::open_novel::{changed, edit_open_novel};
use crate::dialogs::{Dialogs, Question};
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

/// Every version of the scene of `tick`, oldest first, and which one it shows now.
#[tauri::command]
#[specta::specta]
pub async fn scene_versions(state: State<'_, AppState>, tick: u32) -> AppResult<SceneVersions> {
    let novel = state.session()?.read()?;
    Ok(control::versions(&novel, tick)?)
}

/// What changed from version `from` to version `to`, word by word.
#[tauri::command]
#[specta::specta]
pub async fn version_diff(
    state: State<'_, AppState>,
    from: u32,
    to: u32,
) -> AppResult<Vec<DiffRun>> {
    let novel = state.session()?.read()?;
    Ok(views::version_diff(
        novel.store().conn(),
        from.into(),
        to.into(),
    )?)
}

/// Makes `version` the text of its scene again (itself a new version, so it can be undone).
#[tauri::command]
#[specta::specta]
pub async fn restore_version(
    app: AppHandle,
    state: State<'_, AppState>,
    version: u32,
) -> AppResult<SceneView> {
    let session = state.session()?;
    let tick = {
        let mut novel = session.write()?;
        edits::restore_version(&mut novel, version.into(), &SystemClock)?.tick
    };
    changed(
        &app,
        Some(session.path_string()),
        ChangeReason::VersionRestored,
    );
    let novel = session.read()?;
    views::manuscript(novel.store().conn())?
        .into_iter()
        .find(|s| s.tick == tick)
        .ok_or_else(|| AppError::NotFound {
            message: format!("there is no scene {tick} on this branch"),
        })
}

/// The native question before a rewind: what goes back, and what is kept.
fn rewind_question(tick: u32) -> Question {
    Question {
        title: format!("Rewind to scene {tick}?"),
        message: format!(
            "The story goes back to how it was right after scene {tick}: its characters, places, \
             loops and relationships too, so the next scene continues from there.\n\n\
             The later scenes are not lost: they are kept in a new branch, which you can switch \
             back to from Branch in the header."
        ),
        accept: format!("Rewind to scene {tick}"),
    }
}

/// Returns the story to its state right after scene `tick`; the later scenes are kept in a
/// new branch, named in the report. The shell asks first in a native dialog (so a script in
/// the page cannot rewind without the writer); a "no" is `declined` and changes nothing.
#[tauri::command]
#[specta::specta]
pub async fn rewind_to(
    app: AppHandle,
    state: State<'_, AppState>,
    tick: u32,
) -> AppResult<RewindReport> {
    let session = state.session()?;
    let dialogs: Arc<dyn Dialogs> = state.dialogs();
    let question = rewind_question(tick);
    let yes = tauri::async_runtime::spawn_blocking(move || dialogs.confirm(&question))
        .await
        .map_err(|e| AppError::storage(format!("the dialog thread stopped: {e}")))?;
    if !yes {
        return Err(AppError::Declined {
            message: format!("Not rewound: the story still goes on after scene {tick}."),
        });
    }
    let report = control::rewind(&mut *session.write()?, tick, &SystemClock)?;
    changed(&app, Some(session.path_string()), ChangeReason::Rewound);
    Ok(report)
}

#[tauri::command]
#[specta::specta]
pub async fn branches(state: State<'_, AppState>) -> AppResult<Vec<BranchRow>> {
    let novel = state.session()?.read()?;
    Ok(views::branches(novel.store().conn())?)
}

/// A new branch at scene `at` (the latest when `null`), made current; returns its name.
#[tauri::command]
#[specta::specta]
pub async fn new_branch(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    at: Option<u32>,
) -> AppResult<String> {
    edit_open_novel(&app, &state, ChangeReason::BranchChanged, |novel| {
        control::fork(novel, name.trim(), at, &SystemClock)
    })
}

/// Makes branch `name` current: the story takes that branch's latest state.
#[tauri::command]
#[specta::specta]
pub async fn switch_branch(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
) -> AppResult<()> {
    edit_open_novel(&app, &state, ChangeReason::BranchChanged, |novel| {
        control::switch(novel, &name).map(|_moved| ())
    })
}

/// Renames a branch; returns the name it now has.
#[tauri::command]
#[specta::specta]
pub async fn rename_branch(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    new_name: String,
) -> AppResult<String> {
    edit_open_novel(&app, &state, ChangeReason::BranchChanged, |novel| {
        control::rename(novel, &name, new_name.trim())
    })
}

/// Deletes a branch other than the current one; its scenes stay as versions.
#[tauri::command]
#[specta::specta]
pub async fn delete_branch(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
) -> AppResult<()> {
    edit_open_novel(&app, &state, ChangeReason::BranchChanged, |novel| {
        control::delete(novel, &name)
    })
}

/// The scene of `tick` as each branch has it, for side-by-side reading.
#[tauri::command]
#[specta::specta]
pub async fn compare_branches(
    state: State<'_, AppState>,
    tick: u32,
) -> AppResult<Vec<BranchScene>> {
    let novel = state.session()?.read()?;
    Ok(control::scene_across_branches(&novel, tick)?)
}
