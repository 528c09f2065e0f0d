//! The records of the story memory as the fronts list and inspect them: every record of one
//! kind, one record in full with its history and codex page, the outline's beats, and the
//! pressure on the story (clocks and events). Plain data from one read each.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use crate::ids::{EntityId, EntityKind};
use crate::model::{
    Beat, Character, Location, LoreFact, OpenLoop, PressureClock, Relationship, Scene, StoryEvent,
};
use crate::store::{self, HistoryEntry, StoreError};

use super::{CodexEntry, Knowledge, WrittenBy};

/// Every record of one kind, in the store's order. Serialized, it is the bare list.
#[derive(Debug, Clone)]
pub enum Records {
    Characters(Vec<Character>),
    Locations(Vec<Location>),
    Relationships(Vec<Relationship>),
    Loops(Vec<OpenLoop>),
    Lore(Vec<LoreFact>),
    /// The scenes, each with who wrote it when it was not the agent (by tick; not serialized:
    /// the list is the scenes alone).
    Scenes(Vec<Scene>, HashMap<u32, WrittenBy>),
}

impl Serialize for Records {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        match self {
            Records::Characters(items) => items.serialize(to),
            Records::Locations(items) => items.serialize(to),
            Records::Relationships(items) => items.serialize(to),
            Records::Loops(items) => items.serialize(to),
            Records::Lore(items) => items.serialize(to),
            Records::Scenes(items, _) => items.serialize(to),
        }
    }
}

/// Every record of `kind`.
pub fn records(conn: &Connection, kind: EntityKind) -> Result<Records, StoreError> {
    Ok(match kind {
        EntityKind::Character => Records::Characters(store::list_characters(conn)?),
        EntityKind::Location => Records::Locations(store::list_locations(conn)?),
        EntityKind::Relationship => Records::Relationships(store::list_relationships(conn, None)?),
        EntityKind::Loop => Records::Loops(store::list_loops(conn, None)?),
        EntityKind::Lore => Records::Lore(store::list_lore(conn)?),
        EntityKind::Scene => {
            Records::Scenes(store::list_scenes(conn)?, super::scene_authors(conn)?)
        }
    })
}

/// One record in full: as stored, its history by tick, its codex page (a character, place or
/// lore entry) and, for a character, what they have witnessed and know.
#[derive(Debug, Clone, Serialize)]
pub struct Inspection {
    pub record: Value,
    pub history: Vec<HistoryEntry>,
    pub codex: Option<CodexEntry>,
    pub knowledge: Option<Knowledge>,
}

/// The record with `id`, or `None` when this novel has none.
pub fn inspection(conn: &Connection, id: &EntityId) -> Result<Option<Inspection>, StoreError> {
    let key = id.to_string();
    let Some(detail) = super::entity_detail(conn, &key)? else {
        return Ok(None);
    };
    Ok(Some(Inspection {
        record: detail.record,
        history: store::history_of(conn, &key)?,
        codex: super::codex_entry(conn, &key)?,
        knowledge: detail.knowledge,
    }))
}

/// The outline's beats in order.
pub fn outline(conn: &Connection) -> Result<Vec<Beat>, StoreError> {
    store::list_beats(conn)
}

/// What the pressure is after a change.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Pressure {
    pub clocks: Vec<PressureClock>,
    pub events: Vec<StoryEvent>,
}

/// The pressure on the story: its clocks and its scheduled events.
pub fn pressure(conn: &Connection) -> Result<Pressure, StoreError> {
    Ok(Pressure {
        clocks: store::list_clocks(conn)?,
        events: store::list_events(conn)?,
    })
}
