//! The writer shaping the book by hand: adding a scene they wrote anywhere, moving a scene to
//! another place or chapter, splitting a scene at a paragraph or at the editor's cursor,
//! merging two neighbours, renaming and deleting scenes, deleting and moving chapters — and
//! undoing the latest of these (or any other writer's change). A scene's number is its place in the book, so each
//! operation renumbers the scenes after it (see `store::order` and ARCHITECTURE.md, "Shaping
//! the book"). Each is one recorded change of the story (so undo, rewind and branches treat it
//! like any other) and a new version of every scene whose text it changed; the scene and plan
//! files follow after the commit (a crash in between is repaired by `reconcile` on open). The
//! memory follows the way it does after a prose edit: the answer names the scenes to re-read
//! (`bible::propose_after_edit`), whose proposal also flags later scenes that now disagree.

mod book;
mod clean;
mod error;
mod place;
mod reshape;
mod written;

use serde::Serialize;

use crate::branches;
use crate::clock::Clock;
use crate::files;
use crate::model::{Scene, count_words};
use crate::novel::Novel;
use crate::store::{self, ChangeKind, StoreError};

pub use book::{Book, Chapter, NewScene, Slot};
pub use clean::MAX_TITLE_CHARS;
pub use error::ShapeError;
pub use place::Place;
pub use reshape::Shaped;
pub use written::write_scene;

use clean::{clean_prose, clean_title, first_sentence};
use place::{chapter_index, flat_index, no_scene, put, take, whereabouts};
use reshape::{Focus, Show, reshape};

