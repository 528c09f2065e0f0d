//! Search across the book, for the writer: passages of scene prose matching a query by words
//! (the keyword index), by meaning (the embeddings) or both fused, each with its scene, its
//! chapter and where in the scene's prose the passage starts, so a reader can jump to it. It
//! reads the same derived passages the agent's memory search uses (rebuildable by `reindex`),
//! keeping only prose: the writer looks for what is on the page. Where the query's words
//! appear in a snippet is given as character ranges, so a reader highlights them as text,
//! never by inserting markup into model prose.

use rusqlite::Connection;
use serde::Serialize;

use crate::ids::EntityKind;
use crate::retrieval::{Mode, Retrieval};
use crate::store::{self, SearchFilter, StoreError};

/// A passage of the book matching a search.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BookHit {
    pub scene_id: String,
    pub tick: u32,
    pub scene_title: String,
    pub chapter: u32,
    pub chapter_title: String,
    /// The words around the match (or the passage's opening words for a match by meaning);
    /// model output, to be shown as text.
    pub snippet: String,
    /// Where the passage starts in the scene's prose, in characters (not bytes); `None` when
    /// the prose changed since the index was built.
    pub offset: Option<u32>,
    /// Where the query's words are in `snippet` (empty when none is, e.g. a match by meaning).
    pub marks: Vec<Mark>,
    /// Whether the words matched (else only the meaning did).
    pub by_words: bool,
    pub score: f64,
}

/// A range of a text, in characters (Unicode scalar values, not bytes or UTF-16 units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Mark {
    pub start: u32,
    pub len: u32,
}

/// The best `limit` prose passages for `query`. `vector` is the query's embedding (see
/// `Retrieval::embed_query`); without it, or with `Mode::KeywordOnly`, words alone decide.
pub fn book_search(
    conn: &Connection,
    retrieval: &Retrieval,
    query: &str,
    vector: Option<&[f32]>,
    mode: Mode,
    limit: u32,
) -> Result<Vec<BookHit>, StoreError> {
    let limit = limit.clamp(1, 200);
    let filter = SearchFilter::kinds(&[EntityKind::Scene]);
    // Summaries are scene passages too; reading deeper leaves room to drop them.
    let ranked = retrieval.search(conn, query, &filter, limit * 3, vector, mode)?;
    let scenes = store::list_scenes(conn)?;
    let chapters = store::book_chapters(conn, &scenes)?;
    let mut hits = Vec::new();
    for r in ranked {
        if hits.len() == limit as usize {
            break;
        }
        let Some((part, body)) = store::chunk_part_and_body(conn, r.chunk_id)? else {
            continue;
        };
        if part != store::ChunkPart::Prose {
            continue;
        }
        let Some(scene) = scenes.iter().find(|s| s.id == r.hit.entity_id) else {
            continue;
        };
        let Some(chapter) = chapters
            .iter()
            .find(|c| (c.first_tick..=c.last_tick).contains(&scene.tick))
        else {
            continue;
        };
        let marks = query_marks(&r.hit.snippet, query);
        hits.push(BookHit {
            scene_id: scene.id.clone(),
            tick: scene.tick,
            scene_title: scene.title.clone(),
            chapter: chapter.number,
            chapter_title: chapter.title.clone(),
            snippet: r.hit.snippet,
            marks,
            offset: passage_offset(&scene.prose, &body),
            by_words: r.keyword_rank.is_some(),
            score: r.hit.score,
        });
    }
    Ok(hits)
}

/// The words of `text` the keyword index would match to `query`'s words: the same words
/// (case aside) or their inflections (the index stems: "ledgers" finds "ledger", "walked"
/// finds "walking"), approximated by sharing a form without a common English ending.
pub fn query_marks(text: &str, query: &str) -> Vec<Mark> {
    let wanted: Vec<Vec<String>> = store::query_words(query).iter().map(|w| forms(w)).collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut marks = Vec::new();
    let mut word_start: Option<(usize, usize)> = None; // (char index, byte index)
    let ends = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    for (chars, (byte, c)) in ends.enumerate() {
        if c.is_alphanumeric() {
            word_start.get_or_insert((chars, byte));
        } else if let Some((start_char, start_byte)) = word_start.take() {
            let word = forms(&text[start_byte..byte].to_lowercase());
            if wanted.iter().any(|w| w.iter().any(|f| word.contains(f))) {
                marks.push(Mark {
                    start: start_char as u32,
                    len: (chars - start_char) as u32,
                });
            }
        }
    }
    marks
}

/// `word` (lowercase) and the stems left without a common English ending, when at least
/// three letters remain.
fn forms(word: &str) -> Vec<String> {
    let mut forms = vec![word.to_string()];
    for suffix in ["ing", "ed", "es", "s", "d"] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.chars().count() >= 3
        {
            forms.push(stem.to_string());
        }
    }
    forms
}

