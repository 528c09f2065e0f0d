//! The writer's guidance: the foundation (premise, goal, tone, style, themes…) and the author's
//! note that goes into every planner and writer prompt; the outline of beats the planner takes
//! in order; the pressure on the story — clocks that rise toward thresholds, and events bound
//! to a tick. All recorded changes (the foundation is mirrored into `novel.toml`).

use serde::{Deserialize, Serialize};

use super::edit::{BibleError, recorded};
use crate::clock::Clock;
use crate::config::{Foundation, NovelConfig, PointOfView, Tense};
use crate::memory::WRITER;
use crate::model::{
    Beat, BeatStatus, EventStatus, LoopStatus, PressureClock, StoryEvent, Threshold,
};
use crate::novel::Novel;
use crate::store::{self, HistoryEntry};
use crate::text::{clean_line, strip_controls};

/// Changes to the foundation; `None` keeps the current value.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FoundationEdit {
    #[serde(default)]
    pub title: Option<String>,
    /// The author's name as exports print it (title page, running header).
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub genre: Option<String>,
    #[serde(default)]
    pub premise: Option<String>,
    #[serde(default)]
    pub setting: Option<String>,
    #[serde(default)]
    pub tone: Option<String>,
    #[serde(default)]
    pub style: Option<String>,
    #[serde(default)]
    pub pov: Option<PointOfView>,
    #[serde(default)]
    pub tense: Option<Tense>,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub themes: Option<Vec<String>>,
    /// The directional goal (the story's goal loop).
    #[serde(default)]
    pub goal: Option<String>,
}

fn history(
    tx: &rusqlite::Transaction<'_>,
    entity: &str,
    tick: u32,
    field: &str,
    change: &str,
    old: Option<serde_json::Value>,
    new: Option<serde_json::Value>,
) -> Result<(), BibleError> {
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: entity.to_string(),
            tick,
            field: field.to_string(),
            change: change.to_string(),
            old_value: old,
            new_value: new,
            flagged: false,
            source: WRITER.into(),
        },
    )?;
    Ok(())
}

/// Changes the foundation (validated like a new novel's) and the goal.
pub fn edit_foundation(
    novel: &mut Novel,
    edit: &FoundationEdit,
    clock: &dyn Clock,
) -> Result<Foundation, BibleError> {
    let mut f = novel.config().novel.clone();
    let set = |slot: &mut String, value: &Option<String>| {
        if let Some(v) = value {
            *slot = strip_controls(v.trim());
        }
    };
    set(&mut f.title, &edit.title);
    if let Some(author) = &edit.author {
        f.author = clean_line(author);
    }
    set(&mut f.genre, &edit.genre);
    set(&mut f.premise, &edit.premise);
    set(&mut f.setting, &edit.setting);
    set(&mut f.tone, &edit.tone);
    set(&mut f.style, &edit.style);
    set(&mut f.language, &edit.language);
    if let Some(pov) = edit.pov {
        f.pov = pov;
    }
    if let Some(tense) = edit.tense {
        f.tense = tense;
    }
    if let Some(themes) = &edit.themes {
        f.themes = themes
            .iter()
            .map(|t| clean_line(t))
            .filter(|t| !t.is_empty())
            .collect();
    }
    NovelConfig {
        novel: f.clone(),
        ..novel.config().clone()
    }
    .validate()
    .map_err(|e| BibleError::Invalid(e.to_string()))?;
    let goal = edit.goal.as_deref().map(clean_line);
    if goal.as_deref() == Some("") {
        return Err(BibleError::Invalid("the goal must not be empty".into()));
    }
    let before = novel.config().novel.clone();
    let saved = f.clone();
    recorded(
        novel,
        "the writer changed the foundation",
        clock,
        |tx, tick| {
            store::put_foundation(tx, &saved)?;
            history(
                tx,
                "foundation",
                tick,
                "*",
                "changed by the writer",
                serde_json::to_value(&before).ok(),
                serde_json::to_value(&saved).ok(),
            )?;
            if let Some(goal) = goal {
                set_goal(tx, &goal, tick)?;
            }
            Ok(())
        },
    )?;
    novel.write_foundation_file()?;
    Ok(f)
}

