//! Library → Import: a new novel from an existing manuscript (Markdown, plain text or Word).
//! The shell opens the file dialog itself, so the page never names the file it reads; the
//! folder the novel goes in comes from the page, as for a new novel (the writer picks it in
//! the folder dialog). `preview_import` reads the chosen file and shows its split and the
//! seeds its text suggests, with no model call; `import_manuscript` imports it as the writer
//! confirmed it. The engine's `import` adopts its scenes one extraction call each; progress goes over a `Channel`, Stop (`stop_run` with `cancel`)
//! abandons the scene in progress, and `resume_import` carries on from the first scene not in
//! the story, so nothing is imported twice.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use novel_core::Novel;
use novel_core::clock::SystemClock;
use novel_core::import::{
    self, ImportError, ImportPreview, ImportProgress, ImportShape, Manuscript,
};
use novel_core::library::NewNovelForm;
use novel_core::role_models;
use novel_core::run::RunControl;
use novel_core::run::{CancelToken, Models, TickError, TickEvent};
use novel_core::views::NovelOverview;
use novel_llm::{Limits, ProviderConfig};
use serde::Serialize;
use specta::Type;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};

use super::library::{current_overview, free_folder, now, recent};
use super::open_novel::changed;
use super::write::profiles;
use crate::dialogs::{Dialogs, OpenRequest};
use crate::error::{AppError, AppResult, sentence};
use crate::events::ChangeReason;
use crate::state::{AppState, display};

/// What an import reports as it goes.
#[derive(Debug, Clone, PartialEq, Serialize, Type)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ImportEvent {
    /// The import (re)starts: `done` of `total` scenes are already in the story.
    Started {
        source: String,
        done: u32,
        total: u32,
    },
    /// One more scene adopted.
    Scene { done: u32, total: u32 },
}

/// How an import run ended.
#[derive(Debug, Clone, Serialize, Type)]
pub struct ImportOutcome {
    pub overview: NovelOverview,
    pub progress: ImportProgress,
    /// Why it stopped before the end (a cancel, a failed call), and how to carry on; `None`
    /// when every scene is in.
    pub stopped: Option<String>,
}

impl From<ImportError> for AppError {
    fn from(e: ImportError) -> Self {
        match e {
            ImportError::Store(e) => e.into(),
            ImportError::Novel(e) => e.into(),
            ImportError::Read { .. } | ImportError::Unsupported(_) | ImportError::Refused(_) => {
                AppError::invalid(sentence(&e.to_string()))
            }
            ImportError::Stopped { .. } => AppError::Provider {
                message: sentence(&e.to_string()),
            },
        }
    }
}

/// The manuscript open dialog.
fn manuscript_request() -> OpenRequest {
    OpenRequest {
        title: "Import a manuscript".into(),
        filter_name: "Manuscript (Markdown, text, Word)".into(),
        extensions: ["md", "markdown", "txt", "text", "docx"]
            .map(String::from)
            .to_vec(),
    }
}

/// The manuscript the writer chose, read and split, waiting for the split they confirm. The
/// shell keeps it between `preview_import` and `import_manuscript`, so the page never names a
/// file to read.
pub(crate) struct Chosen {
    file: PathBuf,
    manuscript: Manuscript,
    format: &'static str,
    preview: ImportPreview,
}

/// The manuscript chosen in the last preview, if it was not imported yet.
#[derive(Default)]
pub struct PendingImport(Mutex<Option<Arc<Chosen>>>);

impl PendingImport {
    fn get(&self) -> Option<Arc<Chosen>> {
        self.0.lock().ok().and_then(|g| g.clone())
    }

    fn set(&self, chosen: Option<Arc<Chosen>>) {
        if let Ok(mut g) = self.0.lock() {
            *g = chosen;
        }
    }
}

/// Reads and splits `file` and proposes its seeds, before any model is called.
pub(crate) fn read_chosen(file: &Path) -> AppResult<Chosen> {
    let (manuscript, format) = import::read_manuscript(file)?;
    let source = file
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let preview = import::preview(&manuscript, &source);
    Ok(Chosen {
        file: file.to_path_buf(),
        manuscript,
        format,
        preview,
    })
}

