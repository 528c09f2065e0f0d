//! The story bible: the writer's edits to records, loops and lore, the foundation and author's
//! note, the outline and the pressure on the story; the next prompt's preview; re-reading an
//! edited scene into a memory proposal and accepting it; the charts of tension and emotion.
//! Each command is one call into `novel_core::bible` (or a read model) and one
//! `novel-changed` event.

use novel_core::Novel;
use novel_core::bible::{
    self, BibleError, EditAccepted, EditProposal, FoundationEdit, LoopAction, NewClock, NewRecord,
};
use novel_core::bible::{EntityUpdate, LoopEdit, LoreEdit, UpdateReport};
use novel_core::clock::SystemClock;
use novel_core::config::Foundation;
use novel_core::model::{Beat, LoreFact};
use novel_core::run::{PreviewError, PromptPreview};
use novel_core::views::{self, BibleView, StoryCharts};
use serde::Deserialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::open_novel::edit_open_novel;
use super::write::profiles;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

impl From<BibleError> for AppError {
    fn from(e: BibleError) -> Self {
        let message = e.to_string();
        match e {
            BibleError::NotFound { .. } => AppError::NotFound { message },
            BibleError::Invalid(_) | BibleError::Memory(_) => AppError::InvalidInput { message },
            BibleError::ReadOnly => AppError::Locked { message },
            BibleError::Novel(inner) => inner.into(),
            BibleError::Store(_) => AppError::Storage { message },
        }
    }
}

impl From<PreviewError> for AppError {
    fn from(e: PreviewError) -> Self {
        AppError::storage(e)
    }
}

/// Runs one writer's edit of the story bible on the open novel and tells every view.
fn writer_edit<T>(
    app: &AppHandle,
    state: &State<'_, AppState>,
    change: impl FnOnce(&mut Novel) -> Result<T, BibleError>,
) -> AppResult<T> {
    edit_open_novel(app, state, ChangeReason::BibleEdited, change)
}

#[tauri::command]
#[specta::specta]
pub async fn story_bible(state: State<'_, AppState>) -> AppResult<BibleView> {
    let novel = state.session()?.read()?;
    Ok(views::bible(novel.store().conn())?)
}

#[tauri::command]
#[specta::specta]
pub async fn story_charts(state: State<'_, AppState>) -> AppResult<StoryCharts> {
    let novel = state.session()?.read()?;
    Ok(views::story_charts(novel.store().conn())?)
}

/// What the next tick's planner prompt will hold, section by section with tokens and budgets
/// (counted as the novel's models count tokens; as estimated when no provider is set up yet).
#[tauri::command]
#[specta::specta]
pub async fn preview_next_prompt(state: State<'_, AppState>) -> AppResult<PromptPreview> {
    let novel = state.session()?.write()?;
    let models = profiles().ok().and_then(|p| {
        novel_core::role_models::models_for(&novel, &p, None, Default::default()).ok()
    });
    blocking(move || async move {
        Ok(novel_core::run::preview_next_for(&novel, None, models.as_ref()).await?)
    })
    .await
}

/// Runs `work` on a blocking thread with a runtime of its own: the engine's futures borrow
/// the novel (whose connection is not `Sync`), so they cannot run on the command's executor.
async fn blocking<T, F, Fut>(work: F) -> AppResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = AppResult<T>>,
{
    tauri::async_runtime::spawn_blocking(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(AppError::from)?
            .block_on(work())
    })
    .await
    .map_err(|e| AppError::storage(format!("the worker thread stopped: {e}")))?
}

/// Changes fields of a character, place or relationship.
#[tauri::command]
#[specta::specta]
pub async fn edit_record(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    update: EntityUpdate,
) -> AppResult<UpdateReport> {
    writer_edit(&app, &state, |n| {
        bible::edit_record(n, &id, &update, &SystemClock)
    })
}

/// Adds a character, place, relationship, loop or lore entry; returns its id.
#[tauri::command]
#[specta::specta]
pub async fn add_record(
    app: AppHandle,
    state: State<'_, AppState>,
    record: NewRecord,
) -> AppResult<String> {
    writer_edit(&app, &state, |n| bible::add_record(n, record, &SystemClock))
}

#[tauri::command]
#[specta::specta]
pub async fn act_on_loop(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    action: LoopAction,
    note: String,
) -> AppResult<()> {
    writer_edit(&app, &state, |n| {
        bible::act_on_loop(n, &id, action, &note, &SystemClock).map(drop)
    })
}

#[tauri::command]
#[specta::specta]
pub async fn edit_loop(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    changes: LoopEdit,
) -> AppResult<()> {
    writer_edit(&app, &state, |n| {
        bible::edit_loop(n, &id, &changes, &SystemClock).map(drop)
    })
}

#[tauri::command]
#[specta::specta]
pub async fn edit_lore(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    changes: LoreEdit,
) -> AppResult<LoreFact> {
    writer_edit(&app, &state, |n| {
        bible::edit_lore(n, &id, &changes, &SystemClock)
    })
}

#[tauri::command]
#[specta::specta]
pub async fn delete_lore(app: AppHandle, state: State<'_, AppState>, id: String) -> AppResult<()> {
    writer_edit(&app, &state, |n| bible::delete_lore(n, &id, &SystemClock))
}

