//! The keyword index behind `memory.search`: an FTS5 table of characters, locations,
//! relationships, loops, lore and scene summaries, ranked by BM25. It is derived data — every
//! write path re-indexes the record it touched, and `rebuild_search_index` recreates it all.

use rusqlite::{Connection, Transaction, params};
use serde::{Deserialize, Serialize};

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
    /// BM25 relevance, higher is better.
    pub score: f64,
}

pub fn index_document(tx: &Transaction<'_>, doc: &SearchDocument) -> StoreResult<()> {
    tx.execute(
        "DELETE FROM search_index WHERE entity_id = ?1",
        [&doc.entity_id],
    )?;
    tx.execute(
        "INSERT INTO search_index (entity_id, kind, tick, title, body) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            doc.entity_id,
            doc.kind.as_str(),
            doc.tick,
            doc.title,
            doc.body
        ],
    )?;
    Ok(())
}

/// Turns free text into a safe FTS5 query: every word quoted (no operators or column filters
/// can be smuggled in) and OR-ed, so any matching word finds a record and BM25 ranks by overlap.
fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(32)
        .map(|w| format!("\"{}\"", w.to_lowercase()))
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
    let Some(fts) = fts_query(query) else {
        return Ok(Vec::new());
    };
    let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    let kinds_json = serde_json::to_string(&kinds).unwrap_or_else(|_| "[]".into());
    let mut stmt = conn.prepare(
        "SELECT entity_id, kind, tick, title,
                snippet(search_index, 4, '', '', '…', 24), -bm25(search_index, 0, 0, 0, 4.0, 1.0)
         FROM search_index
         WHERE search_index MATCH ?1
           AND (json_array_length(?2) = 0 OR kind IN (SELECT value FROM json_each(?2)))
         ORDER BY bm25(search_index, 0, 0, 0, 4.0, 1.0)
         LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![fts, kinds_json, limit], |r| {
        Ok(SearchHit {
            entity_id: r.get(0)?,
            kind: r.get(1)?,
            tick: r.get(2)?,
            title: r.get(3)?,
            snippet: r.get(4)?,
            score: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Drops and recreates every row of the index from the source tables; returns the row count.
pub fn rebuild_search_index(tx: &Transaction<'_>) -> StoreResult<usize> {
    tx.execute("DELETE FROM search_index", [])?;
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
    docs.extend(list_scenes(tx)?.iter().map(scene_document));
    for doc in &docs {
        index_document(tx, doc)?;
    }
    Ok(docs.len())
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
    SearchDocument {
        entity_id: f.id.clone(),
        kind: EntityKind::Lore,
        tick: f.source_tick,
        title: f.keywords.join(", "),
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
    fn fts_query_quotes_every_word_and_drops_operators() {
        assert_eq!(
            fts_query("mentor's NEAR(x) -history").unwrap(),
            "\"mentor\" OR \"s\" OR \"near\" OR \"x\" OR \"history\""
        );
        assert_eq!(fts_query("  \"*^:  "), None);
    }
}
