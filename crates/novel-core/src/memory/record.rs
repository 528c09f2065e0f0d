//! `Record`: what the generic update path needs to know about each updatable entity kind —
//! how to load and save it, which fields may never change, what counts as contradicting an
//! established fact, and which values are out of range.

use rusqlite::{Connection, Transaction};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ids::{EntityId, EntityKind};
use crate::model::{Character, LifeStatus, Location, Relationship};
use crate::store::{self, SearchDocument, StoreResult};

pub trait Record: Serialize + DeserializeOwned + Sized {
    const KIND: EntityKind;
    /// Fields a patch may never touch (identity and bookkeeping).
    const FIXED_FIELDS: &'static [&'static str];
    fn load(conn: &Connection, id: &str) -> StoreResult<Option<Self>>;
    fn save(&self, tx: &Transaction<'_>) -> StoreResult<()>;
    fn touch(&mut self, tick: u32);
    fn document(&self) -> SearchDocument;
    /// Range and reference checks after a merge; `Err((field, message))`.
    fn check(&self, conn: &Connection) -> Result<(), (String, String)>;
    /// Whether replacing `old` at `path` with `new` contradicts an established fact.
    fn contradiction(path: &str, old: &Value, new: Option<&Value>) -> Option<String> {
        common_contradiction(path, old, new)
    }
}

/// Rules every kind shares: facts are fixed once recorded, and names are identity (a new name
/// is an alias, not a rename — otherwise one bad extraction could rename a character).
fn common_contradiction(path: &str, old: &Value, new: Option<&Value>) -> Option<String> {
    if let Some(fact) = path.strip_prefix("facts.") {
        return Some(match new {
            Some(n) => format!("the recorded fact `{fact}` is {old}; the change says {n}"),
            None => format!("the recorded fact `{fact}` ({old}) would be deleted"),
        });
    }
    if path == "name" {
        return Some(format!(
            "the name is {old}; a different name belongs in `aliases`, not a rename"
        ));
    }
    None
}

fn check_reference(
    conn: &Connection,
    field: &str,
    id: &str,
    kind: EntityKind,
) -> Result<(), (String, String)> {
    let err = |m: String| (field.to_string(), m);
    let parsed = EntityId::parse_kind(id, kind).map_err(|e| err(e.to_string()))?;
    let exists = match kind {
        EntityKind::Location => store::get_location(conn, &parsed.to_string()).map(|l| l.is_some()),
        EntityKind::Character => {
            store::get_character(conn, &parsed.to_string()).map(|c| c.is_some())
        }
        _ => Ok(true),
    }
    .map_err(|e| err(e.to_string()))?;
    if exists {
        Ok(())
    } else {
        Err(err(format!("{kind} {id} does not exist")))
    }
}

impl Record for Character {
    const KIND: EntityKind = EntityKind::Character;
    const FIXED_FIELDS: &'static [&'static str] = &["id", "first_tick", "last_update_tick"];

    fn load(conn: &Connection, id: &str) -> StoreResult<Option<Self>> {
        store::get_character(conn, id)
    }
    fn save(&self, tx: &Transaction<'_>) -> StoreResult<()> {
        store::save_character(tx, self)
    }
    fn touch(&mut self, tick: u32) {
        self.last_update_tick = tick;
    }
    fn document(&self) -> SearchDocument {
        store::character_document(self)
    }
    fn check(&self, conn: &Connection) -> Result<(), (String, String)> {
        if self.name.trim().is_empty() {
            return Err(("name".into(), "must not be empty".into()));
        }
        if let Some(loc) = &self.last_location {
            check_reference(conn, "last_location", loc, EntityKind::Location)?;
        }
        for other in self.relationships.keys() {
            check_reference(
                conn,
                &format!("relationships.{other}"),
                other,
                EntityKind::Character,
            )?;
        }
        Ok(())
    }
    fn contradiction(path: &str, old: &Value, new: Option<&Value>) -> Option<String> {
        let dead = Value::String(LifeStatus::Dead.as_str().into());
        if path == "status" && *old == dead {
            return Some(format!(
                "the character is recorded dead; the change says {}",
                new.map_or("nothing".into(), Value::to_string)
            ));
        }
        common_contradiction(path, old, new)
    }
}

impl Record for Location {
    const KIND: EntityKind = EntityKind::Location;
    const FIXED_FIELDS: &'static [&'static str] = &["id", "first_tick", "last_update_tick"];

    fn load(conn: &Connection, id: &str) -> StoreResult<Option<Self>> {
        store::get_location(conn, id)
    }
    fn save(&self, tx: &Transaction<'_>) -> StoreResult<()> {
        store::save_location(tx, self)
    }
    fn touch(&mut self, tick: u32) {
        self.last_update_tick = tick;
    }
    fn document(&self) -> SearchDocument {
        store::location_document(self)
    }
    fn check(&self, conn: &Connection) -> Result<(), (String, String)> {
        if self.name.trim().is_empty() {
            return Err(("name".into(), "must not be empty".into()));
        }
        if !(1..=5).contains(&self.tension_level) {
            return Err((
                "tension_level".into(),
                format!("{} is outside 1–5", self.tension_level),
            ));
        }
        for other in &self.connections {
            if *other == self.id {
                return Err((
                    "connections".into(),
                    "a location cannot connect to itself".into(),
                ));
            }
            check_reference(conn, "connections", other, EntityKind::Location)?;
        }
        Ok(())
    }
}

impl Record for Relationship {
    const KIND: EntityKind = EntityKind::Relationship;
    const FIXED_FIELDS: &'static [&'static str] = &[
        "id",
        "character_a",
        "character_b",
        "first_tick",
        "last_update_tick",
    ];

    fn load(conn: &Connection, id: &str) -> StoreResult<Option<Self>> {
        store::get_relationship(conn, id)
    }
    fn save(&self, tx: &Transaction<'_>) -> StoreResult<()> {
        store::save_relationship(tx, self)
    }
    fn touch(&mut self, tick: u32) {
        self.last_update_tick = tick;
    }
    fn document(&self) -> SearchDocument {
        store::relationship_document(self)
    }
    fn check(&self, _conn: &Connection) -> Result<(), (String, String)> {
        if !(1..=10).contains(&self.intensity) {
            return Err((
                "intensity".into(),
                format!("{} is outside 1–10", self.intensity),
            ));
        }
        if self.kind.trim().is_empty() {
            return Err(("kind".into(), "must not be empty".into()));
        }
        Ok(())
    }
}
