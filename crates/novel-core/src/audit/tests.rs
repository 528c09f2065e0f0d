//! Unit tests of the audit's measures; the labelled corpus of planted faults is
//! `tests/engine/audit_corpus.rs`.

use super::voice::profile;
use super::words::{jaccard, sentences, shingles, words};

#[test]
fn words_and_sentences_are_split_as_a_reader_would() {
    assert_eq!(
        words("Bram's knife—it's gone."),
        ["bram's", "knife", "it's", "gone"]
    );
    let s = sentences("\"Go,\" she said. He went! Did he? Yes.\n\nThen rain");
    assert_eq!(
        s,
        [
            "\"Go,\" she said.",
            "He went!",
            "Did he?",
            "Yes.",
            "Then rain"
        ]
    );
}

#[test]
fn shingle_overlap_is_one_for_the_same_text_and_low_for_other_text() {
    let a = shingles(
        &words("the tide came in over the black stones of the quay"),
        3,
    );
    let b = shingles(
        &words("a lamp burned all night in the window of the printer"),
        3,
    );
    assert!((jaccard(&a, &a) - 1.0).abs() < 1e-9);
    assert!(jaccard(&a, &b) < 0.1);
}

#[test]
fn a_first_person_present_scene_profiles_apart_from_a_third_person_past_one() {
    let third = "She walked down to the quay and waited for the boat. The water was dark. \
        He had promised to come, and she believed him, though the bell had rung twice already. "
        .repeat(12);
    let first = "I run. I do not stop. My hands shake and I see the lamps go out one by one, \
        and I know what that means. "
        .repeat(12);
    let (a, b) = (profile(&third).unwrap(), profile(&first).unwrap());
    assert!(a[6] > 0.8 && b[6] < 0.3, "past share {} vs {}", a[6], b[6]);
    assert!(
        a[7] < 0.2 && b[7] > 0.8,
        "first-person share {} vs {}",
        a[7],
        b[7]
    );
    assert!(profile("Too short.").is_none());
}
