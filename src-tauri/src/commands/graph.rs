//! Graph: characters and locations with their relationships and connections, one entity in
//! full with its history, the codex page of a character, place or lore entry, and the names
//! that open those pages from the reader.

use novel_core::Novel;
use novel_core::views::{self, CodexEntry, CodexName, EntityDetail, StoryGraph};
use tauri::State;

use crate::error::{AppError, AppResult};
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn story_graph(state: State<'_, AppState>) -> AppResult<StoryGraph> {
    let novel = state.session()?.read()?;
    Ok(views::story_graph(novel.store().conn())?)
}

#[tauri::command]
#[specta::specta]
pub async fn entity_detail(state: State<'_, AppState>, id: String) -> AppResult<EntityDetail> {
    let novel = state.session()?.read()?;
    views::entity_detail(novel.store().conn(), &id)?.ok_or_else(|| AppError::NotFound {
        message: format!("There is no character, place or other record called {id}."),
    })
}

/// The codex page of a character, place or lore entry: its fields, relationships, mentions
/// across the book and history in sentences.
#[tauri::command]
#[specta::specta]
pub async fn codex_entry(state: State<'_, AppState>, id: String) -> AppResult<CodexEntry> {
    let novel = state.session()?.read()?;
    codex_of(&novel, &id)
}

/// The names the reader links to codex pages: characters and places by name and alias, lore
/// entries by alias.
#[tauri::command]
#[specta::specta]
pub async fn codex_names(state: State<'_, AppState>) -> AppResult<Vec<CodexName>> {
    let novel = state.session()?.read()?;
    Ok(views::codex_names(novel.store().conn())?)
}

fn codex_of(novel: &Novel, id: &str) -> AppResult<CodexEntry> {
    views::codex_entry(novel.store().conn(), id)?.ok_or_else(|| AppError::NotFound {
        message: "That character, place or lore entry is not in the story (any more).".into(),
    })
}

#[cfg(test)]
mod tests {
    use novel_core::Access;

    use super::*;
    use crate::commands::test_novel::salt;

    #[test]
    fn the_codex_page_of_the_protagonist_and_a_plain_refusal_for_anything_else() {
        let dir = tempfile::tempdir().unwrap();
        let novel = salt(dir.path(), Access::Read);
        let page = codex_of(&novel, "C0").unwrap();
        assert_eq!(
            (page.kind.as_str(), page.name.as_str()),
            ("character", "Tamsin Vale")
        );
        assert_eq!(page.history[0].text, "In the story from the start.");
        for id in ["R0", "C42", "'; DROP TABLE lore; --"] {
            let err = codex_of(&novel, id).unwrap_err();
            assert!(matches!(err, AppError::NotFound { .. }), "{id}: {err:?}");
        }
    }
}
