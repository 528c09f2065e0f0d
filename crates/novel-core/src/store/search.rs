//! The keyword side of memory search: every record and scene becomes passages (see
//! [`super::chunks`]) in an FTS5 index ranked by BM25, filterable by kind and tick range. It is
//! derived data — every write path re-indexes the record it touched, and
//! `rebuild_search_index` recreates it all. Vectors and the fusion of both rankings live in
//! `crate::retrieval`.

use rusqlite::{Connection, Transaction, params};
use serde::{Deserialize, Serialize};

use super::chunks::{ChunkPart, NewChunk, prose_chunks, replace_chunks};
use super::{
    StoreResult, list_characters, list_locations, list_loops, list_lore, list_relationships,
    list_scenes,
};
use crate::ids::EntityKind;
use crate::model::{Character, Location, LoreFact, OpenLoop, Relationship, Scene};

/// One indexed text, keyed by the entity it describes.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchDocument {
    pub entity_id: String,
    pub kind: EntityKind,
    pub tick: Option<u32>,
    pub title: String,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub entity_id: String,
    pub kind: String,
    pub tick: Option<u32>,
    pub title: String,
    pub snippet: String,
    /// Relevance, higher is better (BM25 for keyword search, fused rank for hybrid search).
    pub score: f64,
}

/// Which passages a search may return: some kinds only (none = all) and a tick range.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchFilter {
    pub kinds: Vec<EntityKind>,
    pub from_tick: Option<u32>,
    pub to_tick: Option<u32>,
}

impl SearchFilter {
    pub fn kinds(kinds: &[EntityKind]) -> SearchFilter {
        SearchFilter {
            kinds: kinds.to_vec(),
            ..SearchFilter::default()
        }
    }

    /// Whether a passage of `kind` at `tick` passes. A passage without a tick (seed lore)
    /// passes any range.
    pub fn admits(&self, kind: &str, tick: Option<u32>) -> bool {
        let kind_ok = self.kinds.is_empty() || self.kinds.iter().any(|k| k.as_str() == kind);
        let tick_ok = tick.is_none_or(|t| {
            self.from_tick.is_none_or(|from| t >= from) && self.to_tick.is_none_or(|to| t <= to)
        });
        kind_ok && tick_ok
    }
}

/// A keyword match: the passage's id and what a reader sees of it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordHit {
    pub chunk_id: i64,
    pub hit: SearchHit,
}

/// Replaces the passage of a record (character, place, relationship, loop, lore entry).
pub fn index_document(tx: &Transaction<'_>, doc: &SearchDocument) -> StoreResult<()> {
    replace_chunks(
        tx,
        &doc.entity_id,
        doc.kind,
        doc.tick,
        &[ChunkPart::Record],
        &[NewChunk {
            part: ChunkPart::Record,
            title: doc.title.clone(),
            body: doc.body.clone(),
        }],
    )
}

/// Replaces a scene's passages: its summary, then its prose in paragraph groups.
pub fn index_scene(tx: &Transaction<'_>, scene: &Scene) -> StoreResult<()> {
    let summary = scene_document(scene);
    let mut chunks = vec![NewChunk {
        part: ChunkPart::Summary,
        title: summary.title.clone(),
        body: summary.body,
    }];
    chunks.extend(prose_chunks(&scene.prose).into_iter().map(|body| NewChunk {
        part: ChunkPart::Prose,
        title: summary.title.clone(),
        body,
    }));
    replace_chunks(
        tx,
        &scene.id,
        EntityKind::Scene,
        Some(scene.tick),
        &[ChunkPart::Summary, ChunkPart::Prose],
        &chunks,
    )
}

/// Words too common to say anything about what a passage is about. Dropping them keeps a long
/// query (a plan, a scene summary) from matching, and scoring, nearly every passage.
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "s",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "t",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
];

/// The most words a query keeps: enough for a plan's gist, few enough to stay fast.
const MAX_QUERY_WORDS: usize = 24;

/// Turns free text into a safe FTS5 query: every word quoted (no operators or column filters
/// can be smuggled in), stopwords and repeats dropped, OR-ed so that any matching word finds a
/// passage and BM25 ranks by overlap. A query of nothing but stopwords keeps them.
fn fts_query(text: &str) -> Option<String> {
    let mut all: Vec<String> = Vec::new();
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let w = w.to_lowercase();
        if !all.contains(&w) {
            all.push(w);
        }
    }
    let content: Vec<&String> = all
        .iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    let words: Vec<&String> = if content.is_empty() {
        all.iter().collect()
    } else {
        content
    };
    let words: Vec<String> = words
        .into_iter()
        .take(MAX_QUERY_WORDS)
        .map(|w| format!("\"{w}\""))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// Keyword search, optionally restricted to some kinds, best match first.
pub fn search(
    conn: &Connection,
    query: &str,
    kinds: &[EntityKind],
    limit: u32,
) -> StoreResult<Vec<SearchHit>> {
    Ok(
        keyword_search(conn, query, &SearchFilter::kinds(kinds), limit)?
            .into_iter()
            .map(|k| k.hit)
            .collect(),
    )
}

