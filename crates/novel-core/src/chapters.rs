//! The writer shaping the book into chapters and parts: renaming a chapter, splitting one
//! before a scene, merging one with the next, opening a part at a chapter, and fixing the
//! proposed grouping of the scenes no chapter holds yet. Chapters are story state (see
//! `store::chapters`), so each edit is one recorded change — undone by a rewind like any
//! other — and the proposals it touches are stored as they stand first.

use crate::clock::{Clock, timestamp};
use crate::novel::{Novel, NovelError};
use crate::store::{
    self, ChangeKind, ChapterRow, ChapterSpan, StoreError, TitledBy, proposed_title,
};
use crate::text::clean_line;
use crate::views::{self, ChapterView};

/// The longest chapter or part title kept, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

#[derive(Debug, thiserror::Error)]
pub enum ChapterError {
    #[error("there is no chapter {number}: the book has {count} (see `novel chapter list`)")]
    NoSuchChapter { number: u32, count: u32 },
    #[error("a chapter needs a title; write a few words")]
    EmptyTitle,
    #[error(
        "chapter {number} holds scenes {first}–{last}; split it before one of scenes {}–{last}",
        first + 1
    )]
    BadSplit { number: u32, first: u32, last: u32 },
    #[error("chapter {number} holds a single scene and cannot be split")]
    SingleScene { number: u32 },
    #[error("chapter {number} is the last one; there is no next chapter to merge it with")]
    NothingToMerge { number: u32 },
    #[error("a chapter needs at least one scene (asked for chapters of {every})")]
    BadSize { every: u32 },
    #[error(transparent)]
    Novel(#[from] NovelError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The book's chapters, stored and proposed, with their scenes.
pub fn list(novel: &Novel) -> Result<Vec<ChapterView>, ChapterError> {
    Ok(views::contents(novel.store().conn())?)
}

/// Gives chapter `number` the writer's title.
pub fn rename(
    novel: &mut Novel,
    number: u32,
    title: &str,
    clock: &dyn Clock,
) -> Result<ChapterView, ChapterError> {
    let title = clean_title(title).ok_or(ChapterError::EmptyTitle)?;
    reshape(
        novel,
        &format!("chapter {number} renamed"),
        clock,
        |spans| {
            let at = index_of(spans, number)?;
            spans[at].title = title;
            spans[at].titled_by = Some(TitledBy::Writer);
            Ok(number)
        },
    )
}

/// Opens a part at chapter `number` with the heading `title`; `None` removes the part
/// heading there.
pub fn set_part(
    novel: &mut Novel,
    number: u32,
    title: Option<&str>,
    clock: &dyn Clock,
) -> Result<ChapterView, ChapterError> {
    let part = match title {
        Some(t) => Some(clean_title(t).ok_or(ChapterError::EmptyTitle)?),
        None => None,
    };
    let label = match &part {
        Some(_) => format!("part opened at chapter {number}"),
        None => format!("part heading removed from chapter {number}"),
    };
    reshape(novel, &label, clock, |spans| {
        let at = index_of(spans, number)?;
        spans[at].part_title = part;
        Ok(number)
    })
}

/// Splits chapter `number` before the scene of `at_tick`: the scenes from there on become a
/// new chapter, with a title proposed from their gist.
pub fn split(
    novel: &mut Novel,
    number: u32,
    at_tick: u32,
    clock: &dyn Clock,
) -> Result<ChapterView, ChapterError> {
    let scenes = store::list_scenes(novel.store().conn())?;
    reshape(
        novel,
        &format!("chapter {number} split at scene {at_tick}"),
        clock,
        |spans| {
            let at = index_of(spans, number)?;
            let span = spans[at].clone();
            if span.first_tick == span.last_tick {
                return Err(ChapterError::SingleScene { number });
            }
            if at_tick <= span.first_tick || at_tick > span.last_tick {
                return Err(ChapterError::BadSplit {
                    number,
                    first: span.first_tick,
                    last: span.last_tick,
                });
            }
            let tail: Vec<_> = scenes
                .iter()
                .filter(|s| (at_tick..=span.last_tick).contains(&s.tick))
                .cloned()
                .collect();
            let new = ChapterSpan {
                number: number + 1,
                first_tick: at_tick,
                last_tick: span.last_tick,
                nominal_last_tick: span.nominal_last_tick,
                title: proposed_title(&tail).unwrap_or_else(|| format!("Chapter {}", number + 1)),
                part_title: None,
                titled_by: Some(TitledBy::Proposal),
            };
            let head = &mut spans[at];
            head.last_tick = at_tick - 1;
            head.nominal_last_tick = at_tick - 1;
            head.titled_by.get_or_insert(TitledBy::Proposal);
            spans.insert(at + 1, new);
            Ok(number + 1)
        },
    )
}

/// Merges chapter `number` with the one after it; the merged chapter keeps the first one's
/// title and part heading.
pub fn merge(
    novel: &mut Novel,
    number: u32,
    clock: &dyn Clock,
) -> Result<ChapterView, ChapterError> {
    reshape(
        novel,
        &format!("chapters {number} and {} merged", number + 1),
        clock,
        |spans| {
            let at = index_of(spans, number)?;
            if at + 1 >= spans.len() {
                return Err(ChapterError::NothingToMerge { number });
            }
            let next = spans.remove(at + 1);
            let head = &mut spans[at];
            head.last_tick = next.last_tick;
            head.nominal_last_tick = next.nominal_last_tick;
            head.titled_by.get_or_insert(TitledBy::Proposal);
            Ok(number)
        },
    )
}

/// Stores the scenes no chapter holds yet as chapters of `every` scenes, titled from their
/// gist (the writer may then rename, split or merge them). Returns the book's chapters.
pub fn propose(
    novel: &mut Novel,
    every: u32,
    clock: &dyn Clock,
) -> Result<Vec<ChapterView>, ChapterError> {
    if every == 0 {
        return Err(ChapterError::BadSize { every });
    }
    let scenes = store::list_scenes(novel.store().conn())?;
    let rows = store::list_chapters(novel.store().conn())?;
    let latest = scenes.last().map_or(0, |s| s.tick);
    let mut first = rows.last().map_or(1, |r| r.last_tick + 1);
    let mut new_rows = rows;
    while first <= latest {
        let last = first + every - 1;
        let members: Vec<_> = scenes
            .iter()
            .filter(|s| (first..=last).contains(&s.tick))
            .cloned()
            .collect();
        new_rows.push(ChapterRow {
            first_tick: first,
            last_tick: last,
            title: proposed_title(&members).unwrap_or_else(|| format!("Scenes {first}–{last}")),
            part_title: None,
            titled_by: TitledBy::Proposal,
        });
        first = last + 1;
    }
    save_rows(
        novel,
        &format!("chapters proposed every {every} scenes"),
        clock,
        &new_rows,
    )?;
    list(novel)
}

/// Applies `edit` to the book's chapters (proposals included) and stores the result as one
/// recorded change; returns the chapter numbered by `edit`'s answer.
fn reshape(
    novel: &mut Novel,
    label: &str,
    clock: &dyn Clock,
    edit: impl FnOnce(&mut Vec<ChapterSpan>) -> Result<u32, ChapterError>,
) -> Result<ChapterView, ChapterError> {
    let conn = novel.store().conn();
    let scenes = store::list_scenes(conn)?;
    let stored = store::list_chapters(conn)?;
    let mut spans = store::chapter_spans(&stored, &scenes);
    let shown = edit(&mut spans)?;
    // Every chapter that holds a scene is stored as it stands; rows left holding none (after
    // a rewind) go, and the recorded change keeps them for a move back.
    let rows: Vec<ChapterRow> = spans.iter().map(ChapterSpan::to_row).collect();
    save_rows(novel, label, clock, &rows)?;
    list(novel)?
        .into_iter()
        .find(|c| c.number == shown)
        .ok_or(ChapterError::NoSuchChapter {
            number: shown,
            count: 0,
        })
}

fn save_rows(
    novel: &mut Novel,
    label: &str,
    clock: &dyn Clock,
    rows: &[ChapterRow],
) -> Result<(), ChapterError> {
    let root = novel.root().to_path_buf();
    let tick = novel.state()?.current_tick;
    let store = novel
        .store_mut()
        .ok_or(NovelError::ReadOnly { path: root })?;
    store.recorded(
        ChangeKind::Edit,
        tick,
        label,
        &timestamp(clock.now()),
        |tx| store::set_chapters(tx, rows).map_err(ChapterError::from),
        |_, _, _| Ok(()),
    )
}

fn index_of(spans: &[ChapterSpan], number: u32) -> Result<usize, ChapterError> {
    spans
        .iter()
        .position(|s| s.number == number)
        .ok_or(ChapterError::NoSuchChapter {
            number,
            count: spans.len() as u32,
        })
}

/// A title on one clean line, within [`MAX_TITLE_CHARS`]; `None` when nothing is left.
fn clean_title(title: &str) -> Option<String> {
    let line = clean_line(title);
    let line = line.trim();
    (!line.is_empty()).then(|| line.chars().take(MAX_TITLE_CHARS).collect())
}

#[cfg(test)]
mod tests;
