//! One character, location, relationship, loop or lore fact in full, with its history by tick
//! (and, for a character, what they have witnessed and know of the deaths on the page): what
//! the graph's detail panel shows when a node is clicked.

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use crate::evaluate::{self, DeathKnowledge};
use crate::ids::{EntityId, EntityKind};
pub use crate::model::ChangeSource;
use crate::store::{self, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EntityDetail {
    pub id: String,
    pub kind: EntityKind,
    pub name: String,
    /// The whole record as stored, for a field-by-field display.
    #[cfg_attr(feature = "specta", specta(type = crate::specta_types::JsonValue))]
    pub record: Value,
    pub history: Vec<HistoryItem>,
    /// What a character has seen and knows; `None` for anything else.
    pub knowledge: Option<Knowledge>,
}

/// What one character has witnessed and knows, read from the scenes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Knowledge {
    /// The ticks of the scenes they were in (their point of view, or named on the page).
    pub scenes: Vec<u32>,
    /// Every death shown on the page, and whether (how, when) they know of it.
    pub deaths: Vec<DeathKnowledge>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HistoryItem {
    pub tick: u32,
    pub field: String,
    pub change: String,
    #[cfg_attr(feature = "specta", specta(type = Option<crate::specta_types::JsonValue>))]
    pub old_value: Option<Value>,
    #[cfg_attr(feature = "specta", specta(type = Option<crate::specta_types::JsonValue>))]
    pub new_value: Option<Value>,
    /// A contradiction that was recorded, not applied.
    pub flagged: bool,
    pub source: ChangeSource,
}

/// The entity with `id`, or `None` when there is none (or the id is malformed: ids come from
/// the UI and are untrusted).
pub fn entity_detail(conn: &Connection, id: &str) -> Result<Option<EntityDetail>, StoreError> {
    let Ok(parsed) = id.parse::<EntityId>() else {
        return Ok(None);
    };
    let id = parsed.to_string();
    let found: Option<(String, Value)> = match parsed.kind() {
        EntityKind::Character => {
            store::get_character(conn, &id)?.map(|c| (c.name.clone(), to_value(&c)))
        }
        EntityKind::Location => {
            store::get_location(conn, &id)?.map(|l| (l.name.clone(), to_value(&l)))
        }
        EntityKind::Relationship => match store::get_relationship(conn, &id)? {
            Some(r) => {
                let names = store::display_names(conn)?;
                let a = super::names::name_of(&names, Some(&r.character_a)).unwrap_or_default();
                let b = super::names::name_of(&names, Some(&r.character_b)).unwrap_or_default();
                Some((format!("{a} — {b}"), to_value(&r)))
            }
            None => None,
        },
        EntityKind::Loop => {
            store::get_loop(conn, &id)?.map(|l| (l.description.clone(), to_value(&l)))
        }
        EntityKind::Lore => store::get_lore(conn, &id)?.map(|f| (f.fact.clone(), to_value(&f))),
        EntityKind::Scene => store::get_scene(conn, &id)?.map(|s| (s.title.clone(), to_value(&s))),
    };
    let Some((name, record)) = found else {
        return Ok(None);
    };
    let history = store::history_of(conn, &id)?
        .into_iter()
        .map(|h| HistoryItem {
            tick: h.tick,
            field: h.field,
            change: h.change,
            old_value: h.old_value,
            new_value: h.new_value,
            flagged: h.flagged,
            source: h.source.clone(),
        })
        .collect();
    let knowledge = match parsed.kind() {
        EntityKind::Character => match store::get_character(conn, &id)? {
            Some(who) => Some(Knowledge {
                scenes: evaluate::scenes_witnessed(conn, &who)?,
                deaths: evaluate::deaths_known_to(conn, &store::list_characters(conn)?, &who)?,
            }),
            None => None,
        },
        _ => None,
    };
    Ok(Some(EntityDetail {
        id,
        kind: parsed.kind(),
        name,
        record,
        history,
        knowledge,
    }))
}

fn to_value<T: Serialize>(record: &T) -> Value {
    // Model records are plain data with string keys; serializing them cannot fail.
    serde_json::to_value(record).unwrap_or(Value::Null)
}

#[cfg(test)]
mod source_tests {
    use super::*;
    use crate::model::NamedSource;

    #[test]
    fn a_change_source_reads_and_writes_as_the_history_table_names_it() {
        assert_eq!(
            ChangeSource::parse(crate::memory::WRITER),
            ChangeSource::Named(NamedSource::Writer)
        );
        assert_eq!(
            ChangeSource::parse("extraction"),
            ChangeSource::Named(NamedSource::Extraction)
        );
        let tool = ChangeSource::parse("character.update");
        assert_eq!(tool, ChangeSource::Tool("character.update".into()));
        for name in ["writer", "extraction", "seed", "user", "character.update"] {
            assert_eq!(
                serde_json::to_value(ChangeSource::parse(name)).unwrap(),
                name
            );
        }
    }
}