/// Where `passage` (paragraphs of `prose`, as the index cut them) starts in `prose`, in
/// characters: found by its first paragraph, which the index keeps verbatim (trimmed).
fn passage_offset(prose: &str, passage: &str) -> Option<u32> {
    let first = passage.split("\n\n").next()?.trim();
    let probe: String = first.chars().take(80).collect();
    if probe.is_empty() {
        return None;
    }
    let byte = prose.find(&probe)?;
    Some(prose[..byte].chars().count() as u32)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use novel_embed::HashEmbedder;

    use super::*;
    use crate::export::tests::{SCENES, fixed_book};

    fn search(
        novel: &crate::novel::Novel,
        retrieval: &Retrieval,
        query: &str,
        mode: Mode,
    ) -> Vec<BookHit> {
        let vector = retrieval
            .embedder()
            .map(|e| e.embed(&[query]).unwrap().remove(0));
        book_search(
            novel.store().conn(),
            retrieval,
            query,
            vector.as_deref(),
            mode,
            10,
        )
        .unwrap()
    }

    #[test]
    fn words_find_the_passage_with_its_scene_chapter_and_place() {
        let (_tmp, novel) = fixed_book();
        let retrieval = Retrieval::keyword_only("test");
        let hits = search(&novel, &retrieval, "morning grey", Mode::Hybrid);
        assert_eq!(hits.len(), 1, "{hits:?}");
        let hit = &hits[0];
        assert_eq!(
            (hit.tick, hit.scene_title.as_str()),
            (2, "Iron & <b>Salt</b>")
        );
        assert_eq!((hit.chapter, hit.chapter_title.as_str()), (1, "Salt & Ash"));
        assert!(
            hit.by_words && hit.snippet.contains("Morning came grey"),
            "{hit:?}"
        );
        let marked: Vec<String> = hit
            .marks
            .iter()
            .map(|m| {
                let words = hit.snippet.chars().skip(m.start as usize);
                words.take(m.len as usize).collect()
            })
            .collect();
        assert_eq!(marked, ["Morning", "grey"], "{hit:?}");
        // The offset points at the passage in the scene's prose.
        let prose = SCENES[1].1;
        let at: String = prose.chars().skip(hit.offset.unwrap() as usize).collect();
        assert!(
            at.starts_with("Bram kept the ledger") || at.starts_with("Morning"),
            "{at}"
        );
        // The third scene is in chapter 2; summaries are not prose and never come back.
        let hits = search(&novel, &retrieval, "names aloud", Mode::Hybrid);
        assert_eq!((hits[0].tick, hits[0].chapter), (3, 2));
        assert!(search(&novel, &retrieval, "summary", Mode::Hybrid).is_empty());
        assert!(search(&novel, &retrieval, "", Mode::Hybrid).is_empty());
    }

    #[tokio::test]
    async fn meaning_finds_passages_the_words_miss() {
        let (_tmp, mut novel) = fixed_book();
        let retrieval = Retrieval::with_embedder(Arc::new(HashEmbedder::new("h", 256)));
        {
            let store = novel.store_mut().unwrap();
            let tx = store.transaction().unwrap();
            retrieval.sync(&tx).await.unwrap();
            tx.commit().unwrap();
        }
        // A misspelling no keyword matches; its word pieces still point at the ledger.
        assert!(search(&novel, &retrieval, "ledgr", Mode::KeywordOnly).is_empty());
        let hits = search(&novel, &retrieval, "ledgr", Mode::SemanticOnly);
        assert_eq!(hits[0].tick, 2, "{hits:?}");
        assert!(!hits[0].by_words);
    }

    #[test]
    fn marks_cover_the_query_words_and_their_inflections_in_characters() {
        let text =
            "Ça va. The ledgers lay open; Bram's LEDGER, walked, walking, ledge, astrolabes.";
        let marked: Vec<String> = query_marks(text, "the ledger walks astrolabe")
            .iter()
            .map(|m| {
                text.chars()
                    .skip(m.start as usize)
                    .take(m.len as usize)
                    .collect()
            })
            .collect();
        // "the" is a stopword beside content words; "ledge" is another word.
        assert_eq!(
            marked,
            ["ledgers", "LEDGER", "walked", "walking", "astrolabes"]
        );
        assert_eq!(query_marks(text, "  "), []);
        // Offsets count characters: "Ça" is one character before "va".
        assert_eq!(query_marks(text, "va"), [Mark { start: 3, len: 2 }]);
    }

    #[test]
    fn a_passage_is_found_by_its_first_paragraph_in_characters() {
        let prose = "Ça commence.\n\nLa marée monte.\n\nFin.";
        assert_eq!(passage_offset(prose, "La marée monte.\n\nFin."), Some(14));
        assert_eq!(passage_offset(prose, "Rewritten since."), None);
    }
}