/// The paragraphs of a scene: runs of text between blank lines.
pub fn paragraphs(prose: &str) -> Vec<String> {
    prose
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The place right after scene `tick`: before the next scene of its chapter, or the end of its
/// chapter when it is the chapter's last (0: the start of the book).
pub fn after(novel: &Novel, tick: u32) -> Result<Place, ShapeError> {
    let book = Book::read(novel.store().conn())?;
    if tick == 0 {
        return Ok(match book.scenes.first() {
            Some(s) => Place::Before(s.tick),
            None => Place::EndOfChapter(1),
        });
    }
    let (c, i) = book.locate(tick).ok_or_else(|| no_scene(&book, tick))?;
    Ok(if i + 1 < book.chapters[c].slots.len() {
        Place::Before(tick + 1)
    } else {
        Place::EndOfChapter(c as u32 + 1)
    })
}

/// Adds a scene the writer wrote at `place`; returns its number and proposes re-reading it.
pub fn add_scene(
    novel: &mut Novel,
    place: Place,
    title: &str,
    prose: &str,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    let title = clean_title(title).ok_or(ShapeError::EmptyTitle)?;
    let prose = clean_prose(prose)?;
    let summary = vec![first_sentence(&prose)];
    reshape(novel, "a scene added", clock, |book| {
        let new = NewScene {
            title,
            prose,
            summary,
            ..NewScene::default()
        };
        put(book, place, Slot::New(new))?;
        Ok(Focus {
            show: Show::NewScene,
            label: Some(format!(
                "scene {} added",
                flat_index(book, |s| matches!(s, Slot::New(_))) + 1
            )),
            text: Vec::new(),
        })
    })
}

/// Moves scene `tick` to `place` (numbers as before the move).
pub fn move_scene(
    novel: &mut Novel,
    tick: u32,
    place: Place,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    if place == Place::Before(tick) {
        return Err(ShapeError::SamePlace);
    }
    reshape(novel, &format!("scene {tick} moved"), clock, |book| {
        let id = book
            .scene(tick)
            .ok_or_else(|| no_scene(book, tick))?
            .id
            .clone();
        // The target is found before the scene leaves, so "before scene 5" means the scene
        // that was 5.
        let target = match place {
            Place::Before(t) => Some(book.scene(t).ok_or_else(|| no_scene(book, t))?.id.clone()),
            Place::EndOfChapter(n) => {
                chapter_index(book, n)?;
                None
            }
        };
        let was = whereabouts(book, &id);
        let slot = take(book, tick)?;
        match target {
            Some(t) => {
                let (c, i) = book
                    .chapters
                    .iter()
                    .enumerate()
                    .find_map(|(c, ch)| {
                        ch.slots
                            .iter()
                            .position(|s| matches!(s, Slot::Kept(k) if *k == t))
                            .map(|i| (c, i))
                    })
                    .ok_or(ShapeError::SamePlace)?;
                book.chapters[c].slots.insert(i, slot);
            }
            None => put(book, place, slot)?,
        }
        let now = whereabouts(book, &id);
        if now == was {
            return Err(ShapeError::SamePlace);
        }
        let to = now.map_or(tick, |(_, i)| i as u32 + 1);
        Ok(Focus {
            show: Show::Id(id),
            label: Some(format!("scene {tick} moved to {to}")),
            text: Vec::new(),
        })
    })
}

/// Splits scene `tick` after its paragraph `after_paragraph` (1-based); the rest becomes a new
/// scene right after it, titled `title` (or "… (continued)").
pub fn split_scene(
    novel: &mut Novel,
    tick: u32,
    after_paragraph: usize,
    title: Option<&str>,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    let title = match title {
        Some(t) => Some(clean_title(t).ok_or(ShapeError::EmptyTitle)?),
        None => None,
    };
    reshape(novel, &format!("scene {tick} split"), clock, |book| {
        let scene = book
            .scene(tick)
            .cloned()
            .ok_or_else(|| no_scene(book, tick))?;
        let paras = paragraphs(&scene.prose);
        if after_paragraph == 0 || after_paragraph >= paras.len() {
            return Err(ShapeError::BadSplit {
                tick,
                paragraphs: paras.len(),
            });
        }
        let head = paras[..after_paragraph].join("\n\n");
        let tail = paras[after_paragraph..].join("\n\n");
        split_into(book, tick, scene, head, tail, title)
    })
}

/// Splits scene `tick` where the writer's cursor is: its text becomes `prose` (the editor's
/// text, which may hold unsaved edits) cut at character `at`, so a cut inside a paragraph
/// splits that paragraph. The first part keeps the scene; the rest becomes a new scene right
/// after it, titled like the paragraph split. One recorded change, undone in one step.
pub fn split_scene_at(
    novel: &mut Novel,
    tick: u32,
    prose: &str,
    at: usize,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    let byte = prose.char_indices().nth(at).map_or(prose.len(), |(i, _)| i);
    let head = clean_prose(&prose[..byte]).map_err(|_| ShapeError::BadSplitAt)?;
    let tail = clean_prose(&prose[byte..]).map_err(|_| ShapeError::BadSplitAt)?;
    reshape(novel, &format!("scene {tick} split"), clock, |book| {
        let scene = book
            .scene(tick)
            .cloned()
            .ok_or_else(|| no_scene(book, tick))?;
        split_into(book, tick, scene, head, tail, None)
    })
}

/// Scene `tick` (`scene`) keeps `head`; `tail` becomes a new scene right after it, in the same
/// chapter, titled `title` or "… (continued)", with the scene's POV, place and tension.
fn split_into(
    book: &mut Book,
    tick: u32,
    scene: Scene,
    head: String,
    tail: String,
    title: Option<String>,
) -> Result<Focus, ShapeError> {
    let (c, i) = book.locate(tick).ok_or_else(|| no_scene(book, tick))?;
    let new = NewScene {
        title: title.unwrap_or_else(|| {
            clean_title(&format!("{} (continued)", scene.title)).unwrap_or_default()
        }),
        summary: vec![first_sentence(&tail)],
        pov_character: scene.pov_character.clone(),
        location: scene.location.clone(),
        tension: scene.tension,
        prose: tail,
    };
    book.chapters[c].slots.insert(i + 1, Slot::New(new));
    book.edited.insert(
        scene.id.clone(),
        Scene {
            word_count: count_words(&head),
            prose: head,
            ..scene.clone()
        },
    );
    Ok(Focus {
        show: Show::Id(scene.id.clone()),
        label: None,
        text: vec![scene.id],
    })
}

/// Merges scene `tick` with the scene after it: one scene with both texts, the first one's
/// title, in the first one's chapter.
pub fn merge_scenes(novel: &mut Novel, tick: u32, clock: &dyn Clock) -> Result<Shaped, ShapeError> {
    reshape(
        novel,
        &format!("scenes {tick} and {} merged", tick + 1),
        clock,
        |book| {
            let first = book
                .scene(tick)
                .cloned()
                .ok_or_else(|| no_scene(book, tick))?;
            let second = book
                .scene(tick + 1)
                .cloned()
                .ok_or(ShapeError::NothingToMerge { tick })?;
            take(book, tick + 1)?;
            let prose = format!("{}\n\n{}", first.prose.trim(), second.prose.trim());
            let mut summary = first.summary.clone();
            summary.extend(second.summary.iter().cloned());
            book.edited.insert(
                first.id.clone(),
                Scene {
                    word_count: count_words(&prose),
                    prose,
                    summary,
                    ..first.clone()
                },
            );
            Ok(Focus {
                show: Show::Id(first.id.clone()),
                label: None,
                text: vec![first.id],
            })
        },
    )
}

/// Gives scene `tick` the writer's title.
pub fn rename_scene(
    novel: &mut Novel,
    tick: u32,
    title: &str,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    let title = clean_title(title).ok_or(ShapeError::EmptyTitle)?;
    reshape(novel, &format!("scene {tick} renamed"), clock, |book| {
        let scene = book
            .scene(tick)
            .cloned()
            .ok_or_else(|| no_scene(book, tick))?;
        book.edited.insert(
            scene.id.clone(),
            Scene {
                title,
                ..scene.clone()
            },
        );
        Ok(Focus {
            show: Show::Id(scene.id),
            label: None,
            text: Vec::new(),
        })
    })
}

/// Deletes scene `tick` (its versions are kept, and undo brings it back). The memory it made
/// stays: the answer proposes nothing to re-read, and the scenes after it are renumbered.
pub fn delete_scene(novel: &mut Novel, tick: u32, clock: &dyn Clock) -> Result<Shaped, ShapeError> {
    reshape(novel, &format!("scene {tick} deleted"), clock, |book| {
        take(book, tick)?;
        Ok(Focus {
            show: Show::Place(tick),
            label: None,
            text: Vec::new(),
        })
    })
}

/// Deletes chapter `number` and its scenes.
pub fn delete_chapter(
    novel: &mut Novel,
    number: u32,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    reshape(novel, &format!("chapter {number} deleted"), clock, |book| {
        let c = chapter_index(book, number)?;
        let first = book.chapters[c].slots.first().and_then(|s| match s {
            Slot::Kept(id) => book.current(id).map(|s| s.tick),
            Slot::New(_) => None,
        });
        let removed = book.chapters.remove(c);
        // The last chapter's room for the scenes to come passes to the one now last.
        if c == book.chapters.len()
            && let Some(last) = book.chapters.last_mut()
        {
            last.room = removed.room;
        }
        Ok(Focus {
            show: Show::Place(first.unwrap_or(1)),
            label: None,
            text: Vec::new(),
        })
    })
}

/// Moves chapter `number` (with its scenes) before chapter `before` (`None`: to the end).
pub fn move_chapter(
    novel: &mut Novel,
    number: u32,
    before: Option<u32>,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    if before == Some(number) || before == Some(number + 1) {
        return Err(ShapeError::SamePlace);
    }
    reshape(novel, &format!("chapter {number} moved"), clock, |book| {
        let c = chapter_index(book, number)?;
        let to = match before {
            Some(b) => chapter_index(book, b)?,
            None => book.chapters.len(),
        };
        if to == c + 1 && before.is_none() {
            return Err(ShapeError::SamePlace);
        }
        let room = book.chapters.last().map_or(0, |l| l.room);
        let chapter = book.chapters.remove(c);
        let to = if to > c { to - 1 } else { to };
        let first = match chapter.slots.first() {
            Some(Slot::Kept(id)) => Some(id.clone()),
            _ => None,
        };
        book.chapters.insert(to, chapter);
        for ch in &mut book.chapters {
            ch.room = 0;
        }
        if let Some(last) = book.chapters.last_mut() {
            last.room = room;
        }
        Ok(Focus {
            show: first.map_or(Show::Place(1), Show::Id),
            label: None,
            text: Vec::new(),
        })
    })
}

/// What undo did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Undone {
    /// The change undone, in the writer's words.
    pub label: String,
    /// How many scenes the book has now.
    pub scenes: u32,
}

