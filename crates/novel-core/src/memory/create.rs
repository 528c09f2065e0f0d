//! Creation of memory records. The store mints every id; names are checked for duplicates so a
//! planner that forgets a character exists gets told so instead of creating a twin.

use std::collections::BTreeMap;

use rusqlite::{Connection, Transaction};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{MemoryError, Record};
use crate::ids::{EntityId, EntityKind};
use crate::model::{
    Character, CharacterArc, Importance, LifeStatus, Location, LoopNote, LoopStatus, LoreFact,
    OpenLoop, Relationship,
};
use crate::store::{self, HistoryEntry};

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewCharacter {
    /// Full name as other characters would say it.
    pub name: String,
    /// The character's part in the story (smuggler, mentor, rival, …).
    #[serde(default)]
    pub role: String,
    /// Appearance and first impression, 1–3 sentences.
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub personality: Vec<String>,
    #[serde(default)]
    pub goals: Vec<String>,
    #[serde(default)]
    pub fears: Vec<String>,
    #[serde(default)]
    pub inventory: Vec<String>,
    /// Other names or titles the character is known by.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Location id where the character is now (e.g. "L0").
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub emotional_state: Option<String>,
    /// What the character wants (external goal).
    #[serde(default)]
    pub want: String,
    /// What the character needs (inner lack).
    #[serde(default)]
    pub need: String,
    /// Established facts that must not be contradicted later, e.g. {"brother": "missing"}.
    #[serde(default)]
    pub facts: BTreeMap<String, String>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLocation {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Sights, sounds, smells that make the place real.
    #[serde(default)]
    pub sensory: Vec<String>,
    #[serde(default)]
    pub threats: Vec<String>,
    #[serde(default)]
    pub inhabitants: Vec<String>,
    /// 1 (calm) to 5 (explosive); default 2.
    #[serde(default)]
    pub tension_level: Option<u8>,
    /// Ids of existing locations reachable from here (e.g. ["L0"]).
    #[serde(default)]
    pub connections: Vec<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub facts: BTreeMap<String, String>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRelationship {
    /// Character id of one side (e.g. "C0").
    pub character_a: String,
    /// Character id of the other side.
    pub character_b: String,
    /// ally, rival, family, romance, mentor, enemy, …
    pub kind: String,
    /// Where it stands now (trusting, strained, …); default "new".
    #[serde(default)]
    pub status: Option<String>,
    /// 1 (faint) to 10 (all-consuming); default 5.
    #[serde(default)]
    pub intensity: Option<u8>,
    /// How character_a sees character_b.
    #[serde(default)]
    pub perspective_a: String,
    /// How character_b sees character_a.
    #[serde(default)]
    pub perspective_b: String,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLoop {
    pub description: String,
    /// goal, mystery, conflict, relationship, threat, promise, …
    #[serde(default = "default_loop_category")]
    pub category: String,
    #[serde(default)]
    pub importance: Importance,
}

fn default_loop_category() -> String {
    "conflict".into()
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLore {
    /// The fact, stated plainly in one or two sentences.
    pub fact: String,
    /// magic, history, politics, custom, geography, technology, …
    #[serde(default = "default_lore_category")]
    pub category: String,
    #[serde(default)]
    pub importance: Importance,
    /// Words that should bring this fact back to mind when they come up.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Other names of what the fact is about; they bring it back like keywords.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Keep the fact in every scene's context. An author's choice (seed files), hidden from
    /// the models' schemas: an always-on fact costs tokens on every tick.
    #[serde(default)]
    #[schemars(skip)]
    pub always_on: bool,
}

fn default_lore_category() -> String {
    "world".into()
}

fn non_empty(field: &str, value: &str) -> Result<String, MemoryError> {
    let v = value.trim();
    if v.is_empty() {
        Err(MemoryError::Invalid(format!("`{field}` must not be empty")))
    } else {
        Ok(v.to_string())
    }
}

fn created(
    tx: &Transaction<'_>,
    id: &str,
    tick: u32,
    source: &str,
    value: serde_json::Value,
) -> Result<(), MemoryError> {
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: id.to_string(),
            tick,
            field: "*".into(),
            change: "created".into(),
            old_value: None,
            new_value: Some(value),
            flagged: false,
            source: source.into(),
        },
    )?;
    Ok(())
}

fn existing_id(
    conn: &Connection,
    raw: &str,
    kind: EntityKind,
    field: &str,
) -> Result<String, MemoryError> {
    let id = EntityId::parse_kind(raw, kind)
        .map_err(|_| MemoryError::Invalid(format!("`{field}`: `{raw}` is not a {kind} id")))?
        .to_string();
    let exists = match kind {
        EntityKind::Character => store::get_character(conn, &id)?.is_some(),
        EntityKind::Location => store::get_location(conn, &id)?.is_some(),
        _ => true,
    };
    if exists {
        Ok(id)
    } else {
        Err(MemoryError::NotFound { kind, id })
    }
}

pub fn create_character(
    tx: &Transaction<'_>,
    new: NewCharacter,
    tick: u32,
    source: &str,
) -> Result<Character, MemoryError> {
    let name = non_empty("name", &new.name)?;
    if let Some(existing) = store::find_character_by_name(tx, &name)? {
        return Err(MemoryError::Invalid(format!(
            "a character named {name} already exists ({}); update it instead of creating a new one",
            existing.id
        )));
    }
    let last_location = new
        .location
        .as_deref()
        .map(|l| existing_id(tx, l, EntityKind::Location, "location"))
        .transpose()?;
    let character = Character {
        id: store::mint_id(tx, EntityKind::Character)?.to_string(),
        name,
        aliases: new.aliases,
        role: new.role,
        description: new.description,
        personality: new.personality,
        goals: new.goals,
        fears: new.fears,
        inventory: new.inventory,
        relationships: BTreeMap::new(),
        last_location,
        emotional_state: new.emotional_state,
        status: LifeStatus::Alive,
        arc: CharacterArc {
            want: new.want,
            need: new.need,
            phase: String::new(),
        },
        facts: new.facts,
        conditions: Vec::new(),
        first_tick: tick,
        last_update_tick: tick,
    };
    store::insert_character(tx, &character)?;
    store::index_document(tx, &character.document())?;
    created(
        tx,
        &character.id,
        tick,
        source,
        serde_json::to_value(&character).unwrap_or_default(),
    )?;
    Ok(character)
}

pub fn create_location(
    tx: &Transaction<'_>,
    new: NewLocation,
    tick: u32,
    source: &str,
) -> Result<Location, MemoryError> {
    let name = non_empty("name", &new.name)?;
    let wanted = name.to_lowercase();
    if let Some(existing) = store::list_locations(tx)?.into_iter().find(|l| {
        l.name.to_lowercase() == wanted || l.aliases.iter().any(|a| a.to_lowercase() == wanted)
    }) {
        return Err(MemoryError::Invalid(format!(
            "a location named {name} already exists ({}); update it instead of creating a new one",
            existing.id
        )));
    }
    let connections = new
        .connections
        .iter()
        .map(|c| existing_id(tx, c, EntityKind::Location, "connections"))
        .collect::<Result<Vec<_>, _>>()?;
    let tension_level = new.tension_level.unwrap_or(2);
    if !(1..=5).contains(&tension_level) {
        return Err(MemoryError::Invalid(format!(
            "`tension_level` {tension_level} is outside 1–5"
        )));
    }
    let location = Location {
        id: store::mint_id(tx, EntityKind::Location)?.to_string(),
        name,
        aliases: new.aliases,
        description: new.description,
        sensory: new.sensory,
        threats: new.threats,
        inhabitants: new.inhabitants,
        tension_level,
        connections,
        facts: new.facts,
        first_tick: tick,
        last_update_tick: tick,
    };
    store::insert_location(tx, &location)?;
    store::index_document(tx, &location.document())?;
    created(
        tx,
        &location.id,
        tick,
        source,
        serde_json::to_value(&location).unwrap_or_default(),
    )?;
    Ok(location)
}

pub fn create_relationship(
    tx: &Transaction<'_>,
    new: NewRelationship,
    tick: u32,
    source: &str,
) -> Result<Relationship, MemoryError> {
    let a = existing_id(tx, &new.character_a, EntityKind::Character, "character_a")?;
    let b = existing_id(tx, &new.character_b, EntityKind::Character, "character_b")?;
    if a == b {
        return Err(MemoryError::Invalid(format!(
            "a relationship needs two different characters, got {a} twice"
        )));
    }
    if let Some(existing) = store::find_relationship(tx, &a, &b)? {
        return Err(MemoryError::Invalid(format!(
            "{a} and {b} already have a relationship ({}); use relationship.update",
            existing.id
        )));
    }
    let intensity = new.intensity.unwrap_or(5);
    if !(1..=10).contains(&intensity) {
        return Err(MemoryError::Invalid(format!(
            "`intensity` {intensity} is outside 1–10"
        )));
    }
    let relationship = Relationship {
        id: store::mint_id(tx, EntityKind::Relationship)?.to_string(),
        character_a: a,
        character_b: b,
        kind: non_empty("kind", &new.kind)?,
        status: new
            .status
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| "new".into()),
        intensity,
        perspective_a: new.perspective_a,
        perspective_b: new.perspective_b,
        first_tick: tick,
        last_update_tick: tick,
    };
    store::insert_relationship(tx, &relationship)?;
    store::index_document(tx, &relationship.document())?;
    created(
        tx,
        &relationship.id,
        tick,
        source,
        serde_json::to_value(&relationship).unwrap_or_default(),
    )?;
    Ok(relationship)
}

pub fn open_loop(
    tx: &Transaction<'_>,
    new: NewLoop,
    tick: u32,
    source: &str,
) -> Result<OpenLoop, MemoryError> {
    let open_loop = OpenLoop {
        id: store::mint_id(tx, EntityKind::Loop)?.to_string(),
        description: non_empty("description", &new.description)?,
        category: new.category,
        importance: new.importance,
        status: LoopStatus::Open,
        opened_tick: tick,
        resolved_tick: None,
        notes: Vec::new(),
    };
    store::insert_loop(tx, &open_loop)?;
    store::index_document(tx, &store::loop_document(&open_loop))?;
    created(
        tx,
        &open_loop.id,
        tick,
        source,
        serde_json::to_value(&open_loop).unwrap_or_default(),
    )?;
    Ok(open_loop)
}

/// Advances, resolves or abandons a loop; the note says what happened in the story.
pub fn change_loop(
    tx: &Transaction<'_>,
    id: &str,
    status: LoopStatus,
    note: &str,
    tick: u32,
    source: &str,
) -> Result<OpenLoop, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Loop)?.to_string();
    let mut l = store::get_loop(tx, &id)?.ok_or_else(|| MemoryError::NotFound {
        kind: EntityKind::Loop,
        id: id.clone(),
    })?;
    if l.status != LoopStatus::Open {
        return Err(MemoryError::Invalid(format!(
            "loop {id} is already {}",
            l.status.as_str()
        )));
    }
    let old_status = l.status;
    l.status = status;
    if status != LoopStatus::Open {
        l.resolved_tick = Some(tick);
    }
    if !note.trim().is_empty() {
        l.notes.push(LoopNote {
            tick,
            note: note.trim().to_string(),
        });
    }
    store::save_loop(tx, &l)?;
    store::index_document(tx, &store::loop_document(&l))?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: id,
            tick,
            field: "status".into(),
            change: if status == LoopStatus::Open {
                "advanced".into()
            } else {
                status.as_str().into()
            },
            old_value: Some(old_status.as_str().into()),
            new_value: Some(serde_json::json!({"status": status.as_str(), "note": note})),
            flagged: false,
            source: source.into(),
        },
    )?;
    Ok(l)
}

fn trimmed(words: Vec<String>) -> Vec<String> {
    words
        .into_iter()
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .collect()
}

pub fn add_lore(
    tx: &Transaction<'_>,
    new: NewLore,
    tick: u32,
    source_tick: Option<u32>,
    source: &str,
) -> Result<LoreFact, MemoryError> {
    let fact = LoreFact {
        id: store::mint_id(tx, EntityKind::Lore)?.to_string(),
        fact: non_empty("fact", &new.fact)?,
        category: new.category,
        importance: new.importance,
        keywords: trimmed(new.keywords),
        aliases: trimmed(new.aliases),
        always_on: new.always_on,
        source_tick,
        created_tick: tick,
    };
    store::insert_lore(tx, &fact)?;
    store::index_document(tx, &store::lore_document(&fact))?;
    created(
        tx,
        &fact.id,
        tick,
        source,
        serde_json::to_value(&fact).unwrap_or_default(),
    )?;
    Ok(fact)
}
