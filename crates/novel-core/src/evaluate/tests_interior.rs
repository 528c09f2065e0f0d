//! Tests of the inner life told by where it happens (`interior.rs`): a heart, a mind or a head
//! at work, something inside someone, a memory brought back, a purpose kept from the POV
//! character, a certainty in a participle. Each is a note about someone else, with controls in
//! the same words: the POV character's own, a gesture, a look from outside, her own thought
//! leading in.

use super::tests::{assert_none, assert_one, run_with};
use super::tests_apart::world_with_pronouns;
use super::*;
use crate::config::{PointOfView, Tense};

fn third(prose: &str) -> Vec<Finding> {
    run_with(&world_with_pronouns(), prose, PointOfView::DeepThird, Tense::Past)
}

#[test]
fn another_characters_heart_mind_or_head_at_work_is_a_note() {
    for (line, quoted) in [
        ("His heart was fluttering with a hope he had not dared to speak of.", "His heart"),
        ("His mind, as he lay there, ran on the shilling he had kept back.", "His mind"),
        ("Every shot of the day was going through his head again.", "his head"),
        ("Relief loosened something in his chest that had been clenched for years.", "his chest"),
        ("He laughed, for in his dream he was home again on the river.", "his dream"),
        ("The old terror was closing round his heart.", "his heart"),
        ("The brass lid brought back to him the winter his brother was taken.", "him"),
        ("He kept his gloves on so that she should not see how his hands shook.", "He kept"),
        ("He was out by the back way, so that he would not have to look her in the face.", "He was out"),
        ("He did not believe it, being quite sure that the maid had it.", "He did not"),
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        let f = assert_one(&third(&prose), Check::OtherMind, &prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
}

#[test]
fn her_own_heart_a_gesture_a_look_or_her_own_thought_is_no_note() {
    for line in [
        "Her heart was fluttering with a hope she had not dared to speak of.",
        "Bram laid his hand on his heart and bowed.",
        "Bram put the letter in his breast pocket.",
        "Bram set his hat on his head and went out.",
        "Bram seemed shut up in his own thoughts.",
        "Bram's heart was in the right place, whatever the town said.",
        "She thought of how he had locked it in his heart for so many years.",
        "He kept his gloves on so that Maud should not see the ink.",
        "She kept her gloves on so that he should not see how her hands shook.",
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        assert_none(&third(&prose), Check::OtherMind, &prose);
    }
}
