//! Everything the audit reads, loaded once from the store: the scenes of the range with their
//! tick records, verdicts and failures, and the records and their whole history. Every
//! criterion works on this in memory, so the audit costs a handful of queries however many
//! scenes there are.

use std::collections::{BTreeMap, HashMap};

use rusqlite::Connection;

use super::report::SceneRef;
use super::words;
use crate::model::{Beat, Character, Location, OpenLoop, Relationship, Scene, TickRecord};
use crate::store::{self, ChapterSpan, HistoryEntry, StoreError, StoredVerdict};

/// The scenes to audit and the memory around them.
pub struct Book {
    pub branch: String,
    /// The audited scenes, in order.
    pub scenes: Vec<Scene>,
    /// Lower-cased word lists of each audited scene's prose, by position in `scenes`.
    pub words: Vec<Vec<String>>,
    pub ticks: HashMap<u32, TickRecord>,
    pub verdicts: BTreeMap<u32, StoredVerdict>,
    /// Ticks of scenes adopted from an imported manuscript (they had no plan).
    pub imported: std::collections::HashSet<u32>,
    /// Failed attempts per tick.
    pub failures: HashMap<u32, u32>,
    pub characters: Vec<Character>,
    pub locations: Vec<Location>,
    pub relationships: Vec<Relationship>,
    pub loops: Vec<OpenLoop>,
    pub beats: Vec<Beat>,
    pub chapters: Vec<ChapterSpan>,
    pub history: Vec<HistoryEntry>,
    /// Scene summary vectors by tick (empty without an embedding model).
    pub vectors: Vec<(u32, Vec<f32>)>,
    pub from: u32,
    pub to: u32,
}

impl Book {
    /// Loads scenes `from..=to` (the whole book when `None`) and the memory.
    pub fn load(conn: &Connection, from: Option<u32>, to: Option<u32>) -> Result<Book, StoreError> {
        let all = store::list_scenes(conn)?;
        let chapters = store::book_chapters(conn, &all)?;
        let from = from.unwrap_or(1);
        let to = to.unwrap_or(u32::MAX);
        let scenes: Vec<Scene> = all
            .into_iter()
            .filter(|s| s.tick >= from && s.tick <= to)
            .collect();
        let (from, to) = match (scenes.first(), scenes.last()) {
            (Some(a), Some(b)) => (a.tick, b.tick),
            _ => (from, from),
        };
        let ticks = store::list_ticks(conn)?
            .into_iter()
            .map(|t| (t.tick, t))
            .collect();
        let mut failures: HashMap<u32, u32> = HashMap::new();
        for f in store::list_failures(conn)? {
            *failures.entry(f.tick).or_default() += 1;
        }
        let words = scenes.iter().map(|s| words::words(&s.prose)).collect();
        Ok(Book {
            branch: store::head(conn)?.branch_name,
            scenes,
            words,
            ticks,
            verdicts: store::list_verdicts(conn)?,
            imported: store::import_scenes(conn)?
                .into_iter()
                .filter_map(|s| s.tick)
                .collect(),
            failures,
            characters: store::list_characters(conn)?,
            locations: store::list_locations(conn)?,
            relationships: store::list_relationships(conn, None)?,
            loops: store::list_loops(conn, None)?,
            beats: store::list_beats(conn)?,
            chapters,
            history: store::all_history(conn)?,
            vectors: store::scene_summary_vectors(conn)?,
            from,
            to,
        })
    }

    /// The scene of `tick` as the report names it.
    pub fn scene_ref(&self, tick: u32) -> SceneRef {
        let title = self
            .scenes
            .iter()
            .find(|s| s.tick == tick)
            .map(|s| s.title.clone())
            .unwrap_or_default();
        SceneRef { scene: tick, title }
    }

    pub fn in_range(&self, tick: u32) -> bool {
        tick >= self.from && tick <= self.to
    }

    /// A character's name, or the id when the record is gone.
    pub fn name_of(&self, id: &str) -> String {
        self.characters
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.name.clone())
            .or_else(|| {
                self.locations
                    .iter()
                    .find(|l| l.id == id)
                    .map(|l| l.name.clone())
            })
            .unwrap_or_else(|| id.to_string())
    }

    /// Ticks (in range) of the scenes a character is in: the point of view, or named in the
    /// prose by their first name, full name or an alias.
    pub fn appearances(&self, c: &Character) -> Vec<u32> {
        let mut names: Vec<String> = std::iter::once(c.name.clone())
            .chain(c.aliases.iter().cloned())
            .chain(c.name.split_whitespace().next().map(str::to_string))
            .filter(|n| n.chars().count() >= 3)
            .collect();
        names.sort();
        names.dedup();
        self.scenes
            .iter()
            .filter(|s| {
                s.pov_character.as_deref() == Some(&c.id)
                    || names.iter().any(|n| s.prose.contains(n.as_str()))
            })
            .map(|s| s.tick)
            .collect()
    }
}
