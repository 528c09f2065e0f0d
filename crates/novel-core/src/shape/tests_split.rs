//! Splitting a scene where the writer's cursor is: inside a paragraph the paragraph is split,
//! the editor's unsaved text is what is split, a cut at either end is refused, and one undo
//! puts the scene back as it was.

use super::*;
use crate::synthetic;
use crate::tick::tests::clock;

fn scenes(novel: &Novel) -> Vec<(String, String, String)> {
    store::list_scenes(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.title, s.prose))
        .collect()
}

#[test]
fn a_split_at_the_cursor_cuts_the_edited_text_there_and_undoes_in_one_step() {
    let tmp = tempfile::tempdir().unwrap();
    let mut novel = synthetic::generate(&tmp.path().join("n"), 3, &[]).unwrap();
    let before = scenes(&novel);
    let (id, title, prose) = before[1].clone();
    // Unsaved words at the start, and a cut in the middle of the first paragraph.
    let edited = format!("Mara added this. {prose}");
    let first = paragraphs(&edited)[0].clone();
    let at = first
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| first[..i].chars().count())
        .nth(4)
        .expect("a paragraph of a few words");
    assert!(at < first.chars().count());

    let shaped = split_scene_at(&mut novel, 2, &edited, at, &clock()).unwrap();
    assert_eq!((shaped.scene, shaped.scenes), (Some(2), 4));
    let after = scenes(&novel);
    let cut: String = edited.chars().take(at).collect();
    let rest: String = edited.chars().skip(at).collect();
    assert_eq!(after[1], (id, title.clone(), cut.trim().to_string()));
    assert!(after[1].2.starts_with("Mara added this."));
    assert_eq!(after[2].1, format!("{title} (continued)"));
    assert_eq!(after[2].2, rest.trim());
    assert!(
        !after[2].2.starts_with(&paragraphs(&prose)[0][..10]),
        "the new scene begins inside the paragraph"
    );
    assert_eq!(after[3].0, before[2].0, "the next scene moves on by one");
    assert_eq!(shaped.reread, vec![2, 3]);

    undo(&mut novel).unwrap();
    assert_eq!(scenes(&novel), before, "one undo puts the scene back");
}

#[test]
fn a_cut_before_the_first_word_or_after_the_last_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut novel = synthetic::generate(&tmp.path().join("n"), 2, &[]).unwrap();
    let before = scenes(&novel);
    let prose = before[0].2.clone();
    for at in [0, prose.chars().count(), prose.chars().count() + 40] {
        let err = split_scene_at(&mut novel, 1, &prose, at, &clock()).unwrap_err();
        assert!(matches!(err, ShapeError::BadSplitAt), "{at}: {err}");
    }
    assert_eq!(scenes(&novel), before);
}
