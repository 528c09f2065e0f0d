//! The book's chapters, edited by the writer in the contents: rename one, split it before a
//! scene, merge it with the next, open or remove a part heading. Each is one recorded change of
//! the engine's (`novel_core::chapters`), undone by a rewind like any other.

use novel_core::chapters;
use novel_core::clock::SystemClock;
use novel_core::views::ChapterView;
use serde::Deserialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::open_novel::edit_open_novel;
use crate::error::AppResult;
use crate::events::ChangeReason;
use crate::state::AppState;

/// One change to the book's chapters.
#[derive(Debug, Clone, Deserialize, Type)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum ChapterChange {
    /// Chapter `chapter` takes the writer's title.
    Rename { chapter: u32, title: String },
    /// The scenes of chapter `chapter` from the scene of `at_tick` on become a new chapter.
    Split { chapter: u32, at_tick: u32 },
    /// Chapter `chapter` and the next become one, with the first one's title.
    Merge { chapter: u32 },
    /// A part opens at chapter `chapter` with heading `title`; `None` removes it.
    Part { chapter: u32, title: Option<String> },
}

/// Makes `change` and returns the book's chapters as they now are.
#[tauri::command]
#[specta::specta]
pub async fn change_chapter(
    app: AppHandle,
    state: State<'_, AppState>,
    change: ChapterChange,
) -> AppResult<Vec<ChapterView>> {
    edit_open_novel(&app, &state, ChangeReason::SceneEdited, |novel| {
        let clock = SystemClock;
        match change {
            ChapterChange::Rename { chapter, title } => {
                chapters::rename(novel, chapter, &title, &clock)?;
            }
            ChapterChange::Split { chapter, at_tick } => {
                chapters::split(novel, chapter, at_tick, &clock)?;
            }
            ChapterChange::Merge { chapter } => {
                chapters::merge(novel, chapter, &clock)?;
            }
            ChapterChange::Part { chapter, title } => {
                chapters::set_part(novel, chapter, title.as_deref(), &clock)?;
            }
        }
        chapters::list(novel)
    })
}
