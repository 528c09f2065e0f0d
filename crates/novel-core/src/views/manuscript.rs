//! The manuscript as the reader shows it: scenes in tick order with resolved POV and place
//! names, word counts and summaries, and the contents — the chapters (stored or proposed) and
//! parts the scenes are grouped in. Prose is returned as stored; rendering it as text (never
//! as HTML) is the front end's duty, because it is untrusted model output.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;

use super::names::name_of;
use crate::model::Scene;
use crate::store::{self, StoreError, TitledBy};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SceneView {
    pub id: String,
    pub tick: u32,
    pub title: String,
    pub pov: Option<String>,
    pub location: Option<String>,
    pub prose: String,
    pub word_count: u32,
    pub summary: Vec<String>,
    pub tension: Option<u8>,
    pub created_at: String,
}

pub fn manuscript(conn: &Connection) -> Result<Vec<SceneView>, StoreError> {
    let names = store::display_names(conn)?;
    Ok(store::list_scenes(conn)?
        .into_iter()
        .map(|s| scene_view(s, &names))
        .collect())
}

pub fn scene_view(s: Scene, names: &HashMap<String, String>) -> SceneView {
    SceneView {
        pov: name_of(names, s.pov_character.as_deref()),
        location: name_of(names, s.location.as_deref()),
        id: s.id,
        tick: s.tick,
        title: s.title,
        prose: s.prose,
        word_count: s.word_count,
        summary: s.summary,
        tension: s.tension,
        created_at: s.created_at,
    }
}

/// A chapter in the contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChapterView {
    /// 1-based position in the book.
    pub number: u32,
    pub title: String,
    /// The heading of the part this chapter opens, if it opens one.
    pub part_title: Option<String>,
    /// The title is proposed from the scenes' gist, not given by the writer or a manuscript.
    pub proposed: bool,
    pub first_tick: u32,
    pub last_tick: u32,
    pub words: u32,
    pub scenes: Vec<ContentsScene>,
}

/// A scene as the contents list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ContentsScene {
    pub tick: u32,
    pub title: String,
    pub words: u32,
}

/// The book's chapters in order, each with its scenes.
pub fn contents(conn: &Connection) -> Result<Vec<ChapterView>, StoreError> {
    let scenes = store::list_scenes(conn)?;
    let spans = store::book_chapters(conn, &scenes)?;
    Ok(spans
        .into_iter()
        .map(|span| {
            let members: Vec<ContentsScene> = scenes
                .iter()
                .filter(|s| span.contains(s.tick))
                .map(|s| ContentsScene {
                    tick: s.tick,
                    title: s.title.clone(),
                    words: s.word_count,
                })
                .collect();
            ChapterView {
                number: span.number,
                proposed: span.titled_by.is_none_or(|by| by == TitledBy::Proposal),
                title: span.title,
                part_title: span.part_title,
                first_tick: span.first_tick,
                last_tick: span.last_tick,
                words: members.iter().fold(0u32, |w, s| w.saturating_add(s.words)),
                scenes: members,
            }
        })
        .collect())
}
