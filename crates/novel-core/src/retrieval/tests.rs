//! Retrieval on the small fixed story with the deterministic hashing embedder: filters hold on
//! both rankings, vectors of another model are never compared, the in-memory copy follows the
//! store, and keyword-only retrieval explains itself.

use std::sync::Arc;

use novel_embed::HashEmbedder;

use super::*;
use crate::context::fixture::novel;
use crate::ids::EntityKind;
use crate::store::{self, SearchFilter};

fn hashing(id: &str) -> Retrieval {
    Retrieval::with_embedder(Arc::new(HashEmbedder::new(id, 256)))
}

fn sync(f: &mut crate::context::fixture::Fixture, retrieval: &Retrieval) -> SyncReport {
    let tx = f.store.transaction().unwrap();
    let report = futures::executor::block_on(retrieval.sync(&tx)).unwrap();
    tx.commit().unwrap();
    report
}

fn ranked(
    f: &crate::context::fixture::Fixture,
    retrieval: &Retrieval,
    query: &str,
    filter: &SearchFilter,
    mode: Mode,
) -> Vec<RankedHit> {
    let vector = retrieval
        .embedder()
        .map(|e| e.embed(&[query]).unwrap().remove(0));
    retrieval
        .search(f.store.conn(), query, filter, 10, vector.as_deref(), mode)
        .unwrap()
}

#[tokio::test]
async fn filters_by_kind_and_tick_hold_for_meaning_as_for_keywords() {
    let mut f = novel(6);
    let retrieval = hashing("h1");
    assert!(sync(&mut f, &retrieval).embedded > 6);
    let scenes_2_to_4 = SearchFilter {
        kinds: vec![EntityKind::Scene],
        from_tick: Some(2),
        to_tick: Some(4),
    };
    for mode in [Mode::KeywordOnly, Mode::SemanticOnly, Mode::Hybrid] {
        let hits = ranked(&f, &retrieval, "razor ledger page", &scenes_2_to_4, mode);
        assert!(!hits.is_empty(), "{mode:?}");
        for h in &hits {
            assert_eq!(h.hit.kind, crate::ids::EntityKind::Scene, "{mode:?} {h:?}");
            assert!((2..=4).contains(&h.hit.tick.unwrap()), "{mode:?} {h:?}");
        }
    }
    // Meaning-only hits still show text: the passage's opening words.
    let hits = ranked(&f, &retrieval, "razor", &scenes_2_to_4, Mode::SemanticOnly);
    assert!(
        hits.iter()
            .all(|h| !h.hit.snippet.is_empty() && h.keyword_rank.is_none())
    );
}

#[tokio::test]
async fn vectors_of_another_model_are_never_compared_until_re_embedded() {
    let mut f = novel(3);
    sync(&mut f, &hashing("old-model"));
    let newer = hashing("new-model");
    let hits = ranked(&f, &newer, "Marcus", &SearchFilter::default(), Mode::Hybrid);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.semantic_rank.is_none()), "{hits:#?}");
    let report = sync(&mut f, &newer);
    assert!(report.model_changed);
    let hits = ranked(&f, &newer, "Marcus", &SearchFilter::default(), Mode::Hybrid);
    assert!(hits.iter().any(|h| h.semantic_rank.is_some()));
}

#[tokio::test]
async fn the_cached_vectors_follow_the_store() {
    let mut f = novel(2);
    let retrieval = hashing("h1");
    sync(&mut f, &retrieval);
    let all = SearchFilter::default();
    let before = ranked(&f, &retrieval, "quarrel", &all, Mode::SemanticOnly);
    assert!(before.iter().all(|h| h.hit.entity_id != "W9"));
    // A new lore entry gets a vector; the next search sees it without a restart.
    {
        let tx = f.store.transaction().unwrap();
        // The fixture wrote its lore without minting ids, so this one names its own.
        let fact = crate::model::LoreFact {
            id: "W9".into(),
            fact: "Quarrels in the archive are settled by the oldest clerk.".into(),
            category: "custom".into(),
            importance: Default::default(),
            keywords: vec!["quarrel".into()],
            aliases: Vec::new(),
            always_on: false,
            source_tick: Some(3),
            created_tick: 3,
        };
        store::insert_lore(&tx, &fact).unwrap();
        store::index_document(&tx, &store::lore_document(&fact)).unwrap();
        tx.commit().unwrap();
    }
    sync(&mut f, &retrieval);
    let after = ranked(&f, &retrieval, "quarrel", &all, Mode::SemanticOnly);
    assert!(after.iter().any(|h| h.hit.entity_id == "W9"), "{after:#?}");
    assert_eq!(store::count_pending(f.store.conn()).unwrap(), 0);
}

#[tokio::test]
async fn keyword_only_retrieval_searches_and_says_how_to_turn_meaning_on() {
    let f = novel(3);
    let retrieval = Retrieval::keyword_only("ONNX Runtime was not found");
    assert!(!retrieval.is_semantic());
    assert!(retrieval.embed_query("anything").await.is_none());
    let notice = retrieval.notice().unwrap();
    assert!(
        notice.contains("Semantic search is off: ONNX Runtime was not found"),
        "{notice}"
    );
    assert!(notice.contains("keywords only") && notice.contains("fetch-embedding-model.sh"));
    let hits = retrieval
        .hybrid(f.store.conn(), "razor", &SearchFilter::default(), 5)
        .await
        .unwrap();
    assert!(!hits.is_empty() && hits.iter().all(|h| h.keyword_rank.is_some()));
    assert!(hashing("x").notice().is_none());
}