/// A new novel in a free folder of `parent`, seeded from `form` (its title, when blank, the
/// manuscript's or the file's), holding `chosen` split as `shape` says as an import to run.
/// The split is checked first: one that cannot be imported leaves no folder behind.
pub(crate) fn create_from(
    chosen: &Chosen,
    shape: &ImportShape,
    parent: &Path,
    mut form: NewNovelForm,
) -> AppResult<Novel> {
    if parent.as_os_str().is_empty() || !parent.is_dir() {
        return Err(AppError::invalid(format!(
            "Choose an existing folder to keep the novel in ({} is not one).",
            parent.display()
        )));
    }
    let manuscript = import::apply_shape(&chosen.manuscript, shape)?;
    if form.title.trim().is_empty() {
        form.title = manuscript.title.clone().unwrap_or_else(|| {
            chosen
                .file
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
        });
    }
    let mut seed = form.to_seed().map_err(|fields| AppError::InvalidForm {
        message: "Some fields need attention before the manuscript can be imported.".into(),
        fields,
    })?;
    if let Some(author) = &manuscript.author {
        seed.foundation.author = author.clone();
    }
    let dir = free_folder(parent, &form.folder_name());
    let mut novel = Novel::create(&dir, seed, &SystemClock)?;
    import::start(
        &mut novel,
        &chosen.preview.source,
        chosen.format,
        &manuscript,
        &SystemClock,
    )?;
    Ok(novel)
}

/// Adopts the scenes of `novel`'s import not yet in the story, telling `send` as it goes. A
/// stop (cancel or failed call) is an outcome, not an error: what was adopted stays.
pub(crate) async fn adopt(
    novel: &mut Novel,
    models: &Models,
    cancel: &CancelToken,
    send: &(dyn Fn(ImportEvent) + Sync),
) -> AppResult<(ImportProgress, Option<String>)> {
    let Some(at) = import::progress(novel)? else {
        return Err(AppError::invalid(
            "This novel has no import to resume. Start one from the Library with Import manuscript.",
        ));
    };
    send(ImportEvent::Started {
        source: at.source,
        done: at.done,
        total: at.total,
    });
    let observer = |_: TickEvent| {};
    let on_scene = |done: u32, total: u32| send(ImportEvent::Scene { done, total });
    match import::resume(novel, models, &observer, cancel, &SystemClock, &on_scene).await {
        Ok(progress) => Ok((progress, None)),
        Err(ImportError::Stopped { done, total, cause }) => {
            let why = match cause {
                TickError::Cancelled { .. } => "You stopped the import".to_string(),
                cause => format!("The import stopped: {cause}"),
            };
            let progress = import::progress(novel)?.ok_or_else(|| {
                AppError::storage("the import's bookkeeping is gone from the novel")
            })?;
            Ok((
                progress,
                Some(format!(
                    "{why} after {done} of {total} scenes. Resume the import to carry on from scene {}.",
                    done + 1
                )),
            ))
        }
        Err(e) => Err(e.into()),
    }
}

/// Runs the open novel's import on a thread of its own, under the writer's lock, with Stop.
async fn adopt_in_session(
    app: &AppHandle,
    state: &AppState,
    profiles: ProviderConfig,
    on_event: Channel<ImportEvent>,
) -> AppResult<ImportOutcome> {
    let session = state.session()?;
    let mut novel = session.write()?;
    let models = role_models::models_for(&novel, &profiles, None, Limits::default())?;
    let control = RunControl::new();
    session.set_run(Some(control.clone()));
    let (app2, path) = (app.clone(), Some(session.path_string()));
    let worker = tauri::async_runtime::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let send = |event: ImportEvent| {
            // Each adopted scene is committed: the views (the header's counts) may refresh.
            if let ImportEvent::Scene { .. } = event {
                changed(&app2, path.clone(), ChangeReason::TickCommitted);
            }
            // A closed window drops the channel; the import goes on.
            let _ = on_event.send(event);
        };
        Ok::<_, std::io::Error>(runtime.block_on(adopt(
            &mut novel,
            &models,
            control.token(),
            &send,
        )))
    });
    let result = worker.await;
    session.set_run(None);
    changed(
        app,
        Some(session.path_string()),
        ChangeReason::TickCommitted,
    );
    let (progress, stopped) =
        result.map_err(|e| AppError::storage(format!("the import thread stopped: {e}")))???;
    Ok(ImportOutcome {
        overview: current_overview(state)?,
        progress,
        stopped,
    })
}

