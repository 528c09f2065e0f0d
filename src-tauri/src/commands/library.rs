//! Library: recent novels, opening a novel folder, the new-novel form, closing.

use std::path::{Path, PathBuf};

use novel_core::clock::{Clock, SystemClock, timestamp};
use novel_core::library::{NewNovelForm, RecentNovel, RecentNovels};
use novel_core::views::{self, NovelOverview};
use novel_core::{Access, Novel};
use tauri::{AppHandle, State};

use super::open_novel::changed;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::{AppState, display};

pub(crate) fn recent(state: &AppState) -> RecentNovels {
    RecentNovels::in_dir(&state.config_dir)
}

pub(crate) fn overview_of(novel: &Novel) -> AppResult<NovelOverview> {
    Ok(views::overview(
        novel.store().conn(),
        novel.root(),
        novel.config(),
    )?)
}

#[tauri::command]
#[specta::specta]
pub async fn recent_novels(state: State<'_, AppState>) -> AppResult<Vec<RecentNovel>> {
    Ok(recent(&state).list())
}

#[tauri::command]
#[specta::specta]
pub async fn forget_recent_novel(state: State<'_, AppState>, path: String) -> AppResult<()> {
    Ok(recent(&state).remove(&path)?)
}

/// Opens the novel in `path` for writing and makes it the current one.
#[tauri::command]
#[specta::specta]
pub async fn open_novel(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> AppResult<NovelOverview> {
    let dir = PathBuf::from(path.trim());
    if let Some(current) = state.current()
        && current.path == dir
    {
        return current_overview(&state);
    }
    let novel = Novel::open(&dir, Access::Write)?;
    let _ = recent(&state).touch(&dir, novel.config(), &now());
    state.replace(Some(novel))?;
    let overview = current_overview(&state)?;
    changed(&app, Some(display(&dir)), ChangeReason::Opened);
    Ok(overview)
}

/// Creates a novel from the form in a new folder inside `parent_dir`, and opens it.
#[tauri::command]
#[specta::specta]
pub async fn create_novel(
    app: AppHandle,
    state: State<'_, AppState>,
    parent_dir: String,
    form: NewNovelForm,
) -> AppResult<NovelOverview> {
    let seed = form.to_seed().map_err(|fields| AppError::InvalidForm {
        message: "Some fields need attention before the novel can be created.".into(),
        fields,
    })?;
    let parent = PathBuf::from(parent_dir.trim());
    if parent.as_os_str().is_empty() || !parent.is_dir() {
        return Err(AppError::invalid(format!(
            "Choose an existing folder to keep the novel in ({} is not one).",
            parent.display()
        )));
    }
    let dir = free_folder(&parent, &form.folder_name());
    let novel = Novel::create(&dir, seed, &SystemClock)?;
    let _ = recent(&state).touch(&dir, novel.config(), &now());
    state.replace(Some(novel))?;
    let overview = current_overview(&state)?;
    changed(&app, Some(display(&dir)), ChangeReason::Opened);
    Ok(overview)
}

#[tauri::command]
#[specta::specta]
pub async fn close_novel(app: AppHandle, state: State<'_, AppState>) -> AppResult<()> {
    state.replace(None)?;
    changed(&app, None, ChangeReason::Closed);
    Ok(())
}

/// The open novel's overview, or `null` when none is open.
#[tauri::command]
#[specta::specta]
pub async fn current_novel(state: State<'_, AppState>) -> AppResult<Option<NovelOverview>> {
    match state.current() {
        Some(_) => Ok(Some(current_overview(&state)?)),
        None => Ok(None),
    }
}

/// The open novel's overview, with the search notice of its session.
pub(crate) fn current_overview(state: &AppState) -> AppResult<NovelOverview> {
    let session = state.session()?;
    let mut overview = overview_of(&session.read()?)?;
    overview.search_notice = session.search_notice.clone();
    Ok(overview)
}

/// `parent/name`, or `parent/name-2`, `-3`, … when that is taken.
pub(crate) fn free_folder(parent: &Path, name: &str) -> PathBuf {
    let first = parent.join(name);
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|i| parent.join(format!("{name}-{i}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

pub(crate) fn now() -> String {
    timestamp(SystemClock.now())
}
