//! Changes only the writer makes to loops and lore: editing a loop's words, reopening a loop
//! that was resolved or abandoned, and editing or deleting a lore entry. Validated like the
//! agent's own changes (no empty text, known importance), re-indexed, and written to the
//! history with the writer as their source. Characters, places and relationships go through
//! [`super::update_record_by_writer`].

use rusqlite::Transaction;
use serde::{Deserialize, Serialize};

use super::{MemoryError, WRITER};
use crate::ids::{EntityId, EntityKind};
use crate::model::{Importance, LoopNote, LoopStatus, LoreFact, OpenLoop};
use crate::store::{self, HistoryEntry};

/// Fields of a loop the writer may change; `None` keeps the current value.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoopEdit {
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub importance: Option<Importance>,
}

/// Fields of a lore entry the writer may change; `None` keeps the current value.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoreEdit {
    #[serde(default)]
    pub fact: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub importance: Option<Importance>,
    #[serde(default)]
    pub keywords: Option<Vec<String>>,
    #[serde(default)]
    pub aliases: Option<Vec<String>>,
    #[serde(default)]
    pub always_on: Option<bool>,
}

fn history(
    tx: &Transaction<'_>,
    id: &str,
    tick: u32,
    field: &str,
    old: serde_json::Value,
    new: serde_json::Value,
) -> Result<(), MemoryError> {
    if old == new {
        return Ok(());
    }
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: id.to_string(),
            tick,
            field: field.to_string(),
            change: "changed by the writer".into(),
            old_value: Some(old),
            new_value: Some(new),
            flagged: false,
            source: WRITER.into(),
        },
    )?;
    Ok(())
}

fn text(field: &str, value: &str) -> Result<String, MemoryError> {
    let value = crate::text::strip_controls(value.trim());
    if value.is_empty() {
        return Err(MemoryError::Invalid(format!("{field} must not be empty")));
    }
    Ok(value)
}

fn words(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|w| crate::text::clean_line(w))
        .filter(|w| !w.is_empty())
        .collect()
}

fn load_loop(tx: &Transaction<'_>, id: &str) -> Result<OpenLoop, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Loop)?.to_string();
    store::get_loop(tx, &id)?.ok_or(MemoryError::NotFound {
        kind: EntityKind::Loop,
        id,
    })
}

pub fn edit_loop(
    tx: &Transaction<'_>,
    id: &str,
    edit: &LoopEdit,
    tick: u32,
) -> Result<OpenLoop, MemoryError> {
    let mut l = load_loop(tx, id)?;
    let before = serde_json::to_value(&l).unwrap_or_default();
    if let Some(d) = &edit.description {
        l.description = text("description", d)?;
    }
    if let Some(c) = &edit.category {
        l.category = text("category", c)?;
    }
    if let Some(i) = edit.importance {
        l.importance = i;
    }
    let after = serde_json::to_value(&l).unwrap_or_default();
    for field in ["description", "category", "importance"] {
        history(
            tx,
            &l.id,
            tick,
            field,
            before[field].clone(),
            after[field].clone(),
        )?;
    }
    store::save_loop(tx, &l)?;
    store::index_document(tx, &store::loop_document(&l))?;
    Ok(l)
}

/// Makes a resolved or abandoned loop open again.
pub fn reopen_loop(
    tx: &Transaction<'_>,
    id: &str,
    note: &str,
    tick: u32,
) -> Result<OpenLoop, MemoryError> {
    let mut l = load_loop(tx, id)?;
    if l.status == LoopStatus::Open {
        return Err(MemoryError::Invalid(format!(
            "loop {} is already open",
            l.id
        )));
    }
    let old = l.status;
    l.status = LoopStatus::Open;
    l.resolved_tick = None;
    if !note.trim().is_empty() {
        l.notes.push(LoopNote {
            tick,
            note: crate::text::clean_line(note),
        });
    }
    history(
        tx,
        &l.id,
        tick,
        "status",
        old.as_str().into(),
        "open".into(),
    )?;
    store::save_loop(tx, &l)?;
    store::index_document(tx, &store::loop_document(&l))?;
    Ok(l)
}

fn load_lore(tx: &Transaction<'_>, id: &str) -> Result<LoreFact, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Lore)?.to_string();
    store::get_lore(tx, &id)?.ok_or(MemoryError::NotFound {
        kind: EntityKind::Lore,
        id,
    })
}

pub fn edit_lore(
    tx: &Transaction<'_>,
    id: &str,
    edit: &LoreEdit,
    tick: u32,
) -> Result<LoreFact, MemoryError> {
    let mut f = load_lore(tx, id)?;
    let before = serde_json::to_value(&f).unwrap_or_default();
    if let Some(fact) = &edit.fact {
        f.fact = text("fact", fact)?;
    }
    if let Some(c) = &edit.category {
        f.category = text("category", c)?;
    }
    if let Some(i) = edit.importance {
        f.importance = i;
    }
    if let Some(k) = &edit.keywords {
        f.keywords = words(k);
    }
    if let Some(a) = &edit.aliases {
        f.aliases = words(a);
    }
    if let Some(on) = edit.always_on {
        f.always_on = on;
    }
    let after = serde_json::to_value(&f).unwrap_or_default();
    for field in [
        "fact",
        "category",
        "importance",
        "keywords",
        "aliases",
        "always_on",
    ] {
        history(
            tx,
            &f.id,
            tick,
            field,
            before[field].clone(),
            after[field].clone(),
        )?;
    }
    store::save_lore(tx, &f)?;
    store::index_document(tx, &store::lore_document(&f))?;
    Ok(f)
}

pub fn delete_lore(tx: &Transaction<'_>, id: &str, tick: u32) -> Result<(), MemoryError> {
    let f = load_lore(tx, id)?;
    store::delete_lore(tx, &f.id)?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: f.id.clone(),
            tick,
            field: "*".into(),
            change: "deleted by the writer".into(),
            old_value: serde_json::to_value(&f).ok(),
            new_value: None,
            flagged: false,
            source: WRITER.into(),
        },
    )?;
    Ok(())
}
