//! Whole-book replace on the small fixed book: whole words only, one recorded change whose
//! undo takes everything back, a new version and file per changed scene, the bearer of the old name renamed
//! with an alias, and a name not in the book refused without a change.

use super::*;
use crate::export::tests::fixed_book;
use crate::store;
use crate::tick::tests::{clock, fingerprint};

fn changes(novel: &Novel) -> i64 {
    novel
        .store()
        .conn()
        .query_row("SELECT count(*) FROM changes", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn only_whole_words_are_replaced() {
    assert_eq!(
        replace_words(
            "Bram, Bram's brambles; Brambles and BRAM. xBram",
            "Bram",
            "Brand"
        ),
        (
            "Brand, Brand's brambles; Brambles and BRAM. xBram".to_string(),
            2
        )
    );
    assert_eq!(
        replace_words("Ana-Ana", "Ana", "Eva"),
        ("Eva-Eva".to_string(), 2)
    );
    assert_eq!(replace_words("Mr. Vale", "Mr. Vale", "Ms. Vale").1, 1);
}

#[test]
fn a_replace_is_one_recorded_change_across_the_book() {
    let (_tmp, mut novel) = fixed_book();
    let before = fingerprint(&novel);
    let changes_before = changes(&novel);
    let preview_report = preview(&novel, "Tamsin", "Tess").unwrap();
    assert_eq!(
        (preview_report.occurrences, preview_report.scenes.clone()),
        (1, vec![1])
    );
    assert_eq!(fingerprint(&novel), before, "a preview changes nothing");
    let report = replace_in_book(&mut novel, "Tamsin", "Tess", true, &clock()).unwrap();
    assert_eq!(report.scenes, vec![1]);
    assert_eq!(
        report.renamed_record.as_deref(),
        Some("C0"),
        "the protagonist bore the name"
    );
    assert_eq!(changes(&novel), changes_before + 1);
    let conn = novel.store().conn();
    let scene = &store::list_scenes(conn).unwrap()[0];
    assert!(
        scene.prose.contains("\"It's late,\" Tess said"),
        "{}",
        scene.prose
    );
    assert_eq!(store::versions_of(conn, 1).unwrap().len(), 1);
    let file = std::fs::read_to_string(crate::files::scene_path(novel.root(), 1)).unwrap();
    assert!(
        file.contains("Tess said") && !file.contains("Tamsin"),
        "{file}"
    );
    let c0 = store::get_character(conn, "C0").unwrap().unwrap();
    assert_eq!(c0.name, "Tess Vale");
    assert!(c0.aliases.contains(&"Tamsin Vale".to_string()));
    // Searching finds the new name, not the old.
    assert!(!store::search(conn, "Tess", &[], 5).unwrap().is_empty());
    // Undoing that one change takes it all back: prose, record and index.
    let seq = store::head(novel.store().conn()).unwrap().head.unwrap();
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    store::apply_change(&tx, seq, store::Direction::Undo).unwrap();
    tx.commit().unwrap();
    let conn = novel.store().conn();
    assert!(
        store::list_scenes(conn).unwrap()[0]
            .prose
            .contains("Tamsin said")
    );
    assert_eq!(
        store::get_character(conn, "C0").unwrap().unwrap().name,
        "Tamsin Vale"
    );
}

#[test]
fn a_name_not_in_the_book_changes_nothing() {
    let (_tmp, mut novel) = fixed_book();
    let before = fingerprint(&novel);
    let err = replace_in_book(&mut novel, "Zeppelin", "Airship", false, &clock()).unwrap_err();
    assert!(matches!(err, RenameError::NotFound(_)), "{err}");
    assert!(matches!(
        replace_in_book(&mut novel, "Bram", " Bram ", false, &clock()),
        Err(RenameError::Invalid(_))
    ));
    assert!(matches!(
        replace_in_book(&mut novel, "", "X", false, &clock()),
        Err(RenameError::Invalid(_))
    ));
    assert_eq!(fingerprint(&novel), before);
}

#[test]
fn the_bearer_of_a_name_is_found_before_the_replace() {
    let (_tmp, novel) = fixed_book();
    let conn = novel.store().conn();
    let protagonist = store::list_characters(conn).unwrap()[0].name.clone();
    let first = protagonist.split_whitespace().next().unwrap().to_string();
    assert_eq!(
        name_bearer(conn, &first).unwrap().as_deref(),
        Some(protagonist.as_str()),
        "a word of the only name holding it"
    );
    assert_eq!(name_bearer(conn, "Zeppelin").unwrap(), None);
}
