//! One shaping change as the story records it: the book edited, committed as one recorded
//! change with a new version of every scene whose text changed (the writer's or the agent's),
//! the files following, and the answer ([`Shaped`]) naming the scene to show and the scenes
//! to re-read.

use serde::Serialize;

use super::book::Book;
use super::error::ShapeError;
use crate::clock::{Clock, timestamp};
use crate::files;
use crate::model::Scene;
use crate::novel::Novel;
use crate::store::{self, ChangeKind, HistoryEntry, NewVersion, VersionOrigin};

/// What a shaping change did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shaped {
    /// What the change was, in the writer's words ("scene 3 added").
    pub label: String,
    /// The scene to show afterwards (its number now), if one is left.
    pub scene: Option<u32>,
    /// Scenes whose text is new to the memory: re-reading them proposes its changes and flags
    /// the later scenes that disagree.
    pub reread: Vec<u32>,
    /// How many scenes the book has now.
    pub scenes: u32,
}

/// Runs `edit` on the book and commits the result as one recorded change named `label`;
/// `focus` picks the scene (by id) to report, `new_text` the scenes (by id, or the new ones)
/// whose text changed. Then the files follow.
pub(super) fn reshape(
    novel: &mut Novel,
    label: &str,
    clock: &dyn Clock,
    edit: impl FnOnce(&mut Book) -> Result<Focus, ShapeError>,
) -> Result<Shaped, ShapeError> {
    reshape_by(novel, label, clock, Author::Writer, edit)
}

/// Whose text a shaping change brings in.
#[derive(Clone, Copy)]
pub(super) enum Author<'r> {
    /// The writer's own hand.
    Writer,
    /// The agent, from the writer's note: the new scene keeps `record` (its plan — the note —,
    /// findings and usage) as its tick record, which says where it came from, and `draft`, the
    /// first draft a revision replaced, as its earlier version (as a tick keeps it).
    Agent {
        record: &'r crate::model::TickRecord,
        draft: Option<&'r str>,
    },
}

impl Author<'_> {
    fn origin(&self) -> VersionOrigin {
        match self {
            Author::Writer => VersionOrigin::Edit,
            // The agent's text; its record's plan says it came from a note.
            Author::Agent { .. } => VersionOrigin::Revision,
        }
    }
}

/// [`reshape`], with the new text from `author`.
pub(super) fn reshape_by(
    novel: &mut Novel,
    label: &str,
    clock: &dyn Clock,
    author: Author<'_>,
    edit: impl FnOnce(&mut Book) -> Result<Focus, ShapeError>,
) -> Result<Shaped, ShapeError> {
    let now = timestamp(clock.now());
    let root = novel.root().to_path_buf();
    let mut book = Book::read(novel.store().conn())?;
    let focus = edit(&mut book)?;
    let label = focus.label.clone().unwrap_or_else(|| label.to_string());
    let label = label.as_str();
    let store = novel.store_mut().ok_or(ShapeError::ReadOnly)?;
    let tick = store::load_state(store.conn())?.current_tick;
    let committed = store.recorded(
        ChangeKind::Edit,
        tick,
        label,
        &now,
        |tx| {
            let committed = book.commit(tx, &now)?;
            let scenes = store::list_scenes(tx)?;
            let (by, source) = match author {
                Author::Writer => ("by the writer", "user"),
                Author::Agent { .. } => ("by the agent", "agent"),
            };
            for scene in scenes.iter().filter(|s| focus.is_text(&book, s)) {
                store::append_history(
                    tx,
                    &HistoryEntry {
                        entity_id: scene.id.clone(),
                        tick: committed.after,
                        field: "prose".into(),
                        change: format!("{label} {by} at {now}"),
                        old_value: None,
                        new_value: None,
                        flagged: false,
                        source: source.into(),
                    },
                )?;
                if let Author::Agent { record, .. } = author {
                    store::insert_tick(
                        tx,
                        &crate::model::TickRecord {
                            tick: scene.tick,
                            ..record.clone()
                        },
                    )?;
                }
            }
            Ok::<_, ShapeError>((committed, scenes))
        },
        |tx, (_, scenes), seq| {
            let branch = store::head(tx)?.branch_name;
            for scene in scenes.iter().filter(|s| focus.is_text(&book, s)) {
                // The draft the revision replaced comes first and was never the scene's text:
                // no change made it (as `tick::committing` records a tick's).
                if let Author::Agent {
                    draft: Some(draft), ..
                } = author
                {
                    store::insert_version(
                        tx,
                        &NewVersion {
                            tick: scene.tick,
                            branch: &branch,
                            origin: VersionOrigin::Draft,
                            title: &scene.title,
                            prose: draft,
                            words: crate::model::count_words(draft),
                            change_seq: None,
                            created_at: &now,
                        },
                    )?;
                }
                store::insert_version(
                    tx,
                    &NewVersion {
                        tick: scene.tick,
                        branch: &branch,
                        origin: author.origin(),
                        title: &scene.title,
                        prose: &scene.prose,
                        words: scene.word_count,
                        change_seq: seq,
                        created_at: &now,
                    },
                )?;
            }
            Ok(())
        },
    )?;
    let (committed, scenes) = committed;
    if let Some(first) = committed.first_changed {
        let last = committed.before.max(committed.after);
        files::mirror_ticks(&root, novel.store().conn(), first..=last)?;
    }
    let reread: Vec<u32> = scenes
        .iter()
        .filter(|s| focus.is_text(&book, s))
        .map(|s| s.tick)
        .collect();
    let shown = match &focus.show {
        Show::Id(id) => scenes.iter().find(|s| &s.id == id).map(|s| s.tick),
        Show::NewScene => scenes
            .iter()
            .find(|s| !book.scenes.iter().any(|old| old.id == s.id))
            .map(|s| s.tick),
        Show::Place(tick) => (*tick <= scenes.len() as u32 && *tick > 0)
            .then_some(*tick)
            .or(scenes.last().map(|s| s.tick)),
    };
    Ok(Shaped {
        label: label.to_string(),
        scene: shown,
        reread,
        scenes: scenes.len() as u32,
    })
}

/// Which scene an operation shows afterwards and which scenes' text it changed.
pub(super) struct Focus {
    pub(super) show: Show,
    /// The change's name when it depends on where the scene landed.
    pub(super) label: Option<String>,
    /// Existing scenes (by id) whose text changed; new scenes always count.
    pub(super) text: Vec<String>,
}

pub(super) enum Show {
    Id(String),
    NewScene,
    Place(u32),
}

impl Focus {
    pub(super) fn is_text(&self, book: &Book, scene: &Scene) -> bool {
        self.text.contains(&scene.id) || !book.scenes.iter().any(|old| old.id == scene.id)
    }
}