/// Asks for a manuscript in the open dialog and shows how it splits: its parts, chapters and
/// scenes with their word counts and first words, and the premise, protagonist and place its
/// text suggests. Nothing is created and no model is called; the writer confirms (or adjusts)
/// the split and `import_manuscript` imports it. `null` when the dialog was cancelled.
#[tauri::command]
#[specta::specta]
pub async fn preview_import(
    state: State<'_, AppState>,
    pending: State<'_, PendingImport>,
) -> AppResult<Option<ImportPreview>> {
    let dialogs: std::sync::Arc<dyn Dialogs> = state.dialogs();
    let chosen =
        tauri::async_runtime::spawn_blocking(move || dialogs.open_path(&manuscript_request()))
            .await
            .map_err(|e| AppError::storage(format!("the file dialog stopped: {e}")))?;
    let Some(file) = chosen else {
        return Ok(None);
    };
    // Reading and splitting a manuscript (a DOCX is unzipped) is blocking work: off the async
    // threads, so a large file never stalls the app's other commands.
    let chosen = tauri::async_runtime::spawn_blocking(move || read_chosen(&file))
        .await
        .map_err(|e| {
            AppError::storage(format!("the import stopped reading the manuscript: {e}"))
        })??;
    let preview = chosen.preview.clone();
    pending.set(Some(Arc::new(chosen)));
    Ok(Some(preview))
}

/// Makes a new novel of the previewed manuscript, split as the writer confirmed in `shape`, in
/// a folder inside `parent_dir` (seeded from `form`; a blank title takes the manuscript's),
/// opens it and imports its scenes with progress over `on_event`.
#[tauri::command]
#[specta::specta]
pub async fn import_manuscript(
    app: AppHandle,
    state: State<'_, AppState>,
    pending: State<'_, PendingImport>,
    parent_dir: String,
    form: NewNovelForm,
    shape: ImportShape,
    on_event: Channel<ImportEvent>,
) -> AppResult<ImportOutcome> {
    // Before anything is made: without a provider nothing could be imported.
    let profiles = profiles()?;
    let Some(chosen) = pending.get() else {
        return Err(AppError::invalid(
            "Choose the manuscript first: Library → Import manuscript.",
        ));
    };
    let parent = PathBuf::from(parent_dir.trim());
    let made = chosen.clone();
    let novel =
        tauri::async_runtime::spawn_blocking(move || create_from(&made, &shape, &parent, form))
            .await
            .map_err(|e| {
                AppError::storage(format!("the import stopped reading the manuscript: {e}"))
            })??;
    pending.set(None);
    let dir = novel.root().to_path_buf();
    let _ = recent(&state).touch(&dir, novel.config(), &now());
    state.replace(Some(novel))?;
    changed(&app, Some(display(&dir)), ChangeReason::Opened);
    adopt_in_session(&app, &state, profiles, on_event).await
}

/// Carries on the open novel's import from the first scene not in the story.
#[tauri::command]
#[specta::specta]
pub async fn resume_import(
    app: AppHandle,
    state: State<'_, AppState>,
    on_event: Channel<ImportEvent>,
) -> AppResult<ImportOutcome> {
    let profiles = profiles()?;
    adopt_in_session(&app, &state, profiles, on_event).await
}

/// How far the open novel's import is; `null` when it was not imported (or none is open).
#[tauri::command]
#[specta::specta]
pub async fn import_status(state: State<'_, AppState>) -> AppResult<Option<ImportProgress>> {
    let Some(session) = state.current() else {
        return Ok(None);
    };
    Ok(import::progress(&session.read()?)?)
}

#[cfg(test)]
mod tests;
