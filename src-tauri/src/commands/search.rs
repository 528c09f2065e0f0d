//! Search the book: the manuscript's prose by words, by meaning or both, for the reader's
//! search panel. The engine ranks and locates the passages (`views::book_search`); this
//! adapter picks the mode, embeds the query off the async runtime and reports a clear error
//! when meaning is asked for without the local embedding model.

use novel_core::Novel;
use novel_core::views::{BookHit, book_search};
use novel_core::views::{Mode, Retrieval};
use serde::Deserialize;
use specta::Type;
use tauri::State;

use crate::error::{AppError, AppResult};
use crate::state::AppState;

/// How the book is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum SearchMode {
    /// The words themselves (and their inflections).
    Words,
    /// What the passage is about, through the local embedding model.
    Meaning,
    /// Both rankings fused; words alone when the model is missing.
    Both,
}

/// The passages of `novel`'s prose best matching `query`, at most `limit`.
pub(crate) async fn search_novel(
    novel: Novel,
    query: &str,
    mode: SearchMode,
    limit: u32,
) -> AppResult<Vec<BookHit>> {
    let query = query.trim().to_string();
    if query.is_empty() {
        return Err(AppError::invalid("Type a word or a phrase to search for."));
    }
    let retrieval = novel.retrieval();
    let (mode, vector) = match mode {
        SearchMode::Words => (Mode::KeywordOnly, None),
        SearchMode::Meaning => {
            if let Some(notice) = retrieval.notice() {
                return Err(AppError::invalid(format!(
                    "Searching by meaning needs the local embedding model ({notice}). Search by words instead."
                )));
            }
            let vector = retrieval.embed_query(&query).await.ok_or_else(|| {
                AppError::storage(
                    "The embedding model could not read the query; search by words instead.",
                )
            })?;
            (Mode::SemanticOnly, Some(vector))
        }
        SearchMode::Both => (Mode::Hybrid, retrieval.embed_query(&query).await),
    };
    tauri::async_runtime::spawn_blocking(move || {
        book_search(
            novel.store().conn(),
            &retrieval,
            &query,
            vector.as_deref().map(Vec::as_slice),
            mode,
            limit,
        )
    })
    .await
    .map_err(|e| AppError::storage(format!("the search thread stopped: {e}")))?
    .map_err(Into::into)
}

/// Searches the open novel's prose; hits come best first, each with its scene, chapter,
/// snippet (the query's words marked by character ranges) and place in the scene's prose.
#[tauri::command]
#[specta::specta]
pub async fn search_book(
    state: State<'_, AppState>,
    query: String,
    mode: SearchMode,
    limit: u32,
) -> AppResult<Vec<BookHit>> {
    let mut novel = state.session()?.read()?;
    // The machine's model, loaded once per process; keywords only without it.
    novel.set_retrieval(Retrieval::local());
    search_novel(novel, &query, mode, limit).await
}

#[cfg(test)]
mod tests;