/// The story's directional goal is its first open goal loop: its words change.
fn set_goal(tx: &rusqlite::Transaction<'_>, goal: &str, tick: u32) -> Result<(), BibleError> {
    let loops = store::list_loops(tx, Some(LoopStatus::Open))?;
    match loops.iter().find(|l| l.category == "goal") {
        Some(l) => {
            crate::memory::edit_loop(
                tx,
                &l.id,
                &crate::memory::LoopEdit {
                    description: Some(goal.to_string()),
                    ..Default::default()
                },
                tick,
            )?;
        }
        None => {
            crate::memory::open_loop(
                tx,
                crate::memory::NewLoop {
                    description: goal.to_string(),
                    category: "goal".into(),
                    importance: crate::model::Importance::Critical,
                },
                tick,
                WRITER,
            )?;
        }
    }
    Ok(())
}

/// Sets the author's note (empty clears it): standing guidance in every planner and writer
/// prompt until changed.
pub fn set_author_note(
    novel: &mut Novel,
    note: &str,
    clock: &dyn Clock,
) -> Result<Foundation, BibleError> {
    let note = strip_controls(note.trim());
    if note.chars().count() > 4_000 {
        return Err(BibleError::Invalid(
            "the author's note is limited to 4,000 characters; keep it to the rules that matter"
                .into(),
        ));
    }
    let mut f = novel.config().novel.clone();
    let before = std::mem::replace(&mut f.author_note, note);
    let saved = f.clone();
    recorded(
        novel,
        "the writer changed the author's note",
        clock,
        |tx, tick| {
            store::put_foundation(tx, &saved)?;
            history(
                tx,
                "foundation",
                tick,
                "author_note",
                "changed by the writer",
                Some(before.clone().into()),
                Some(saved.author_note.clone().into()),
            )?;
            Ok(())
        },
    )?;
    novel.write_foundation_file()?;
    Ok(f)
}

/// Where to put a beat.
fn renumber(tx: &rusqlite::Transaction<'_>, beats: &mut [Beat]) -> Result<(), BibleError> {
    for (i, b) in beats.iter_mut().enumerate() {
        if b.position != i as u32 {
            b.position = i as u32;
            store::put_beat(tx, b)?;
        }
    }
    Ok(())
}

fn beat_text(text: &str) -> Result<String, BibleError> {
    let text = strip_controls(text.trim());
    if text.is_empty() {
        return Err(BibleError::Invalid("a beat needs some words".into()));
    }
    Ok(text)
}

/// Adds a beat at `at` in the queue of beats still open (0: next), or at the end.
pub fn add_beat(
    novel: &mut Novel,
    text: &str,
    at: Option<usize>,
    clock: &dyn Clock,
) -> Result<Beat, BibleError> {
    let text = beat_text(text)?;
    recorded(novel, "the writer added a beat", clock, |tx, tick| {
        let mut beats = store::list_beats(tx)?;
        let beat = Beat {
            id: store::mint_prefixed(tx, 'B')?,
            position: 0,
            text: text.clone(),
            status: BeatStatus::Open,
            done_tick: None,
        };
        let done = beats
            .iter()
            .filter(|b| b.status == BeatStatus::Done)
            .count();
        let index = at.map_or(beats.len(), |i| (done + i).min(beats.len()));
        beats.insert(index, beat);
        for b in &beats {
            store::put_beat(tx, b)?;
        }
        renumber(tx, &mut beats)?;
        history(
            tx,
            &beats[index].id,
            tick,
            "text",
            "added by the writer",
            None,
            Some(text.into()),
        )?;
        Ok(beats[index].clone())
    })
}

fn find_beat(beats: &[Beat], id: &str) -> Result<usize, BibleError> {
    beats
        .iter()
        .position(|b| b.id == id)
        .ok_or_else(|| BibleError::NotFound {
            what: "beat",
            id: id.to_string(),
        })
}

