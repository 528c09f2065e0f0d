//! Passages: what the search index and the vectors are made of. A record (character, place,
//! relationship, loop, lore entry) is one passage; a scene is its summary plus its prose in
//! groups of paragraphs, small enough that a match points at the lines that hold the fact.
//! Passages are replaced whole when their record changes; a passage whose text did not change
//! keeps its vector, so an edit costs embeddings only for what it touched.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;
use crate::ids::EntityKind;

/// Which part of its record a passage is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkPart {
    /// The whole record, for entities and lore.
    Record,
    /// A scene's summary bullets.
    Summary,
    /// A group of a scene's paragraphs.
    Prose,
}

impl ChunkPart {
    pub fn as_str(self) -> &'static str {
        match self {
            ChunkPart::Record => "record",
            ChunkPart::Summary => "summary",
            ChunkPart::Prose => "prose",
        }
    }

    pub fn parse(s: &str) -> Option<ChunkPart> {
        [ChunkPart::Record, ChunkPart::Summary, ChunkPart::Prose]
            .into_iter()
            .find(|p| p.as_str() == s)
    }
}

/// One passage to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChunk {
    pub part: ChunkPart,
    pub title: String,
    pub body: String,
}

/// A stored passage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub id: i64,
    pub entity_id: String,
    pub kind: EntityKind,
    pub part: ChunkPart,
    pub seq: u32,
    pub tick: Option<u32>,
    pub title: String,
    pub body: String,
}

impl Chunk {
    /// The text the embedder sees: prose stands alone; a record or summary reads better with
    /// its title ("Marcus Vell: mentor, …").
    pub fn embedding_text(&self) -> String {
        match self.part {
            ChunkPart::Prose => self.body.clone(),
            ChunkPart::Record | ChunkPart::Summary => format!("{}\n{}", self.title, self.body),
        }
    }
}

/// Which part of its record passage `id` is, and its text; `None` when it is gone.
pub fn chunk_part_and_body(conn: &Connection, id: i64) -> StoreResult<Option<(ChunkPart, String)>> {
    let row = conn
        .prepare_cached("SELECT part, body FROM search_chunks WHERE id = ?1")?
        .query_row([id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })
        .optional()?;
    Ok(row.and_then(|(part, body)| ChunkPart::parse(&part).map(|p| (p, body))))
}

/// Words a prose passage aims for: a paragraph, or a few short ones (dialogue). Passages stay
/// small because a sentence's meaning is averaged with everything else in its passage: one
/// fact among three paragraphs of other things is hard to find by meaning.
const PROSE_TARGET_WORDS: usize = 40;
/// Words a prose passage may not exceed (the embedder reads about 200 words at most).
const PROSE_MAX_WORDS: usize = 120;

/// Replaces the passages of `entity_id` in the given parts with `chunks` (numbered in order).
pub fn replace_chunks(
    tx: &Transaction<'_>,
    entity_id: &str,
    kind: EntityKind,
    tick: Option<u32>,
    parts: &[ChunkPart],
    chunks: &[NewChunk],
) -> StoreResult<()> {
    let mut kept_vectors: HashMap<(String, String), (String, i64, Vec<u8>)> = HashMap::new();
    for part in parts {
        let mut stmt = tx.prepare_cached(
            "SELECT c.title, c.body, v.model, v.dim, v.vector FROM search_chunks c
             JOIN search_vectors v ON v.chunk_id = c.id
             WHERE c.entity_id = ?1 AND c.part = ?2",
        )?;
        let rows = stmt.query_map(params![entity_id, part.as_str()], |r| {
            Ok(((r.get(0)?, r.get(1)?), (r.get(2)?, r.get(3)?, r.get(4)?)))
        })?;
        for row in rows {
            let (key, value) = row?;
            kept_vectors.insert(key, value);
        }
        tx.execute(
            "DELETE FROM search_chunks WHERE entity_id = ?1 AND part = ?2",
            params![entity_id, part.as_str()],
        )?;
    }
    let mut seqs: HashMap<ChunkPart, u32> = HashMap::new();
    for chunk in chunks {
        let seq = seqs.entry(chunk.part).or_insert(0);
        tx.execute(
            "INSERT INTO search_chunks (entity_id, kind, part, seq, tick, title, body)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                entity_id,
                kind.as_str(),
                chunk.part.as_str(),
                *seq,
                tick,
                chunk.title,
                chunk.body
            ],
        )?;
        *seq += 1;
        let key = (chunk.title.clone(), chunk.body.clone());
        if let Some((model, dim, vector)) = kept_vectors.get(&key) {
            tx.execute(
                "INSERT INTO search_vectors (chunk_id, model, dim, vector) VALUES (?1, ?2, ?3, ?4)",
                params![tx.last_insert_rowid(), model, dim, vector],
            )?;
        }
    }
    Ok(())
}

/// The `kind` column holds [`EntityKind::as_str`]; anything else is a corrupt row, refused.
impl rusqlite::types::FromSql for EntityKind {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let word = value.as_str()?;
        EntityKind::ALL
            .into_iter()
            .find(|k| k.as_str() == word)
            .ok_or_else(|| {
                rusqlite::types::FromSqlError::Other(format!("unknown kind `{word}`").into())
            })
    }
}

const CHUNK_COLUMNS: &str = "id, entity_id, kind, part, seq, tick, title, body";

