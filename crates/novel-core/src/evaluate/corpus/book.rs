//! A corpus of real prose for measuring the checks, as it lies on disk (the format is described
//! in the corpus's own `FORMAT.md`): one folder per book with `book.toml` (the settings and
//! cast a user would enter for that book, its chunks and the author's own known breaks of
//! point of view) and `labelled.toml` (sentences labelled with the check families that must
//! fire). Loading validates what a measurement relies on — every chunk file read, every
//! character id known, every known quote found in its chunk — so a broken corpus says what to
//! fix instead of skewing the figures.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::{PointOfView, Tense};
use crate::model::{Character, Location};

#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid corpus file: {message}")]
    Format { path: PathBuf, message: String },
    #[error("{0} holds no book (a folder with a book.toml); see the corpus's FORMAT.md")]
    Empty(PathBuf),
}

/// How a book is narrated. `Omniscient` is read as close third, for contrast only: its
/// narrator may enter every mind, so its figures are shown and never held to a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Narration {
    First,
    Third,
    Omniscient,
}

impl Narration {
    /// The novel setting a user would choose for a book told this way.
    pub fn point_of_view(self) -> PointOfView {
        match self {
            Narration::First => PointOfView::First,
            Narration::Third | Narration::Omniscient => PointOfView::DeepThird,
        }
    }
}

/// A book's narration and tense: the rows of the false-alarm table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Mode {
    pub narration: Narration,
    pub tense: Tense,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let person = match self.narration {
            Narration::First => "first person",
            Narration::Third => "close third",
            Narration::Omniscient => "omniscient",
        };
        let tense = match self.tense {
            Tense::Past => "past",
            Tense::Present => "present",
        };
        write!(f, "{person}, {tense}")
    }
}

/// The check families the labelled sentences are scored by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Narrator knowledge: what the POV character cannot know, foreshadowing.
    Leak,
    /// Another character's mind stated as fact (a head-hop).
    Mind,
    Tense,
    Person,
}

impl Family {
    pub const ALL: [Family; 4] = [Family::Leak, Family::Mind, Family::Tense, Family::Person];

    pub fn name(self) -> &'static str {
        match self {
            Family::Leak => "leak",
            Family::Mind => "mind",
            Family::Tense => "tense",
            Family::Person => "person",
        }
    }
}

/// Which part of the labelled set an item is in: looked at while tuning the checks, or kept
/// out of tuning and measured once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    Tune,
    Held,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Book {
    /// The folder's name.
    pub id: String,
    pub title: String,
    pub author: String,
    /// Where the text comes from and why it may be used (public domain).
    pub source: String,
    pub mode: Mode,
    /// The POV character of every chunk that does not say otherwise.
    pub narrator: String,
    pub characters: Vec<Character>,
    pub locations: Vec<Location>,
    pub chunks: Vec<Chunk>,
    pub known: Vec<Known>,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub file: String,
    pub section: String,
    pub pov_character: String,
    pub location: Option<String>,
    /// A deliberate shift of the author's away from the book's point of view, and why.
    pub shift: Option<String>,
    pub text: String,
}

/// A real break of limited point of view the author made inside a chunk.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Known {
    pub file: String,
    pub quote: String,
    pub check: Family,
    #[serde(default)]
    pub why: String,
}