pub fn edit_beat(
    novel: &mut Novel,
    id: &str,
    text: &str,
    clock: &dyn Clock,
) -> Result<Beat, BibleError> {
    let text = beat_text(text)?;
    recorded(
        novel,
        &format!("the writer changed beat {id}"),
        clock,
        |tx, tick| {
            let mut beats = store::list_beats(tx)?;
            let i = find_beat(&beats, id)?;
            let old = std::mem::replace(&mut beats[i].text, text.clone());
            store::put_beat(tx, &beats[i])?;
            history(
                tx,
                id,
                tick,
                "text",
                "changed by the writer",
                Some(old.into()),
                Some(text.into()),
            )?;
            Ok(beats[i].clone())
        },
    )
}

/// Moves a beat to position `to` of the whole outline (0: first).
pub fn move_beat(
    novel: &mut Novel,
    id: &str,
    to: usize,
    clock: &dyn Clock,
) -> Result<Vec<Beat>, BibleError> {
    recorded(
        novel,
        &format!("the writer moved beat {id}"),
        clock,
        |tx, _| {
            let mut beats = store::list_beats(tx)?;
            let i = find_beat(&beats, id)?;
            let beat = beats.remove(i);
            beats.insert(to.min(beats.len()), beat);
            renumber(tx, &mut beats)?;
            Ok(beats)
        },
    )
}

pub fn remove_beat(novel: &mut Novel, id: &str, clock: &dyn Clock) -> Result<(), BibleError> {
    recorded(
        novel,
        &format!("the writer removed beat {id}"),
        clock,
        |tx, tick| {
            let mut beats = store::list_beats(tx)?;
            let i = find_beat(&beats, id)?;
            let gone = beats.remove(i);
            store::delete_beat(tx, id)?;
            renumber(tx, &mut beats)?;
            history(
                tx,
                id,
                tick,
                "*",
                "removed by the writer",
                Some(gone.text.into()),
                None,
            )?;
            Ok(())
        },
    )
}

/// Marks a beat done (at the current tick) or open again.
pub fn mark_beat(
    novel: &mut Novel,
    id: &str,
    done: bool,
    clock: &dyn Clock,
) -> Result<Beat, BibleError> {
    recorded(
        novel,
        &format!("the writer marked beat {id}"),
        clock,
        |tx, tick| {
            let mut beats = store::list_beats(tx)?;
            let i = find_beat(&beats, id)?;
            beats[i].status = if done {
                BeatStatus::Done
            } else {
                BeatStatus::Open
            };
            beats[i].done_tick = done.then_some(tick);
            store::put_beat(tx, &beats[i])?;
            Ok(beats[i].clone())
        },
    )
}

/// A new pressure clock.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NewClock {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub value: u32,
    pub max: u32,
    #[serde(default)]
    pub per_tick: u32,
    #[serde(default)]
    pub thresholds: Vec<Threshold>,
}

fn check_clock(c: &PressureClock) -> Result<(), BibleError> {
    if c.name.trim().is_empty() {
        return Err(BibleError::Invalid("a clock needs a name".into()));
    }
    if c.max == 0 || c.max > 1000 || c.value > c.max {
        return Err(BibleError::Invalid(format!(
            "a clock runs from 0 to its maximum (1–1000); {} of {} does not fit",
            c.value, c.max
        )));
    }
    if let Some(t) = c.thresholds.iter().find(|t| t.at == 0 || t.at > c.max) {
        return Err(BibleError::Invalid(format!(
            "threshold {} is outside 1–{}",
            t.at, c.max
        )));
    }
    Ok(())
}