fn read_chunk(r: &rusqlite::Row<'_>) -> rusqlite::Result<Chunk> {
    let part: String = r.get(3)?;
    Ok(Chunk {
        id: r.get(0)?,
        entity_id: r.get(1)?,
        kind: r.get(2)?,
        // The column's CHECK admits only the three parts.
        part: ChunkPart::parse(&part).unwrap_or(ChunkPart::Record),
        seq: r.get(4)?,
        tick: r.get(5)?,
        title: r.get(6)?,
        body: r.get(7)?,
    })
}

/// Every passage, in a stable order (for rebuilds and their tests).
pub fn list_chunks(conn: &Connection) -> StoreResult<Vec<Chunk>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {CHUNK_COLUMNS} FROM search_chunks ORDER BY entity_id, part, seq"
    ))?;
    let rows = stmt.query_map([], read_chunk)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn count_chunks(conn: &Connection) -> StoreResult<usize> {
    Ok(
        conn.query_row("SELECT count(*) FROM search_chunks", [], |r| {
            r.get::<_, i64>(0)
        })? as usize,
    )
}

/// A scene's prose as passages: paragraphs grouped until a group reaches
/// [`PROSE_TARGET_WORDS`]; a paragraph longer than [`PROSE_MAX_WORDS`] is split between
/// sentences. A short last group joins the one before it when both fit.
pub fn prose_chunks(prose: &str) -> Vec<String> {
    let paragraphs: Vec<&str> = split_paragraphs(prose);
    let mut pieces: Vec<String> = Vec::new();
    for p in paragraphs {
        if word_count(p) <= PROSE_MAX_WORDS {
            pieces.push(p.to_string());
        } else {
            pieces.extend(split_long(p));
        }
    }
    let mut groups: Vec<String> = Vec::new();
    let mut current = String::new();
    for piece in pieces {
        if !current.is_empty() && word_count(&current) + word_count(&piece) > PROSE_MAX_WORDS {
            groups.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push_str("\n\n");
        }
        current.push_str(&piece);
        if word_count(&current) >= PROSE_TARGET_WORDS {
            groups.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        match groups.last_mut() {
            Some(last) if word_count(last) + word_count(&current) <= PROSE_MAX_WORDS => {
                last.push_str("\n\n");
                last.push_str(&current);
            }
            _ => groups.push(current),
        }
    }
    groups
}

/// Blank-line paragraphs; text without blank lines falls back to one paragraph per line.
fn split_paragraphs(prose: &str) -> Vec<&str> {
    let by_blank: Vec<&str> = prose
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if by_blank.len() > 1 {
        return by_blank;
    }
    prose
        .lines()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A long paragraph in sentence-aligned pieces of at most [`PROSE_MAX_WORDS`] words (a single
/// longer sentence is cut between words).
fn split_long(paragraph: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for sentence in sentences(paragraph) {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        if current.len() + words.len() > PROSE_MAX_WORDS && !current.is_empty() {
            pieces.push(current.join(" "));
            current.clear();
        }
        for word_group in words.chunks(PROSE_MAX_WORDS) {
            if current.len() + word_group.len() > PROSE_MAX_WORDS {
                pieces.push(current.join(" "));
                current.clear();
            }
            current.extend_from_slice(word_group);
        }
    }
    if !current.is_empty() {
        pieces.push(current.join(" "));
    }
    pieces
}

fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in bytes.iter().enumerate() {
        let next_is_space = bytes.get(i + 1).is_none_or(|&(_, n)| n.is_whitespace());
        if matches!(c, '.' | '!' | '?') && next_is_space {
            let end = at + c.len_utf8();
            out.push(text[start..end].trim());
            start = end;
        }
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize, tag: &str) -> String {
        (0..n)
            .map(|i| format!("{tag}{i}"))
            .collect::<Vec<_>>()
            .join(" ")
            + "."
    }

    #[test]
    fn prose_is_grouped_by_paragraphs_without_losing_or_reordering_words() {
        let paras = [
            words(30, "a"),
            words(40, "b"),
            words(35, "c"),
            words(300, "d"),
            words(10, "e"),
        ];
        let prose = paras.join("\n\n");
        let chunks = prose_chunks(&prose);
        // a+b reach the target together; c would overflow with d's first piece and stands
        // alone; d is cut at the limit; e joins d's last piece.
        assert_eq!(chunks.len(), 5, "{chunks:#?}");
        for c in &chunks {
            assert!(word_count(c) <= PROSE_MAX_WORDS, "{}", word_count(c));
        }
        // The first group gathers the short paragraphs whole.
        assert!(chunks[0].starts_with("a0") && chunks[0].ends_with("b39."));
        assert_eq!(chunks[1], paras[2]);
        let rejoined: Vec<&str> = chunks.iter().flat_map(|c| c.split_whitespace()).collect();
        let original: Vec<&str> = prose.split_whitespace().collect();
        assert_eq!(rejoined, original);
        // The short tail joins the group before it rather than standing alone.
        assert!(chunks.last().unwrap().ends_with("e9."));
        assert!(word_count(chunks.last().unwrap()) > 10);
    }

    #[test]
    fn a_single_line_scene_is_split_between_sentences() {
        let sentence = |i: usize| format!("Sentence {i} has exactly seven words here.");
        let prose: String = (0..60).map(sentence).collect::<Vec<_>>().join(" ");
        let chunks = prose_chunks(&prose);
        assert!(chunks.len() >= 3);
        assert!(chunks.iter().all(|c| c.ends_with("here.")), "{chunks:#?}");
    }
}
