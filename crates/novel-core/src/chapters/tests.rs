use super::*;
use crate::synthetic;
use crate::tick::tests::clock;

fn book(scenes: u32) -> (tempfile::TempDir, Novel) {
    let tmp = tempfile::tempdir().unwrap();
    let novel = synthetic::generate(&tmp.path().join("n"), scenes, &[]).unwrap();
    (tmp, novel)
}

fn shape(novel: &Novel) -> Vec<(u32, u32, bool)> {
    list(novel)
        .unwrap()
        .iter()
        .map(|c| (c.first_tick, c.last_tick, c.proposed))
        .collect()
}

#[test]
fn a_new_book_is_proposed_in_chapters_of_ten_with_counts() {
    let (_tmp, novel) = book(25);
    let chapters = list(&novel).unwrap();
    assert_eq!(
        shape(&novel),
        vec![(1, 10, true), (11, 20, true), (21, 25, true)]
    );
    let scenes = store::list_scenes(novel.store().conn()).unwrap();
    let words: u32 = scenes[..10].iter().map(|s| s.word_count).sum();
    assert_eq!((chapters[0].scenes.len(), chapters[0].words), (10, words));
    assert!(!chapters[0].title.is_empty());
    // Nothing is stored until the writer shapes something.
    assert!(
        store::list_chapters(novel.store().conn())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn rename_split_merge_and_parts_reshape_the_book() {
    let (_tmp, mut novel) = book(25);
    let renamed = rename(&mut novel, 2, "  The\nLedger ", &clock()).unwrap();
    assert_eq!(
        (renamed.title.as_str(), renamed.proposed),
        ("The Ledger", false)
    );
    // Every chapter holding scenes is stored; the first keeps its proposed title.
    assert_eq!(
        shape(&novel),
        vec![(1, 10, true), (11, 20, false), (21, 25, true)]
    );

    let new = split(&mut novel, 1, 4, &clock()).unwrap();
    assert_eq!((new.number, new.first_tick, new.last_tick), (2, 4, 10));
    assert!(new.proposed);
    assert_eq!(
        shape(&novel),
        vec![(1, 3, true), (4, 10, true), (11, 20, false), (21, 25, true)]
    );

    let merged = merge(&mut novel, 3, &clock()).unwrap();
    assert_eq!((merged.first_tick, merged.last_tick), (11, 25));
    assert_eq!(merged.title, "The Ledger");
    assert_eq!(list(&novel).unwrap().len(), 3);

    let part = set_part(&mut novel, 3, Some("Part Two: Iron"), &clock()).unwrap();
    assert_eq!(part.part_title.as_deref(), Some("Part Two: Iron"));
    let cleared = set_part(&mut novel, 3, None, &clock()).unwrap();
    assert_eq!(cleared.part_title, None);

    // The last chapter keeps its nominal end: the next scenes join it, then proposals follow.
    synthetic::extend(&mut novel, 33, &[]).unwrap();
    assert_eq!(
        shape(&novel),
        vec![(1, 3, true), (4, 10, true), (11, 30, false), (31, 33, true)]
    );
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let (_tmp, mut novel) = book(12);
    let before = store::dump_story(novel.store().conn()).unwrap();
    assert!(matches!(
        rename(&mut novel, 3, "x", &clock()),
        Err(ChapterError::NoSuchChapter {
            number: 3,
            count: 2
        })
    ));
    assert!(matches!(
        rename(&mut novel, 1, " \n\u{1b}[2J ", &clock()),
        Err(ChapterError::EmptyTitle)
    ));
    assert!(matches!(
        split(&mut novel, 1, 1, &clock()),
        Err(ChapterError::BadSplit {
            number: 1,
            first: 1,
            last: 10
        })
    ));
    assert!(matches!(
        split(&mut novel, 2, 13, &clock()),
        Err(ChapterError::BadSplit { .. })
    ));
    assert!(matches!(
        merge(&mut novel, 2, &clock()),
        Err(ChapterError::NothingToMerge { number: 2 })
    ));
    assert!(matches!(
        propose(&mut novel, 0, &clock()),
        Err(ChapterError::BadSize { every: 0 })
    ));
    assert_eq!(store::dump_story(novel.store().conn()).unwrap(), before);
}

#[test]
fn proposing_stores_chapters_of_the_asked_size_after_the_shaped_ones() {
    let (_tmp, mut novel) = book(12);
    rename(&mut novel, 1, "Salt", &clock()).unwrap();
    synthetic::extend(&mut novel, 20, &[]).unwrap();
    let chapters = propose(&mut novel, 4, &clock()).unwrap();
    let ranges: Vec<(u32, u32)> = chapters
        .iter()
        .map(|c| (c.first_tick, c.last_tick))
        .collect();
    // Chapter 2 (11–20) was stored by the rename; nothing is left to propose.
    assert_eq!(ranges, vec![(1, 10), (11, 20)]);
    synthetic::extend(&mut novel, 29, &[]).unwrap();
    let chapters = propose(&mut novel, 4, &clock()).unwrap();
    let ranges: Vec<(u32, u32)> = chapters
        .iter()
        .map(|c| (c.first_tick, c.last_tick))
        .collect();
    assert_eq!(
        ranges,
        vec![(1, 10), (11, 20), (21, 24), (25, 28), (29, 29)]
    );
    assert_eq!(store::list_chapters(novel.store().conn()).unwrap().len(), 5);
}

#[test]
fn chapter_edits_are_recorded_changes_that_rewind_undoes_and_a_switch_redoes() {
    let (_tmp, mut novel) = book(10);
    rename(&mut novel, 1, "Salt", &clock()).unwrap();
    synthetic::extend(&mut novel, 14, &[]).unwrap();
    rename(&mut novel, 2, "Iron", &clock()).unwrap();
    let titles = |novel: &Novel| -> Vec<String> {
        list(novel).unwrap().into_iter().map(|c| c.title).collect()
    };
    assert_eq!(titles(&novel), vec!["Salt", "Iron"]);

    // Back to scene 12: the first rename came before it and stays; the second came after it
    // and is undone with scenes 13–14.
    let report = crate::control::rewind(&mut novel, 12, &clock()).unwrap();
    let after_rewind = titles(&novel);
    assert_eq!(after_rewind[0], "Salt");
    assert_ne!(after_rewind[1], "Iron");
    let kept = report
        .kept_in
        .expect("the later scenes are kept on a branch");
    crate::control::switch(&mut novel, &kept).unwrap();
    assert_eq!(titles(&novel), vec!["Salt", "Iron"]);
}
