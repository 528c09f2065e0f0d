//! The writer's changes to records: add characters, places, relationships, loops and lore;
//! change any field of them (a change to an established fact is applied and flagged, since
//! the writer owns the story); connect two places or remove a connection; resolve, abandon or
//! reopen a loop; edit or delete lore.

use serde::{Deserialize, Serialize};

use super::edit::{BibleError, recorded};
use crate::clock::Clock;
use crate::ids::{EntityId, EntityKind};
use crate::memory::{
    self, EntityUpdate, LoopEdit, LoreEdit, NewCharacter, NewLocation, NewLoop, NewLore,
    NewRelationship, UpdateReport, WRITER,
};
use crate::model::{Character, Location, LoopStatus, LoreFact, OpenLoop, Relationship};
use crate::novel::Novel;

/// Changes any field of the character, place or relationship `id` (deep-merged like the
/// agent's updates; `append` adds to lists).
pub fn edit_record(
    novel: &mut Novel,
    id: &str,
    update: &EntityUpdate,
    clock: &dyn Clock,
) -> Result<UpdateReport, BibleError> {
    let parsed: EntityId = id
        .parse()
        .map_err(|e: crate::ids::InvalidId| BibleError::Invalid(e.to_string()))?;
    let label = format!("the writer changed {parsed}");
    recorded(novel, &label, clock, |tx, tick| {
        let key = parsed.to_string();
        let report = match parsed.kind() {
            EntityKind::Character => {
                memory::update_record_by_writer::<Character>(tx, &key, update, tick)?
            }
            EntityKind::Location => {
                memory::update_record_by_writer::<Location>(tx, &key, update, tick)?
            }
            EntityKind::Relationship => {
                memory::update_record_by_writer::<Relationship>(tx, &key, update, tick)?
            }
            other => {
                return Err(BibleError::Invalid(format!(
                    "{key} is a {other}: change it with its own command (loops and lore have their own fields)"
                )));
            }
        };
        Ok(report)
    })
}

/// A new record the writer adds. Tagged `record` (not `kind`): a relationship has a `kind` of
/// its own ("ally").
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum NewRecord {
    Character(NewCharacter),
    Location(NewLocation),
    Relationship(NewRelationship),
    Loop(NewLoop),
    Lore(NewLore),
}

/// Adds a record; returns its new id.
pub fn add_record(
    novel: &mut Novel,
    record: NewRecord,
    clock: &dyn Clock,
) -> Result<String, BibleError> {
    let label = match &record {
        NewRecord::Character(c) => format!("the writer added the character {}", c.name),
        NewRecord::Location(l) => format!("the writer added the place {}", l.name),
        NewRecord::Relationship(r) => {
            format!("the writer related {} and {}", r.character_a, r.character_b)
        }
        NewRecord::Loop(_) => "the writer opened a loop".to_string(),
        NewRecord::Lore(_) => "the writer added lore".to_string(),
    };
    recorded(novel, &label, clock, |tx, tick| {
        Ok(match record {
            NewRecord::Character(c) => memory::create_character(tx, c, tick, WRITER)?.id,
            NewRecord::Location(l) => memory::create_location(tx, l, tick, WRITER)?.id,
            NewRecord::Relationship(r) => memory::create_relationship(tx, r, tick, WRITER)?.id,
            NewRecord::Loop(l) => memory::open_loop(tx, l, tick, WRITER)?.id,
            NewRecord::Lore(f) => memory::add_lore(tx, f, tick, None, WRITER)?.id,
        })
    })
}

/// What the writer does with a loop.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopAction {
    Resolve,
    Abandon,
    Reopen,
}

pub fn act_on_loop(
    novel: &mut Novel,
    id: &str,
    action: LoopAction,
    note: &str,
    clock: &dyn Clock,
) -> Result<OpenLoop, BibleError> {
    let label = format!("the writer marked loop {id} {action:?}").to_lowercase();
    recorded(novel, &label, clock, |tx, tick| {
        Ok(match action {
            LoopAction::Resolve => {
                memory::change_loop(tx, id, LoopStatus::Resolved, note, tick, WRITER)?
            }
            LoopAction::Abandon => {
                memory::change_loop(tx, id, LoopStatus::Abandoned, note, tick, WRITER)?
            }
            LoopAction::Reopen => memory::reopen_loop(tx, id, note, tick)?,
        })
    })
}

pub fn edit_loop(
    novel: &mut Novel,
    id: &str,
    edit: &LoopEdit,
    clock: &dyn Clock,
) -> Result<OpenLoop, BibleError> {
    recorded(
        novel,
        &format!("the writer changed loop {id}"),
        clock,
        |tx, tick| Ok(memory::edit_loop(tx, id, edit, tick)?),
    )
}

pub fn edit_lore(
    novel: &mut Novel,
    id: &str,
    edit: &LoreEdit,
    clock: &dyn Clock,
) -> Result<LoreFact, BibleError> {
    recorded(
        novel,
        &format!("the writer changed lore {id}"),
        clock,
        |tx, tick| Ok(memory::edit_lore(tx, id, edit, tick)?),
    )
}

pub fn delete_lore(novel: &mut Novel, id: &str, clock: &dyn Clock) -> Result<(), BibleError> {
    recorded(
        novel,
        &format!("the writer deleted lore {id}"),
        clock,
        |tx, tick| Ok(memory::delete_lore(tx, id, tick)?),
    )
}

/// Connects places `a` and `b` (both ways); `description` names the way ("a flooded stair").
pub fn connect_places(
    novel: &mut Novel,
    a: &str,
    b: &str,
    description: &str,
    clock: &dyn Clock,
) -> Result<(), BibleError> {
    recorded(
        novel,
        &format!("the writer connected {a} and {b}"),
        clock,
        |tx, tick| Ok(memory::connect_places(tx, a, b, description, tick)?),
    )
}

/// Removes the connection between places `a` and `b`.
pub fn disconnect_places(
    novel: &mut Novel,
    a: &str,
    b: &str,
    clock: &dyn Clock,
) -> Result<(), BibleError> {
    recorded(
        novel,
        &format!("the writer disconnected {a} and {b}"),
        clock,
        |tx, tick| Ok(memory::disconnect_places(tx, a, b, tick)?),
    )
}
