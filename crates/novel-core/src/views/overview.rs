//! The novel at a glance: its foundation and settings, how far it has got, the last scene (for
//! a reopened book's "last time"), and the failed tick waiting for a retry or a skip, if there
//! is one, with the draft it had written before it failed.

use std::path::Path;

use rusqlite::Connection;
use serde::Serialize;

use crate::config::{Foundation, GenerationSettings, NovelConfig};
use crate::model::{LoopStatus, TickFailure};
use crate::store::{self, StoreError};
use crate::tick::ErrorKind;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NovelOverview {
    pub path: String,
    pub foundation: Foundation,
    pub generation: GenerationSettings,
    /// The branch the story is on ("main" until the writer rewinds or forks).
    pub branch: String,
    /// The last committed tick (0 before the first scene).
    pub current_tick: u32,
    pub scenes: u32,
    pub words: u32,
    pub characters: u32,
    pub locations: u32,
    pub open_loops: u32,
    /// The next tick failed and has not been retried or skipped.
    pub pending_failure: Option<FailureView>,
    /// The prose that failed tick had written (all of it, or what streamed before the provider
    /// failed), from its error file: nothing a writer saw is lost, even across a restart.
    pub failed_draft: Option<String>,
    /// The latest scene: what a reopened book recaps ("last time: …").
    pub last_scene: Option<SceneRecap>,
    /// Why the agent cannot write the latest scene again ("Write scene N again"), in the
    /// writer's words: it was imported or written by hand, or the book was reshaped after it.
    /// `None` when it can, or when there is no scene yet.
    pub write_again_refusal: Option<String>,
    pub updated_at: String,
    /// Why search is keyword-only and how to turn semantic search on; `None` when it is on.
    /// Set by the front end, which knows the retrieval it attached.
    pub search_notice: Option<String>,
}

/// The latest scene in a line: its number, title and the first line of its summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SceneRecap {
    pub tick: u32,
    pub title: String,
    pub summary: Option<String>,
}

/// An error file larger than this is not read for its draft (it was not written by the app).
const MAX_ERROR_FILE: u64 = 4 * 1024 * 1024;

/// The draft prose the error file of `tick` holds, if any.
fn failed_draft(dir: &Path, tick: u32) -> Option<String> {
    let (path, _) = crate::files::error_paths(dir, tick);
    if std::fs::metadata(&path).ok()?.len() > MAX_ERROR_FILE {
        return None;
    }
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let prose = crate::text::strip_controls(record.get("prose")?.as_str()?);
    (!prose.trim().is_empty()).then_some(prose)
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FailureView {
    pub tick: u32,
    pub at: String,
    /// What kind of failure it was (the name stored with it, typed).
    pub kind: ErrorKind,
    pub message: String,
    pub error_file: String,
}

impl From<TickFailure> for FailureView {
    fn from(f: TickFailure) -> Self {
        FailureView {
            tick: f.tick,
            at: f.at,
            kind: ErrorKind::parse(&f.error_type),
            message: f.message,
            error_file: f.error_file,
        }
    }
}

pub fn overview(
    conn: &Connection,
    dir: &Path,
    config: &NovelConfig,
) -> Result<NovelOverview, StoreError> {
    let state = store::load_state(conn)?;
    let scenes = store::list_scenes(conn)?;
    let pending_failure = store::list_failures(conn)?
        .into_iter()
        .rev()
        .find(|f| !f.resolved && f.tick == state.current_tick + 1)
        .map(FailureView::from);
    let failed_draft = pending_failure
        .as_ref()
        .and_then(|f| failed_draft(dir, f.tick));
    let last_scene = scenes.last().map(|s| SceneRecap {
        tick: s.tick,
        title: s.title.clone(),
        summary: s.summary.first().cloned(),
    });
    let write_again_refusal = match last_scene {
        Some(_) if state.current_tick > 0 => {
            crate::control::write_again_refusal(conn, state.current_tick)?
        }
        _ => None,
    };
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(NovelOverview {
        path: dir.display().to_string(),
        foundation: config.novel.clone(),
        generation: config.generation.clone(),
        branch: store::head(conn)?.branch_name,
        current_tick: state.current_tick,
        scenes: count(scenes.len()),
        words: scenes.iter().map(|s| s.word_count).sum(),
        characters: count(store::list_characters(conn)?.len()),
        locations: count(store::list_locations(conn)?.len()),
        open_loops: count(store::list_loops(conn, Some(LoopStatus::Open))?.len()),
        pending_failure,
        failed_draft,
        last_scene,
        write_again_refusal,
        updated_at: state.updated_at,
        search_notice: None,
    })
}
