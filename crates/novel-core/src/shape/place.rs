//! Places in the book: where a scene goes ([`Place`]), finding a scene's chapter and its place
//! in the whole book, and putting a scene in or taking it out, as every operation does.

use serde::Serialize;

use super::book::{Book, Chapter, Slot};
use super::error::ShapeError;

/// Where a scene goes.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "at")]
pub enum Place {
    /// Just before scene N (as numbered before the change), in N's chapter.
    Before(u32),
    /// At the end of chapter N (the end of the book for the last chapter).
    EndOfChapter(u32),
}

pub(super) fn no_scene(book: &Book, tick: u32) -> ShapeError {
    ShapeError::NoSuchScene {
        tick,
        count: book.scenes.len() as u32,
    }
}

pub(super) fn chapter_index(book: &Book, number: u32) -> Result<usize, ShapeError> {
    let at = number as usize;
    if at == 0 || at > book.chapters.len() {
        return Err(ShapeError::NoSuchChapter {
            number,
            count: book.chapters.len() as u32,
        });
    }
    Ok(at - 1)
}

/// Puts `slot` at `place` (numbers as the book was read).
pub(super) fn put(book: &mut Book, place: Place, slot: Slot) -> Result<(), ShapeError> {
    match place {
        Place::Before(tick) => {
            let (c, i) = book.locate(tick).ok_or_else(|| no_scene(book, tick))?;
            book.chapters[c].slots.insert(i, slot);
        }
        // A book with no scene has no chapter yet: its first scene opens chapter 1.
        Place::EndOfChapter(1) if book.chapters.is_empty() => book.chapters.push(Chapter {
            title: "Chapter 1".into(),
            part_title: None,
            titled_by: crate::store::TitledBy::Proposal,
            slots: vec![slot],
            room: crate::store::PROPOSED_CHAPTER_SCENES - 1,
        }),
        Place::EndOfChapter(number) => {
            let c = chapter_index(book, number)?;
            book.chapters[c].slots.push(slot);
        }
    }
    Ok(())
}

/// Takes the scene of `tick` out of the book (numbers as read).
pub(super) fn take(book: &mut Book, tick: u32) -> Result<Slot, ShapeError> {
    let (c, i) = book.locate(tick).ok_or_else(|| no_scene(book, tick))?;
    Ok(book.chapters[c].slots.remove(i))
}

/// The place in the whole book (0-based) of the first slot `f` picks.
pub(super) fn flat_index(book: &Book, f: impl Fn(&Slot) -> bool) -> usize {
    book.chapters
        .iter()
        .flat_map(|c| &c.slots)
        .position(f)
        .unwrap_or(0)
}

/// (chapter index, place in the book) of the scene `id`.
pub(super) fn whereabouts(book: &Book, id: &str) -> Option<(usize, usize)> {
    let c = book.chapters.iter().position(|ch| {
        ch.slots
            .iter()
            .any(|s| matches!(s, Slot::Kept(k) if k == id))
    })?;
    Some((
        c,
        flat_index(book, |s| matches!(s, Slot::Kept(k) if k == id)),
    ))
}
