//! The search command against a real novel directory: a generated book with a sentence
//! planted in one scene, searched by words, by meaning and with nothing to search for.

use std::sync::Arc;

use novel_core::synthetic::{self, Planted};
use novel_core::{Access, Novel};
use novel_embed::HashEmbedder;

use super::*;

const PLANTED: &str = "Under the chapel floor Oriane buried the brass astrolabes.";

fn book(dir: &std::path::Path) -> std::path::PathBuf {
    let root = dir.join("canals");
    synthetic::generate(&root, 8, &[Planted::new(5, PLANTED)]).unwrap();
    root
}

fn marked(hit: &BookHit) -> Vec<String> {
    hit.marks
        .iter()
        .map(|m| {
            let from = hit.snippet.chars().skip(m.start as usize);
            from.take(m.len as usize).collect()
        })
        .collect()
}

/// The scene's prose from the passage's offset on.
fn at_offset(root: &std::path::Path, hit: &BookHit) -> String {
    let novel = Novel::open(root, Access::Read).unwrap();
    let scenes = novel_core::views::manuscript(novel.store().conn()).unwrap();
    let scene = scenes.iter().find(|s| s.tick == hit.tick).unwrap();
    scene
        .prose
        .chars()
        .skip(hit.offset.expect("the passage is found in the prose") as usize)
        .collect()
}

#[tokio::test]
async fn words_find_the_planted_passage_with_its_scene_marks_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let root = book(dir.path());
    let novel = Novel::open(&root, Access::Read).unwrap();
    let hits = search_novel(novel, "  astrolabe ", SearchMode::Words, 20)
        .await
        .unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = &hits[0];
    assert_eq!(hit.tick, 5);
    assert!(hit.by_words && hit.chapter >= 1, "{hit:?}");
    assert_eq!(marked(hit), ["astrolabes"]);
    assert!(at_offset(&root, hit).contains(PLANTED), "{hit:?}");
}

#[tokio::test]
async fn meaning_searches_with_the_model_and_says_what_to_do_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = book(dir.path());
    // Without a model: a clear refusal, not a silent keyword search.
    let mut novel = Novel::open(&root, Access::Read).unwrap();
    novel.set_retrieval(Retrieval::keyword_only("no model installed"));
    let err = search_novel(novel, "astrolabe", SearchMode::Meaning, 5)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, AppError::InvalidInput { message } if message.contains("Search by words")),
        "{err:?}"
    );
    // Both falls back to words when there is no model.
    let mut novel = Novel::open(&root, Access::Read).unwrap();
    novel.set_retrieval(Retrieval::keyword_only("no model installed"));
    let hits = search_novel(novel, "astrolabe", SearchMode::Both, 5)
        .await
        .unwrap();
    assert_eq!(hits[0].tick, 5);

    // With a model: the vectors are made, then the passage is found by meaning alone.
    let retrieval = Retrieval::with_embedder(Arc::new(HashEmbedder::new("h", 256)));
    let mut novel = Novel::open(&root, Access::Write).unwrap();
    {
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        retrieval.sync(&tx).await.unwrap();
        tx.commit().unwrap();
    }
    novel.set_retrieval(retrieval);
    let hits = search_novel(
        novel,
        "Oriane buries brass astrolabes under a chapel",
        SearchMode::Meaning,
        5,
    )
    .await
    .unwrap();
    // The hashing stand-in is a weak judge of meaning: the passage is among the best, not
    // necessarily first; nothing was ranked by its words.
    assert!(
        hits.iter()
            .any(|h| h.tick == 5 && h.snippet.contains("astrolabes")),
        "{hits:?}"
    );
    assert!(hits.iter().all(|h| !h.by_words), "{hits:?}");
}
#[tokio::test]
async fn an_empty_query_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let root = book(dir.path());
    let novel = Novel::open(&root, Access::Read).unwrap();
    let err = search_novel(novel, "   ", SearchMode::Both, 5)
        .await
        .unwrap_err();
    assert!(matches!(err, AppError::InvalidInput { .. }), "{err:?}");
}
