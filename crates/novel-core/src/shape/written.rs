//! The agent writing one scene at a place the writer chose, from the writer's note (issue 27:
//! "ask the agent to write *this* scene here"). The scene is written and checked as the book
//! stands just before the place (`tick::write_placed`), then goes in like a scene the writer
//! added: one recorded change (undone with `undo`), the scenes after it renumbered, its files
//! written, and its memory proposed by a re-read rather than applied — the memory describes
//! the end of the book, and a scene in the middle must not move it on as if it came last. The
//! scene keeps the note as its plan and the checks' findings as its record (and, when the
//! checks asked for the revision, its first draft as an earlier version, as a tick does); that
//! plan says the agent wrote it from a note, which is why "Write scene N again" refuses it
//! (`control::again`). A failed call leaves the book as it was.

use super::book::{Book, NewScene, Slot};
use super::clean::{clean_title, first_sentence};
use super::error::ShapeError;
use super::place::{Place, flat_index, put};
use super::reshape::{Author, Focus, Shaped, Show, reshape_by};
use crate::clock::Clock;
use crate::novel::Novel;
use crate::text::strip_controls;
use crate::tick::{self, CancelToken, Models, PlacedBrief, TickObserver};

/// Words of the note a scene is titled with when the writer gives no title.
const TITLE_WORDS: usize = 10;

/// Asks the agent for a scene at `place` doing what `note` says, titled `title` (else from the
/// note), and puts it in the book. Returns the change as [`super::add_scene`] does: the scene's
/// number, and that number to re-read.
#[allow(clippy::too_many_arguments)]
pub async fn write_scene(
    novel: &mut Novel,
    models: &Models,
    place: Place,
    note: &str,
    title: Option<&str>,
    observer: &dyn TickObserver,
    cancel: &CancelToken,
    clock: &dyn Clock,
) -> Result<Shaped, ShapeError> {
    let note = strip_controls(note).trim().to_string();
    if note.is_empty() {
        return Err(ShapeError::EmptyNote);
    }
    let title = match title.filter(|t| !t.trim().is_empty()) {
        Some(t) => clean_title(t).ok_or(ShapeError::EmptyTitle)?,
        None => title_of(&note),
    };
    if !novel.is_writable() {
        return Err(ShapeError::ReadOnly);
    }
    // Where the scene lands, and its neighbours, before anything is asked of the model.
    let book = Book::read(novel.store().conn())?;
    let mut planned = book.clone();
    put(&mut planned, place, Slot::New(NewScene::default()))?;
    let at = flat_index(&planned, |s| matches!(s, Slot::New(_))) as u32 + 1;
    let previous = at.checked_sub(1).and_then(|t| book.scene(t));
    let next = book.scene(at);
    let neighbour = previous.or(next);
    let brief = PlacedBrief {
        note,
        pov: neighbour.and_then(|s| s.pov_character.clone()),
        location: previous.and_then(|s| s.location.clone()),
        next: next.map(|s| {
            s.summary
                .first()
                .cloned()
                .unwrap_or_else(|| first_sentence(&s.prose))
        }),
    };
    let placed = tick::write_placed(novel, models, at, &brief, observer, cancel, clock).await?;
    // A cancel wins up to the moment the scene goes in, as a tick's does up to its commit: one
    // that came while the last step finished is not lost in the race.
    if cancel.is_cancelled() {
        return Err(tick::TickError::Cancelled { tick: at }.into());
    }
    let summary = vec![first_sentence(&placed.prose)];
    let record = placed.record.clone();
    reshape_by(
        novel,
        "a scene written from your note",
        clock,
        Author::Agent {
            record: &record,
            draft: placed.draft.as_deref(),
        },
        |book| {
            let new = NewScene {
                title,
                prose: placed.prose,
                summary,
                pov_character: placed.pov,
                location: placed.location,
                tension: None,
            };
            put(book, place, Slot::New(new))?;
            Ok(Focus {
                show: Show::NewScene,
                label: Some(format!(
                    "scene {} written from your note",
                    flat_index(book, |s| matches!(s, Slot::New(_))) + 1
                )),
                text: Vec::new(),
            })
        },
    )
}

/// A title from the note's first sentence, its first few words.
fn title_of(note: &str) -> String {
    let first = first_sentence(note);
    let words: Vec<&str> = first
        .trim_end_matches(['.', '!', '?'])
        .split_whitespace()
        .take(TITLE_WORDS)
        .collect();
    clean_title(&words.join(" ")).unwrap_or_else(|| "A new scene".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_is_titled_from_its_note() {
        assert_eq!(
            title_of("Mara finds the letter in the lighthouse. She burns it."),
            "Mara finds the letter in the lighthouse"
        );
        assert_eq!(
            title_of("one two three four five six seven eight nine ten eleven twelve"),
            "one two three four five six seven eight nine ten"
        );
    }
}