/// Undoes the latest change when it is the writer's (a shaping, an edit, a chapter or memory
/// change): the story returns exactly to the state before it. A scene the agent wrote is
/// undone with Rewind instead, which keeps it on a branch.
pub fn undo(novel: &mut Novel) -> Result<Undone, ShapeError> {
    let root = novel.root().to_path_buf();
    let before = novel.state()?.current_tick;
    let store = novel.store_mut().ok_or(ShapeError::ReadOnly)?;
    let tx = store.transaction()?;
    let head = store::head(&tx)?;
    let seq = head.head.ok_or(ShapeError::NothingToUndo)?;
    let change = store::get_change(&tx, seq)?;
    match change.kind {
        ChangeKind::Edit => {}
        ChangeKind::Tick => {
            return Err(ShapeError::NotYours {
                label: change.label,
            });
        }
        ChangeKind::Seed => return Err(ShapeError::NothingToUndo),
    }
    let report = branches::reset_branch(&tx, change.parent)?;
    tx.commit().map_err(StoreError::from)?;
    let after = novel.state()?.current_tick;
    let first = report.ticks.iter().next().copied().unwrap_or(after + 1);
    let mut ticks: std::collections::BTreeSet<u32> = report.ticks.clone();
    ticks.extend(first..=before.max(after));
    files::mirror_ticks(&root, novel.store().conn(), ticks)?;
    novel.write_foundation_file()?;
    Ok(Undone {
        label: change.label,
        scenes: after,
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_split;
#[cfg(test)]
mod tests_written;
