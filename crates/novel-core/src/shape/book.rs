//! The book as the writer shapes it: chapters, each an ordered list of scenes. A shaping
//! operation edits this outline in memory; [`Book::commit`] then makes the database agree with
//! it inside the caller's recorded transaction — scenes removed, renumbered (with every column
//! that names a scene by its tick, see `store::order`), changed and added, the chapters stored
//! as they now stand, the story's tick moved by the difference and the roll-ups rebuilt.

use std::collections::{BTreeMap, HashMap};

use rusqlite::Transaction;

use crate::ids::EntityKind;
use crate::model::Scene;
use crate::store::{self, ChapterRow, StoreError, TitledBy};

/// A scene the book holds: one already in the story, or one the writer adds.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    Kept(String),
    New(NewScene),
}

/// A scene the writer adds (its memory comes from a re-read afterwards).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewScene {
    pub title: String,
    pub prose: String,
    pub pov_character: Option<String>,
    pub location: Option<String>,
    pub summary: Vec<String>,
    pub tension: Option<u8>,
}

/// One chapter and its scenes, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    pub title: String,
    pub part_title: Option<String>,
    pub titled_by: TitledBy,
    pub slots: Vec<Slot>,
    /// How many scenes the chapter still expects beyond its last one (a proposal of ten that
    /// holds three): the agent's next scenes go on filling it.
    pub room: u32,
}

/// The outline of the whole book, with the changes made to existing scenes' text.
#[derive(Debug, Clone)]
pub struct Book {
    pub chapters: Vec<Chapter>,
    /// Every scene of the story as it was read, in tick order.
    pub scenes: Vec<Scene>,
    /// New text (title, prose) for existing scenes, by id.
    pub edited: HashMap<String, Scene>,
}

/// What committing a book did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Committed {
    /// The tick each slot ended with, in book order (new scenes included).
    pub ticks_in_order: Vec<u32>,
    /// The first place in the book whose scene changed, if any.
    pub first_changed: Option<u32>,
    /// The story's tick before and after.
    pub before: u32,
    pub after: u32,
}

impl Book {
    /// Reads the book: the stored chapters and proposals, with every scene in each.
    pub fn read(conn: &rusqlite::Connection) -> Result<Book, StoreError> {
        let scenes = store::list_scenes(conn)?;
        let spans = store::book_chapters(conn, &scenes)?;
        let chapters = spans
            .iter()
            .map(|span| Chapter {
                title: span.title.clone(),
                part_title: span.part_title.clone(),
                titled_by: span.titled_by.unwrap_or(TitledBy::Proposal),
                slots: scenes
                    .iter()
                    .filter(|s| span.contains(s.tick))
                    .map(|s| Slot::Kept(s.id.clone()))
                    .collect(),
                room: span.nominal_last_tick - span.last_tick,
            })
            .collect();
        Ok(Book {
            chapters,
            scenes,
            edited: HashMap::new(),
        })
    }

    /// The scene at place `tick` as it was read.
    pub fn scene(&self, tick: u32) -> Option<&Scene> {
        self.scenes.iter().find(|s| s.tick == tick)
    }

    /// The scene `id` with the edits made so far.
    pub fn current(&self, id: &str) -> Option<Scene> {
        self.edited
            .get(id)
            .cloned()
            .or_else(|| self.scenes.iter().find(|s| s.id == id).cloned())
    }

    /// (chapter index, slot index) of the scene at `tick` as it was read.
    pub fn locate(&self, tick: u32) -> Option<(usize, usize)> {
        let id = &self.scene(tick)?.id;
        self.chapters.iter().enumerate().find_map(|(c, ch)| {
            ch.slots
                .iter()
                .position(|s| matches!(s, Slot::Kept(k) if k == id))
                .map(|i| (c, i))
        })
    }