/// One change to the map: connect two places or remove their connection.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ConnectionChange {
    /// `description` names the way ("a flooded stair"); may be empty.
    Connect {
        a: String,
        b: String,
        description: String,
    },
    Disconnect {
        a: String,
        b: String,
    },
}

#[tauri::command]
#[specta::specta]
pub async fn change_connection(
    app: AppHandle,
    state: State<'_, AppState>,
    change: ConnectionChange,
) -> AppResult<()> {
    writer_edit(&app, &state, |n| match change {
        ConnectionChange::Connect { a, b, description } => {
            bible::connect_places(n, &a, &b, &description, &SystemClock)
        }
        ConnectionChange::Disconnect { a, b } => bible::disconnect_places(n, &a, &b, &SystemClock),
    })
}

/// Changes the foundation (themes and goal included); the author's note has its own command.
#[tauri::command]
#[specta::specta]
pub async fn edit_foundation(
    app: AppHandle,
    state: State<'_, AppState>,
    changes: FoundationEdit,
) -> AppResult<Foundation> {
    writer_edit(&app, &state, |n| {
        bible::edit_foundation(n, &changes, &SystemClock)
    })
}

#[tauri::command]
#[specta::specta]
pub async fn set_author_note(
    app: AppHandle,
    state: State<'_, AppState>,
    note: String,
) -> AppResult<Foundation> {
    writer_edit(&app, &state, |n| {
        bible::set_author_note(n, &note, &SystemClock)
    })
}

/// One change to the outline.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum BeatChange {
    /// `at` is the 0-based position; `None` appends.
    Add {
        text: String,
        at: Option<u32>,
    },
    Edit {
        id: String,
        text: String,
    },
    /// `to` is the 0-based position.
    Move {
        id: String,
        to: u32,
    },
    Remove {
        id: String,
    },
    Mark {
        id: String,
        done: bool,
    },
}

/// Applies one outline change; returns the outline as it now is.
#[tauri::command]
#[specta::specta]
pub async fn change_outline(
    app: AppHandle,
    state: State<'_, AppState>,
    change: BeatChange,
) -> AppResult<Vec<Beat>> {
    writer_edit(&app, &state, |n| {
        let c = &SystemClock;
        match change {
            BeatChange::Add { text, at } => {
                bible::add_beat(n, &text, at.map(|a| a as usize), c).map(drop)
            }
            BeatChange::Edit { id, text } => bible::edit_beat(n, &id, &text, c).map(drop),
            BeatChange::Move { id, to } => bible::move_beat(n, &id, to as usize, c).map(drop),
            BeatChange::Remove { id } => bible::remove_beat(n, &id, c),
            BeatChange::Mark { id, done } => bible::mark_beat(n, &id, done, c).map(drop),
        }?;
        Ok(views::outline(n.store().conn())?)
    })
}

/// One change to the pressure on the story.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PressureChange {
    AddClock { clock: NewClock },
    EditClock { id: String, clock: NewClock },
    RemoveClock { id: String },
    AddEvent { tick: u32, description: String },
    RemoveEvent { id: String },
}

/// What the pressure is after a change (the engine's read model).
pub use novel_core::views::Pressure;

#[tauri::command]
#[specta::specta]
pub async fn change_pressure(
    app: AppHandle,
    state: State<'_, AppState>,
    change: PressureChange,
) -> AppResult<Pressure> {
    writer_edit(&app, &state, |n| {
        let c = &SystemClock;
        match change {
            PressureChange::AddClock { clock } => bible::add_clock(n, clock, c).map(drop),
            PressureChange::EditClock { id, clock } => {
                bible::edit_clock(n, &id, clock, c).map(drop)
            }
            PressureChange::RemoveClock { id } => bible::remove_clock(n, &id, c),
            PressureChange::AddEvent { tick, description } => {
                bible::add_event(n, tick, &description, c).map(drop)
            }
            PressureChange::RemoveEvent { id } => bible::remove_event(n, &id, c),
        }?;
        Ok(views::pressure(n.store().conn())?)
    })
}

/// Re-reads the (edited) scene of `tick` with the default provider and proposes the memory
/// changes; nothing is written.
#[tauri::command]
#[specta::specta]
pub async fn propose_scene_memory(
    state: State<'_, AppState>,
    tick: u32,
) -> AppResult<EditProposal> {
    let session = state.session()?;
    let novel = session.write()?;
    // The extractor's profile from novel.toml's [models], metered against its [budget].
    let models =
        novel_core::role_models::models_for(&novel, &profiles()?, None, Default::default())?;
    blocking(move || async move { Ok(bible::propose_after_edit(&novel, &models, tick).await?) })
        .await
}

/// Applies a proposal without the changes numbered in `unticked`.
#[tauri::command]
#[specta::specta]
pub async fn accept_scene_memory(
    app: AppHandle,
    state: State<'_, AppState>,
    proposal: EditProposal,
    unticked: Vec<u32>,
) -> AppResult<EditAccepted> {
    writer_edit(&app, &state, |n| {
        bible::accept_edit_proposal(n, &proposal, &unticked, &SystemClock)
    })
}
