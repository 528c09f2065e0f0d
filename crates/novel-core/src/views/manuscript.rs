//! The manuscript as the reader shows it: scenes in tick order with resolved POV and place
//! names, word counts and summaries. Prose is returned as stored; rendering it as text (never
//! as HTML) is the front end's duty, because it is untrusted model output.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;

use super::{name_of, names};
use crate::model::Scene;
use crate::store::{self, StoreError};

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
    let names = names(conn)?;
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
