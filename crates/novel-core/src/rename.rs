//! A name replaced across the whole book, as one recorded change (so one undo, one rewind
//! step): every scene's prose, title and summary, each changed scene getting a new version and
//! its file rewritten. Optionally the record (character or place) that bears the old name takes
//! the new one and keeps the old as an alias, so the memory still recognises it. Only whole
//! words match, case as given: replacing "Bram" leaves "Brambles" and "bram" alone.

use serde::Serialize;

use crate::clock::{Clock, timestamp};
use crate::files::{scene_path, write_scene};
use crate::memory::{MemoryError, Record};
use crate::model::{Character, Location, count_words};
use crate::novel::{Novel, NovelError};
use crate::store::{self, ChangeKind, HistoryEntry, NewVersion, StoreError, VersionOrigin};
use crate::text::clean_line;

#[derive(Debug, thiserror::Error)]
pub enum RenameError {
    #[error("{0}")]
    Invalid(String),
    #[error("\"{0}\" does not appear in the book as a whole word; nothing was changed")]
    NotFound(String),
    #[error(transparent)]
    Novel(#[from] NovelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Memory(#[from] MemoryError),
    #[error("could not write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// What a replace changed (or, from [`preview`], would change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReplaceReport {
    pub old: String,
    pub new: String,
    pub occurrences: u32,
    /// The ticks of the scenes changed.
    pub scenes: Vec<u32>,
    /// The record renamed, with the old name kept as an alias.
    pub renamed_record: Option<String>,
}

/// `text` with every whole-word `old` replaced by `new`, and how many there were.
pub fn replace_words(text: &str, old: &str, new: &str) -> (String, u32) {
    if old.is_empty() {
        return (text.to_string(), 0);
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut rest = text;
    let mut before: Option<char> = None;
    while let Some(at) = rest.find(old) {
        let prev = rest[..at].chars().next_back().or(before);
        let next = rest[at + old.len()..].chars().next();
        out.push_str(&rest[..at]);
        if word(prev) && word(old.chars().next()) || word(next) && word(old.chars().next_back()) {
            out.push_str(old);
        } else {
            out.push_str(new);
            count += 1;
        }
        before = old.chars().next_back();
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    (out, count)
}

fn names(old: &str, new: &str) -> Result<(String, String), RenameError> {
    let (old, new) = (clean_line(old), clean_line(new));
    if old.is_empty() || new.is_empty() {
        return Err(RenameError::Invalid(
            "give the name to replace and the name to put in its place".into(),
        ));
    }
    if old == new {
        return Err(RenameError::Invalid(
            "the new name is the same as the old one".into(),
        ));
    }
    Ok((old, new))
}

/// What replacing `old` with `new` would change, without changing anything.
pub fn preview(novel: &Novel, old: &str, new: &str) -> Result<ReplaceReport, RenameError> {
    let (old, new) = names(old, new)?;
    let mut report = ReplaceReport {
        old: old.clone(),
        new: new.clone(),
        occurrences: 0,
        scenes: Vec::new(),
        renamed_record: None,
    };
    for scene in store::list_scenes(novel.store().conn())? {
        let n = [scene.prose.as_str(), scene.title.as_str()]
            .into_iter()
            .chain(scene.summary.iter().map(String::as_str))
            .map(|t| replace_words(t, &old, &new).1)
            .sum::<u32>();
        if n > 0 {
            report.occurrences += n;
            report.scenes.push(scene.tick);
        }
    }
    Ok(report)
}

/// The name of the character (else the place) a replace of `old` with the alias option would
/// rename, so the writer can be told before choosing; `None` when no record bears it.
pub fn name_bearer(conn: &rusqlite::Connection, old: &str) -> Result<Option<String>, RenameError> {
    let old = clean_line(old);
    let named = |records: Vec<(String, String)>| bearer(&records, &old).map(|(_, name)| name);
    let characters = store::list_characters(conn)?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect();
    if let Some(name) = named(characters) {
        return Ok(Some(name));
    }
    let locations = store::list_locations(conn)?
        .into_iter()
        .map(|l| (l.id, l.name))
        .collect();
    Ok(named(locations))
}

/// Replaces `old` with `new` across the book as one recorded change; with `rename_record`,
/// the character or place named `old` is renamed and keeps `old` as an alias.
pub fn replace_in_book(
    novel: &mut Novel,
    old: &str,
    new: &str,
    rename_record: bool,
    clock: &dyn Clock,
) -> Result<ReplaceReport, RenameError> {
    let (old, new) = names(old, new)?;
    let root = novel.root().to_path_buf();
    let now = timestamp(clock.now());
    let Some(store) = novel.store_mut() else {
        return Err(NovelError::ReadOnly { path: root }.into());
    };
    let tick = store::load_state(store.conn())?.current_tick;
    let label = format!("replace \"{old}\" with \"{new}\"");
    store
        .recorded(
            ChangeKind::Edit,
            tick,
            &label,
            &now,
            |tx| {
                let mut report = ReplaceReport {
                    old: old.clone(),
                    new: new.clone(),
                    occurrences: 0,
                    scenes: Vec::new(),
                    renamed_record: None,
                };
                let mut changed = Vec::new();
                for mut scene in store::list_scenes(tx)? {
                    let (prose, in_prose) = replace_words(&scene.prose, &old, &new);
                    let (title, in_title) = replace_words(&scene.title, &old, &new);
                    let mut in_summary = 0;
                    let summary: Vec<String> = scene
                        .summary
                        .iter()
                        .map(|s| {
                            let (s, n) = replace_words(s, &old, &new);
                            in_summary += n;
                            s
                        })
                        .collect();
                    let n = in_prose + in_title + in_summary;
                    if n == 0 {
                        continue;
                    }
                    report.occurrences += n;
                    report.scenes.push(scene.tick);
                    scene.prose = prose;
                    scene.title = title;
                    scene.summary = summary;
                    scene.word_count = count_words(&scene.prose);
                    store::update_scene_text(tx, &scene)?;
                    store::append_history(
                        tx,
                        &HistoryEntry {
                            entity_id: scene.id.clone(),
                            tick,
                            field: "prose".into(),
                            change: format!(
                                "\"{old}\" replaced with \"{new}\" by the writer ({n}×)"
                            ),
                            old_value: None,
                            new_value: None,
                            flagged: false,
                            source: "user".into(),
                        },
                    )?;
                    changed.push(scene);
                }
                if rename_record {
                    report.renamed_record = rename_bearer(tx, &old, &new, tick)?;
                }
                if report.occurrences == 0 && report.renamed_record.is_none() {
                    return Err(RenameError::NotFound(old.clone()));
                }
                Ok((report, changed))
            },
            |tx, (_, changed), seq| {
                let branch = store::head(tx)?.branch_name;
                for scene in changed {
                    store::insert_version(
                        tx,
                        &NewVersion {
                            tick: scene.tick,
                            branch: &branch,
                            origin: VersionOrigin::Edit,
                            title: &scene.title,
                            prose: &scene.prose,
                            words: scene.word_count,
                            change_seq: seq,
                            created_at: &now,
                        },
                    )?;
                    // Rewritten before the commit: a failed write leaves both copies as they were.
                    write_scene(
                        &root,
                        scene.tick,
                        &scene.title,
                        &scene.summary,
                        &scene.prose,
                    )
                    .map_err(|source| RenameError::Io {
                        path: scene_path(&root, scene.tick).display().to_string(),
                        source,
                    })?;
                }
                Ok(())
            },
        )
        .map(|(report, _)| report)
}

/// Renames the character (else the place) that bears `old`: the one named exactly so, else
/// the only one whose name holds it as a word ("Tamsin" in "Tamsin Vale" makes "Tess Vale").
/// The full old name stays as an alias. Several candidates and no exact match: none renamed.
fn rename_bearer(
    tx: &rusqlite::Transaction<'_>,
    old: &str,
    new: &str,
    tick: u32,
) -> Result<Option<String>, RenameError> {
    let characters: Vec<(String, String)> = store::list_characters(tx)?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect();
    let locations: Vec<(String, String)> = store::list_locations(tx)?
        .into_iter()
        .map(|l| (l.id, l.name))
        .collect();
    let Some((id, name, is_character)) = bearer(&characters, old)
        .map(|(id, name)| (id, name, true))
        .or_else(|| bearer(&locations, old).map(|(id, name)| (id, name, false)))
    else {
        return Ok(None);
    };
    // Not `memory::update_record`: it refuses a rename from the model, and this one is the
    // writer's own.
    let renamed = replace_words(&name, old, new).0;
    if is_character {
        rename_record::<Character>(tx, &id, &name, &renamed, tick)?;
    } else {
        rename_record::<Location>(tx, &id, &name, &renamed, tick)?;
    }
    Ok(Some(id))
}

/// Renames record `id` from `name` to `renamed`, keeping `name` as an alias.
fn rename_record<R: Record + Named>(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    name: &str,
    renamed: &str,
    tick: u32,
) -> Result<(), RenameError> {
    let Some(mut record) = R::load(tx, id)? else {
        return Ok(());
    };
    record.rename(renamed, name);
    record.touch(tick);
    record.save(tx)?;
    store::index_document(tx, &record.document())?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: id.to_string(),
            tick,
            field: "name".into(),
            change: format!("renamed by the writer, \"{name}\" kept as an alias"),
            old_value: Some(serde_json::Value::String(name.to_string())),
            new_value: Some(serde_json::Value::String(renamed.to_string())),
            flagged: false,
            source: "user".into(),
        },
    )?;
    Ok(())
}

/// A record with a name and aliases.
trait Named {
    fn rename(&mut self, name: &str, alias: &str);
}

impl Named for Character {
    fn rename(&mut self, name: &str, alias: &str) {
        self.name = name.to_string();
        if !self.aliases.iter().any(|a| a == alias) {
            self.aliases.push(alias.to_string());
        }
    }
}

impl Named for Location {
    fn rename(&mut self, name: &str, alias: &str) {
        self.name = name.to_string();
        if !self.aliases.iter().any(|a| a == alias) {
            self.aliases.push(alias.to_string());
        }
    }
}

fn bearer(records: &[(String, String)], old: &str) -> Option<(String, String)> {
    if let Some(exact) = records.iter().find(|(_, name)| name == old) {
        return Some(exact.clone());
    }
    let mut holding = records
        .iter()
        .filter(|(_, name)| replace_words(name, old, "").1 > 0);
    match (holding.next(), holding.next()) {
        (Some(only), None) => Some(only.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