/// Keyword search over passages passing `filter`, best BM25 first.
pub fn keyword_search(
    conn: &Connection,
    query: &str,
    filter: &SearchFilter,
    limit: u32,
) -> StoreResult<Vec<KeywordHit>> {
    let Some(fts) = fts_query(query) else {
        return Ok(Vec::new());
    };
    let kinds: Vec<&str> = filter.kinds.iter().map(|k| k.as_str()).collect();
    let kinds_json = serde_json::to_string(&kinds).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.entity_id, c.kind, c.tick, c.title,
                snippet(search_index, 1, '', '', '…', 32), -bm25(search_index, 4.0, 1.0)
         FROM search_index JOIN search_chunks c ON c.id = search_index.rowid
         WHERE search_index MATCH ?1
           AND (json_array_length(?2) = 0 OR c.kind IN (SELECT value FROM json_each(?2)))
           AND (?3 IS NULL OR c.tick IS NULL OR c.tick >= ?3)
           AND (?4 IS NULL OR c.tick IS NULL OR c.tick <= ?4)
         ORDER BY bm25(search_index, 4.0, 1.0)
         LIMIT ?5",
    )?;
    let rows = stmt.query_map(
        params![fts, kinds_json, filter.from_tick, filter.to_tick, limit],
        |r| {
            Ok(KeywordHit {
                chunk_id: r.get(0)?,
                hit: SearchHit {
                    entity_id: r.get(1)?,
                    kind: r.get(2)?,
                    tick: r.get(3)?,
                    title: r.get(4)?,
                    snippet: r.get(5)?,
                    score: r.get(6)?,
                },
            })
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Drops and recreates every passage from the source tables (their vectors go with them);
/// returns the number of passages.
pub fn rebuild_search_index(tx: &Transaction<'_>) -> StoreResult<usize> {
    tx.execute("DELETE FROM search_chunks", [])?;
    let mut docs = Vec::new();
    docs.extend(list_characters(tx)?.iter().map(character_document));
    docs.extend(list_locations(tx)?.iter().map(location_document));
    docs.extend(
        list_relationships(tx, None)?
            .iter()
            .map(relationship_document),
    );
    docs.extend(list_loops(tx, None)?.iter().map(loop_document));
    docs.extend(list_lore(tx)?.iter().map(lore_document));
    for doc in &docs {
        index_document(tx, doc)?;
    }
    for scene in list_scenes(tx)? {
        index_scene(tx, &scene)?;
    }
    super::count_chunks(tx)
}

fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn character_document(c: &Character) -> SearchDocument {
    let facts: Vec<String> = c.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    SearchDocument {
        entity_id: c.id.clone(),
        kind: EntityKind::Character,
        tick: Some(c.last_update_tick),
        title: c.name.clone(),
        body: join(&[
            &c.aliases.join(", "),
            &c.role,
            &c.description,
            &c.personality.join(", "),
            &c.goals.join("; "),
            &c.fears.join("; "),
            &c.inventory.join(", "),
            c.emotional_state.as_deref().unwrap_or(""),
            &c.arc.want,
            &c.arc.need,
            &facts.join("; "),
        ]),
    }
}

pub fn location_document(l: &Location) -> SearchDocument {
    let facts: Vec<String> = l.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    SearchDocument {
        entity_id: l.id.clone(),
        kind: EntityKind::Location,
        tick: Some(l.last_update_tick),
        title: l.name.clone(),
        body: join(&[
            &l.aliases.join(", "),
            &l.description,
            &l.sensory.join(", "),
            &l.threats.join("; "),
            &l.inhabitants.join(", "),
            &facts.join("; "),
        ]),
    }
}

pub fn relationship_document(r: &Relationship) -> SearchDocument {
    SearchDocument {
        entity_id: r.id.clone(),
        kind: EntityKind::Relationship,
        tick: Some(r.last_update_tick),
        title: format!("{} and {}: {}", r.character_a, r.character_b, r.kind),
        body: join(&[&r.status, &r.perspective_a, &r.perspective_b]),
    }
}

pub fn loop_document(l: &OpenLoop) -> SearchDocument {
    let notes: Vec<&str> = l.notes.iter().map(|n| n.note.as_str()).collect();
    SearchDocument {
        entity_id: l.id.clone(),
        kind: EntityKind::Loop,
        tick: Some(l.opened_tick),
        title: l.description.clone(),
        body: join(&[&l.category, &notes.join("; ")]),
    }
}

pub fn lore_document(f: &LoreFact) -> SearchDocument {
    let mut names = f.keywords.clone();
    names.extend(f.aliases.iter().cloned());
    SearchDocument {
        entity_id: f.id.clone(),
        kind: EntityKind::Lore,
        tick: f.source_tick,
        title: names.join(", "),
        body: join(&[&f.fact, &f.category]),
    }
}

pub fn scene_document(s: &Scene) -> SearchDocument {
    SearchDocument {
        entity_id: s.id.clone(),
        kind: EntityKind::Scene,
        tick: Some(s.tick),
        title: s.title.clone(),
        body: s.summary.join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::fts_query;

    #[test]
    fn fts_query_quotes_every_word_and_drops_operators_and_stopwords() {
        assert_eq!(
            fts_query("The mentor's NEAR(x) -history of the mentor").unwrap(),
            "\"mentor\" OR \"near\" OR \"x\" OR \"history\""
        );
        assert_eq!(fts_query("  \"*^:  "), None);
        // Nothing but stopwords: better to search for them than for nothing.
        assert_eq!(
            fts_query("Who was she").unwrap(),
            "\"who\" OR \"was\" OR \"she\""
        );
    }
}