pub fn add_clock(
    novel: &mut Novel,
    new: NewClock,
    clock: &dyn Clock,
) -> Result<PressureClock, BibleError> {
    recorded(
        novel,
        &format!("the writer added the clock {}", new.name),
        clock,
        |tx, tick| {
            let mut thresholds = new.thresholds.clone();
            thresholds.sort_by_key(|t| t.at);
            let c = PressureClock {
                id: store::mint_prefixed(tx, 'P')?,
                name: clean_line(&new.name),
                description: strip_controls(new.description.trim()),
                value: new.value,
                max: new.max,
                per_tick: new.per_tick,
                thresholds,
                created_tick: tick,
            };
            check_clock(&c)?;
            store::put_clock(tx, &c)?;
            history(
                tx,
                &c.id,
                tick,
                "*",
                "added by the writer",
                None,
                serde_json::to_value(&c).ok(),
            )?;
            Ok(c)
        },
    )
}

/// Replaces a clock's settings (name, description, value, max, per tick, thresholds).
pub fn edit_clock(
    novel: &mut Novel,
    id: &str,
    edit: NewClock,
    clock: &dyn Clock,
) -> Result<PressureClock, BibleError> {
    recorded(
        novel,
        &format!("the writer changed clock {id}"),
        clock,
        |tx, tick| {
            let old = store::list_clocks(tx)?
                .into_iter()
                .find(|c| c.id == id)
                .ok_or_else(|| BibleError::NotFound {
                    what: "clock",
                    id: id.to_string(),
                })?;
            let mut thresholds = edit.thresholds.clone();
            thresholds.sort_by_key(|t| t.at);
            let c = PressureClock {
                name: clean_line(&edit.name),
                description: strip_controls(edit.description.trim()),
                value: edit.value,
                max: edit.max,
                per_tick: edit.per_tick,
                thresholds,
                ..old.clone()
            };
            check_clock(&c)?;
            store::put_clock(tx, &c)?;
            history(
                tx,
                id,
                tick,
                "*",
                "changed by the writer",
                serde_json::to_value(&old).ok(),
                serde_json::to_value(&c).ok(),
            )?;
            Ok(c)
        },
    )
}

pub fn remove_clock(novel: &mut Novel, id: &str, clock: &dyn Clock) -> Result<(), BibleError> {
    remove_recorded(novel, "clock", id, clock, store::delete_clock)
}

/// Deletes the `what` with `id` through `delete` (false: no such row) as one recorded change.
fn remove_recorded(
    novel: &mut Novel,
    what: &'static str,
    id: &str,
    clock: &dyn Clock,
    delete: fn(&rusqlite::Transaction<'_>, &str) -> store::StoreResult<bool>,
) -> Result<(), BibleError> {
    recorded(
        novel,
        &format!("the writer removed {what} {id}"),
        clock,
        |tx, tick| {
            if !delete(tx, id)? {
                return Err(BibleError::NotFound {
                    what,
                    id: id.to_string(),
                });
            }
            history(tx, id, tick, "*", "removed by the writer", None, None)
        },
    )
}

/// An event that happens at scene `tick` whatever the characters do.
pub fn add_event(
    novel: &mut Novel,
    tick: u32,
    description: &str,
    clock: &dyn Clock,
) -> Result<StoryEvent, BibleError> {
    let description = strip_controls(description.trim());
    if description.is_empty() {
        return Err(BibleError::Invalid("an event needs a description".into()));
    }
    let current = novel.state()?.current_tick;
    if tick <= current {
        return Err(BibleError::Invalid(format!(
            "scene {tick} is already written; an event must be for scene {} or later",
            current + 1
        )));
    }
    recorded(
        novel,
        "the writer added an inevitable event",
        clock,
        |tx, now| {
            let e = StoryEvent {
                id: store::mint_prefixed(tx, 'E')?,
                tick,
                description: description.clone(),
                status: EventStatus::Pending,
            };
            store::put_event(tx, &e)?;
            history(
                tx,
                &e.id,
                now,
                "*",
                "added by the writer",
                None,
                serde_json::to_value(&e).ok(),
            )?;
            Ok(e)
        },
    )
}

pub fn remove_event(novel: &mut Novel, id: &str, clock: &dyn Clock) -> Result<(), BibleError> {
    remove_recorded(novel, "event", id, clock, store::delete_event)
}