impl Known {
    /// Whether `sentence` of chunk `file` is this break (the sentence holds the quote, or the
    /// quote spans more than the sentence).
    pub fn covers(&self, file: &str, sentence: &str) -> bool {
        self.file == file && (sentence.contains(&self.quote) || self.quote.contains(sentence.trim()))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    pub part: Part,
    pub origin: String,
    pub pov_character: String,
    pub expect: BTreeSet<Family>,
    pub text: String,
    /// Why the item is labelled as it is.
    pub note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BookFile {
    title: String,
    #[serde(default)]
    author: String,
    #[serde(default)]
    translator: String,
    #[serde(default)]
    source: String,
    pov: Narration,
    tense: Tense,
    narrator: String,
    #[serde(default)]
    character: Vec<CastFile>,
    #[serde(default)]
    location: Vec<PlaceFile>,
    #[serde(default)]
    chunk: Vec<ChunkFile>,
    #[serde(default)]
    known: Vec<Known>,
}

#[derive(Deserialize)]
struct CastFile {
    id: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    pronouns: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    location: Option<String>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Deserialize)]
struct PlaceFile {
    id: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    connections: Vec<String>,
}

#[derive(Deserialize)]
struct ChunkFile {
    file: String,
    #[serde(default)]
    section: String,
    #[serde(default)]
    pov_character: Option<String>,
    #[serde(default)]
    location: Option<String>,
    #[serde(default)]
    shift: Option<String>,
}

#[derive(Deserialize, Default)]
struct LabelledFile {
    #[serde(default)]
    item: Vec<ItemFile>,
}

#[derive(Deserialize)]
struct ItemFile {
    id: String,
    set: Part,
    #[serde(default)]
    origin: String,
    #[serde(default)]
    pov_character: Option<String>,
    expect: BTreeSet<Family>,
    text: String,
    #[serde(default)]
    note: String,
}

fn read(path: &Path) -> Result<String, CorpusError> {
    std::fs::read_to_string(path).map_err(|source| CorpusError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn format_error(path: &Path, message: impl fmt::Display) -> CorpusError {
    CorpusError::Format {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

/// Every book under `dir` (each sub-folder holding a `book.toml`), in folder-name order.
pub fn load_corpus(dir: &Path) -> Result<Vec<Book>, CorpusError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CorpusError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("book.toml").is_file())
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(CorpusError::Empty(dir.to_path_buf()));
    }
    folders.iter().map(|f| load_book(f)).collect()
}

/// One book folder.
pub fn load_book(folder: &Path) -> Result<Book, CorpusError> {
    let path = folder.join("book.toml");
    let file: BookFile = toml::from_str(&read(&path)?).map_err(|e| format_error(&path, e))?;
    let id = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let characters: Vec<Character> = file.character.iter().map(character).collect();
    let known_id = |who: &str| characters.iter().any(|c| c.id == who);
    if !known_id(&file.narrator) {
        return Err(format_error(
            &path,
            format!("narrator {} is not one of its characters", file.narrator),
        ));
    }
    let mut chunks = Vec::new();
    for c in &file.chunk {
        let pov_character = c.pov_character.clone().unwrap_or(file.narrator.clone());
        if !known_id(&pov_character) {
            return Err(format_error(
                &path,
                format!("chunk {}: no character {pov_character}", c.file),
            ));
        }
        chunks.push(Chunk {
            file: c.file.clone(),
            section: c.section.clone(),
            pov_character,
            location: c.location.clone(),
            shift: c.shift.clone(),
            text: read(&folder.join(&c.file))?,
        });
    }
    for k in &file.known {
        let found = chunks
            .iter()
            .find(|c| c.file == k.file)
            .is_some_and(|c| c.text.contains(&k.quote));
        if !found {
            return Err(format_error(
                &path,
                format!(
                    "known break not found verbatim in {}: {:?}",
                    k.file, k.quote
                ),
            ));
        }
    }
    let items = load_items(&folder.join("labelled.toml"), &file.narrator, &known_id)?;
    Ok(Book {
        id,
        title: file.title,
        author: if file.translator.is_empty() {
            file.author
        } else {
            format!("{} (translated by {})", file.author, file.translator)
        },
        source: file.source,
        mode: Mode {
            narration: file.pov,
            tense: file.tense,
        },
        narrator: file.narrator,
        locations: file.location.iter().map(location).collect(),
        characters,
        chunks,
        known: file.known,
        items,
    })
}

fn load_items(
    path: &Path,
    narrator: &str,
    known_id: &dyn Fn(&str) -> bool,
) -> Result<Vec<Item>, CorpusError> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let file: LabelledFile = toml::from_str(&read(path)?).map_err(|e| format_error(path, e))?;
    let mut items = Vec::new();
    for i in file.item {
        let pov_character = i.pov_character.unwrap_or(narrator.to_string());
        if !known_id(&pov_character) {
            return Err(format_error(
                path,
                format!("item {}: no character {pov_character}", i.id),
            ));
        }
        items.push(Item {
            id: i.id,
            part: i.set,
            origin: i.origin,
            pov_character,
            expect: i.expect,
            text: i.text,
            note: i.note,
        });
    }
    Ok(items)
}

/// A cast entry as the story memory would hold it after a user typed it in.
fn character(c: &CastFile) -> Character {
    let mut facts = std::collections::BTreeMap::new();
    if !c.pronouns.trim().is_empty() {
        facts.insert("pronouns".to_string(), c.pronouns.trim().to_string());
    }
    Character {
        id: c.id.clone(),
        name: c.name.clone(),
        aliases: c.aliases.clone(),
        description: c.description.clone(),
        last_location: c.location.clone(),
        status: match c.status.as_deref() {
            Some("dead") => crate::model::LifeStatus::Dead,
            _ => crate::model::LifeStatus::Alive,
        },
        facts,
        first_tick: 1,
        last_update_tick: 1,
        ..Character::default()
    }
}

fn location(l: &PlaceFile) -> Location {
    Location {
        id: l.id.clone(),
        name: l.name.clone(),
        aliases: l.aliases.clone(),
        description: String::new(),
        sensory: Vec::new(),
        threats: Vec::new(),
        inhabitants: Vec::new(),
        tension_level: 2,
        connections: l.connections.clone(),
        facts: std::collections::BTreeMap::new(),
        first_tick: 1,
        last_update_tick: 1,
    }
}
