//! The novel at a glance for `novel status`: where the story is, how much there is, what it
//! has spent against its budget, how much of its prompts the servers' caches served, and the
//! failures not yet dealt with. One read, shared by the fronts.

use rusqlite::Connection;
use serde::Serialize;

use crate::config::BudgetConfig;
use crate::model::{LoopStatus, OpenLoop, TickFailure};
use crate::novel::{Novel, NovelError};
use crate::store::{self, StoreError};

/// The novel's status. Serialized, it is `novel status --json` (the loops themselves and the
/// POV character's name are for the text form only).
#[derive(Debug, Clone, Serialize)]
pub struct NovelStatus {
    pub title: String,
    pub current_tick: u32,
    pub active_character: Option<String>,
    /// The POV character's name, when there is one and it exists.
    #[serde(skip)]
    pub active_name: Option<String>,
    pub characters: usize,
    pub locations: usize,
    pub scenes: usize,
    pub words: u32,
    pub open_loops: usize,
    /// The open loops, most important first as the store lists them.
    #[serde(skip)]
    pub open_loop_list: Vec<OpenLoop>,
    pub spent: novel_llm::Spent,
    pub prompt_tokens: u64,
    pub cached_prompt_tokens: u64,
    pub budget: BudgetConfig,
    pub unresolved_failures: Vec<TickFailure>,
}

/// The status of `novel`.
pub fn status(novel: &Novel) -> Result<NovelStatus, NovelError> {
    let conn = novel.store().conn();
    let state = novel.state()?;
    let characters = store::list_characters(conn)?;
    let scenes = store::list_scenes(conn)?;
    let open_loop_list = store::list_loops(conn, Some(LoopStatus::Open))?;
    let (prompt_tokens, cached_prompt_tokens) = store::prompt_cache_totals(conn)?;
    let active_name = state
        .active_character
        .as_deref()
        .and_then(|id| characters.iter().find(|c| c.id == id))
        .map(|c| c.name.clone());
    Ok(NovelStatus {
        title: novel.config().novel.title.clone(),
        current_tick: state.current_tick,
        active_character: state.active_character,
        active_name,
        characters: characters.len(),
        locations: store::list_locations(conn)?.len(),
        scenes: scenes.len(),
        words: scenes.iter().map(|s| s.word_count).sum(),
        open_loops: open_loop_list.len(),
        open_loop_list,
        spent: store::spent_on_ticks(conn)?,
        prompt_tokens,
        cached_prompt_tokens,
        budget: novel.config().budget,
        unresolved_failures: unresolved_failures(conn)?,
    })
}

/// The failed ticks nobody has retried, kept or skipped yet, oldest first.
pub fn unresolved_failures(conn: &Connection) -> Result<Vec<TickFailure>, StoreError> {
    Ok(store::list_failures(conn)?
        .into_iter()
        .filter(|f| !f.resolved)
        .collect())
}
