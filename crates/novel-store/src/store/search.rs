//! The keyword side of memory search: every record and scene becomes passages (see
//! [`super::chunks`]) in an FTS5 index ranked by BM25, filterable by kind and tick range. It is
//! derived data — every write path re-indexes the record it touched, and
//! `reindex` recreates it all. Vectors and the fusion of both rankings live in
//! `crate::retrieval`.

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::chunks::{ChunkPart, NewChunk, prose_chunks, replace_chunks};
use super::error::StoreResult;
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
    pub kind: EntityKind,
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
}

/// A keyword match: the passage's id and what a reader sees of it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordHit {
    pub chunk_id: i64,
    pub hit: SearchHit,
}

/// A passage's place in the keyword ranking, before anything is read for display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeywordRank {
    pub chunk_id: i64,
    /// BM25, higher is better.
    pub score: f64,
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
    let words = query_words(text);
    (!words.is_empty()).then(|| or_query(&words))
}

fn or_query(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The words of a query worth searching for: lowercased, deduplicated, stopwords dropped
/// (unless that leaves nothing), at most [`MAX_QUERY_WORDS`].
pub fn query_words(text: &str) -> Vec<String> {
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
    words.into_iter().take(MAX_QUERY_WORDS).cloned().collect()
}

/// A word in more than this share of all passages says little about any of them (BM25 gives
/// it almost no weight) yet makes the ranking score every passage it is in.
const COMMON_SHARE: u64 = 20; // 1 in 20, i.e. 5 %
/// Below this many passages no word counts as common: small novels keep every word.
const COMMON_FLOOR: u64 = 200;

/// [`fts_query`] without the words so common in this novel that ranking by them costs more
/// than it tells. Each word's count is read only up to the threshold, so the check is cheap
/// even for the commonest words. If every word is common, passages must have them all (an
/// AND query, cheap and precise), falling back to any of them when none has.
fn selective_query(conn: &Connection, text: &str) -> StoreResult<Option<String>> {
    let words = query_words(text);
    if words.is_empty() {
        return Ok(None);
    }
    let passages: u64 = conn
        .prepare_cached("SELECT coalesce(max(id), 0) FROM search_chunks")?
        .query_row([], |r| r.get::<_, i64>(0))?
        .max(0) as u64;
    let cap = (passages / COMMON_SHARE).max(COMMON_FLOOR);
    if passages <= cap {
        return Ok(Some(or_query(&words)));
    }
    let mut count = conn.prepare_cached(
        "SELECT count(*) FROM (SELECT rowid FROM search_index WHERE search_index MATCH ?1 LIMIT ?2)",
    )?;
    let mut selective = Vec::new();
    for w in &words {
        let n: i64 =
            count.query_row(params![format!("\"{w}\""), (cap + 1) as i64], |r| r.get(0))?;
        if (n as u64) <= cap {
            selective.push(w.clone());
        }
    }
    if !selective.is_empty() {
        return Ok(Some(or_query(&selective)));
    }
    let all = words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" AND ");
    let any: i64 = conn
        .prepare_cached("SELECT count(*) FROM (SELECT rowid FROM search_index WHERE search_index MATCH ?1 LIMIT 1)")?
        .query_row([&all], |r| r.get(0))?;
    Ok(Some(if any > 0 { all } else { or_query(&words) }))
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

/// Keyword search over passages passing `filter`, best BM25 first, with snippets.
pub fn keyword_search(
    conn: &Connection,
    query: &str,
    filter: &SearchFilter,
    limit: u32,
) -> StoreResult<Vec<KeywordHit>> {
    let ranking = keyword_ranking(conn, query, filter, limit)?;
    let mut hits = Vec::with_capacity(ranking.len());
    for r in ranking {
        if let Some(hit) = describe_hit(conn, query, r.chunk_id, r.score, true)? {
            hits.push(KeywordHit {
                chunk_id: r.chunk_id,
                hit,
            });
        }
    }
    Ok(hits)
}

/// The keyword ranking alone: passage ids and BM25 scores, best first. Snippets are left for
/// [`describe_hit`] to make for the few hits shown: computing one for every match would cost
/// more than the ranking itself.
pub fn keyword_ranking(
    conn: &Connection,
    query: &str,
    filter: &SearchFilter,
    limit: u32,
) -> StoreResult<Vec<KeywordRank>> {
    let Some(fts) = selective_query(conn, query)? else {
        return Ok(Vec::new());
    };
    let read = |r: &rusqlite::Row<'_>| {
        Ok(KeywordRank {
            chunk_id: r.get(0)?,
            score: r.get(1)?,
        })
    };
    if filter == &SearchFilter::default() {
        let mut stmt = conn.prepare_cached(
            "SELECT rowid, -bm25(search_index, 4.0, 1.0) FROM search_index
             WHERE search_index MATCH ?1 ORDER BY bm25(search_index, 4.0, 1.0) LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![fts, limit], read)?;
        return Ok(rows.collect::<Result<_, _>>()?);
    }
    let kinds: Vec<&str> = filter.kinds.iter().map(|k| k.as_str()).collect();
    let kinds_json = serde_json::to_string(&kinds).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, -bm25(search_index, 4.0, 1.0)
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
        read,
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Words of a passage shown when the keywords did not match it (a match by meaning).
const LEAD_WORDS: usize = 40;

/// What a reader sees of passage `chunk_id` as a hit for `query`: the keyword index's snippet
/// around the matched words when `keyword_matched`, else the passage's opening words. `None`
/// when the passage is gone.
pub fn describe_hit(
    conn: &Connection,
    query: &str,
    chunk_id: i64,
    score: f64,
    keyword_matched: bool,
) -> StoreResult<Option<SearchHit>> {
    let chunk = conn
        .prepare_cached(
            "SELECT entity_id, kind, tick, title, body FROM search_chunks WHERE id = ?1",
        )?
        .query_row([chunk_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, EntityKind>(1)?,
                r.get::<_, Option<u32>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .optional()?;
    let Some((entity_id, kind, tick, title, body)) = chunk else {
        return Ok(None);
    };
    let snippet = match fts_query(query).filter(|_| keyword_matched) {
        Some(fts) => conn
            .prepare_cached(
                "SELECT snippet(search_index, 1, '', '', '…', 32) FROM search_index
                 WHERE search_index MATCH ?1 AND rowid = ?2",
            )?
            .query_row(params![fts, chunk_id], |r| r.get::<_, String>(0))
            .optional()?,
        None => None,
    };
    let snippet = snippet
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| lead(&body, LEAD_WORDS));
    Ok(Some(SearchHit {
        entity_id,
        kind,
        tick,
        title,
        snippet,
        score,
    }))
}

fn lead(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        words.join(" ")
    } else {
        format!("{}…", words[..n].join(" "))
    }
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