    /// Makes the database agree with the book, in `tx` (which is being recorded).
    pub fn commit(&self, tx: &Transaction<'_>, now: &str) -> Result<Committed, StoreError> {
        let mut state = store::load_state(tx)?;
        let old: Vec<(String, u32)> = self.scenes.iter().map(|s| (s.id.clone(), s.tick)).collect();
        let order: Vec<&Slot> = self.chapters.iter().flat_map(|c| &c.slots).collect();
        let new_tick: HashMap<&str, u32> = order
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| match slot {
                Slot::Kept(id) => Some((id.as_str(), i as u32 + 1)),
                Slot::New(_) => None,
            })
            .collect();
        // Removed scenes go first, so that renumbering moves only the scenes that stay.
        for (id, tick) in &old {
            if !new_tick.contains_key(id.as_str()) {
                store::remove_scene(tx, id, *tick)?;
            }
        }
        // A removed scene's facts move to the scene before it (the one it was merged into).
        let mut map = BTreeMap::new();
        let mut previous = 0;
        for (id, tick) in &old {
            let to = new_tick.get(id.as_str()).copied().unwrap_or(previous);
            map.insert(*tick, to);
            previous = to;
        }
        store::renumber_ticks(tx, &map)?;
        let mut first_changed: Option<u32> = None;
        let mut changed = |tick: u32| {
            first_changed = Some(first_changed.map_or(tick, |f: u32| f.min(tick)));
        };
        for (id, tick) in &old {
            match new_tick.get(id.as_str()) {
                Some(&to) if to != *tick => {
                    changed(to.min(*tick));
                }
                None => changed(*tick),
                _ => {}
            }
        }
        for (id, edit) in &self.edited {
            let Some(&tick) = new_tick.get(id.as_str()) else {
                continue;
            };
            let scene = Scene {
                tick,
                ..edit.clone()
            };
            store::update_scene_text(tx, &scene)?;
            changed(tick);
        }
        // Scenes that only moved carry their passages' tick through the renumbering; their
        // titles head the passages, so a renamed or moved scene is re-derived once here.
        for (id, _) in &old {
            if new_tick.contains_key(id.as_str()) {
                store::reindex_record(tx, "scenes", id)?;
            }
        }
        let mut ticks_in_order = Vec::with_capacity(order.len());
        for (i, slot) in order.iter().enumerate() {
            let tick = i as u32 + 1;
            ticks_in_order.push(tick);
            if let Slot::New(new) = slot {
                let scene = Scene {
                    id: store::mint_id(tx, EntityKind::Scene)?.to_string(),
                    tick,
                    title: new.title.clone(),
                    pov_character: new.pov_character.clone(),
                    location: new.location.clone(),
                    prose: new.prose.clone(),
                    word_count: crate::model::count_words(&new.prose),
                    summary: new.summary.clone(),
                    tension: new.tension,
                    created_at: now.to_string(),
                };
                store::insert_scene(tx, &scene)?;
                store::index_scene(tx, &scene)?;
                changed(tick);
            }
        }
        store::set_chapters(tx, &self.chapter_rows())?;
        let before = state.current_tick;
        let count = order.len() as u32;
        state.current_tick = (before + count).saturating_sub(old.len() as u32);
        state.updated_at = now.to_string();
        store::save_state(tx, &state)?;
        if state.current_tick != before {
            // The failure of the next scene named a number that now belongs to another.
            store::resolve_failures(tx, before + 1)?;
        }
        store::rebuild_rollups(tx)?;
        Ok(Committed {
            ticks_in_order,
            first_changed,
            before,
            after: state.current_tick,
        })
    }

    /// The chapters as stored rows: every chapter that holds a scene, numbered by place.
    fn chapter_rows(&self) -> Vec<ChapterRow> {
        let mut rows = Vec::new();
        let mut next = 1;
        let kept: Vec<&Chapter> = self
            .chapters
            .iter()
            .filter(|c| !c.slots.is_empty())
            .collect();
        for (i, chapter) in kept.iter().enumerate() {
            let first = next;
            let last = first + chapter.slots.len() as u32 - 1;
            let room = if i + 1 == kept.len() { chapter.room } else { 0 };
            rows.push(ChapterRow {
                first_tick: first,
                last_tick: last + room,
                title: chapter.title.clone(),
                part_title: chapter.part_title.clone(),
                titled_by: chapter.titled_by,
            });
            next = last + 1;
        }
        rows
    }
}
