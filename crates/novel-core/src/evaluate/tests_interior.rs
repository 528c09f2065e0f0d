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

#[test]
fn inner_adverbs_intentions_and_what_nothing_could_change_are_notes() {
    for (line, quoted) in [
        ("Bram grunts in answer, and privately sets him down for the queerest of them.", "Bram grunts"),
        ("Bram limps off, inwardly swollen with pride that the governor should trust him.", "Bram limps off"),
        ("Some small part of him envied his old friend the little house.", "Some small part of him"),
        ("Bram had rehearsed it all the way, and he meant to give away as little as he could.", "he meant to give"),
        ("Nothing in the world would have persuaded Bram that they had not relished it.", "Nothing in the world"),
        ("Bram pulled without a word, certain in his slow old heart that he would not see home.", "Bram pulled"),
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        let f = assert_one(&third(&prose), Check::OtherMind, &prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
}

#[test]
fn a_part_of_a_face_a_plan_told_aloud_and_her_own_intention_are_no_note() {
    for line in [
        "Bram frowned, and a part of his lower lip was caught under his teeth.",
        "At first he meant to paint the room, but afterwards he said it would only upset her.",
        "She meant to give away as little as she could.",
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        assert_none(&third(&prose), Check::OtherMind, &prose);
    }
}

#[test]
fn a_state_after_not_at_all_or_by_now_is_still_a_state() {
    let prose = "Tamsin watched Bram across the table. Bram was by now quite certain that she \
                 had told everything.";
    assert_one(&third(prose), Check::OtherMind, prose, "Bram was by now quite certain");
}

#[test]
fn certainty_by_comparison_denied_intention_tasted_feeling_and_a_companys_mind_are_notes() {
    for (line, quoted) in [
        ("Bram put on his hat, as sure that she had not read it as he was of his own name.", "Bram put on"),
        ("Bram has not the least intention of letting her decide for him.", "Bram has not"),
        ("It had never once entered Bram's head that a woman could talk so long.", "entered Bram's head"),
        ("He could taste the old fear under the tea.", "He could taste"),
        ("Inside him he could hear it still, the voice of thirty years ago.", "Inside him"),
        ("His one grief, lying there, was that he had never fired the gun.", "His one grief"),
        ("Every guest in the house knew that Maud had sung for the last time.", "guest in the house knew"),
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        let f = assert_one(&third(&prose), Check::OtherMind, &prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
}

#[test]
fn her_own_certainty_taste_and_the_talk_of_the_town_are_no_note() {
    for line in [
        "She put on her hat, as sure that he had not read it as she was of her own name.",
        "She had not the least intention of letting him decide for her.",
        "Bram tasted the soup and pushed it away.",
        "Everybody knew that Maud had sung for the last time.",
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        assert_none(&third(&prose), Check::OtherMind, &prose);
    }
}

#[test]
fn another_body_felt_from_inside_a_memory_coming_back_and_what_galls_him_are_notes() {
    for (line, quoted) in [
        ("His knees ached from the long morning over the nets.", "His knees ached"),
        ("Every bone in his body ached from the jolting of the cart.", "Every bone in his body"),
        ("The smell of the oil took Bram back to his first winter at the light.", "Bram"),
        ("The whole absurd morning was coming back to him at once.", "coming back to him"),
        ("The memory of that first wrong scent still galled him.", "galled him"),
        ("The name had gone through him like a draught of cold air.", "gone through him like"),
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        let f = assert_one(&third(&prose), Check::OtherMind, &prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
}

#[test]
fn her_own_aches_and_a_wound_seen_are_no_note() {
    for line in [
        "Her knees ached from the long morning over the nets.",
        "Bram's hand was bandaged where the rope had burned it.",
        "The smell of the oil took her back to her first winter at the light.",
    ] {
        let prose = format!("Tamsin watched Bram across the table. {line}");
        assert_none(&third(&prose), Check::OtherMind, &prose);
    }
}

#[test]
fn she_carries_on_another_woman_when_the_pov_character_is_only_a_place_before() {
    let mut w = world_with_pronouns();
    w.characters[2].facts.insert("pronouns".into(), "she".into());
    let other = "Maud knelt on the footstool at Tamsin's feet. She was hoping with all her \
                 heart to be let go before the summer.";
    let found = run_with(&w, other, PointOfView::DeepThird, Tense::Past);
    let f = assert_one(&found, Check::OtherMind, other, "She was hoping");
    assert_eq!(f.severity, Severity::Note);
    let own = "Tamsin watched Maud kneel on the footstool. She was hoping with all her heart \
               to be let go before the summer.";
    assert_none(&run_with(&w, own, PointOfView::DeepThird, Tense::Past), Check::OtherMind, own);
}

#[test]
fn a_companys_mind_is_not_named_after_its_first_word() {
    let prose = "Tamsin sang. Every guest in the house knew that it was the last time.";
    let f = assert_one(&third(prose), Check::OtherMind, prose, "guest in the house knew");
    assert!(!f.message.contains("Every's"), "{}", f.message);
}

#[test]
fn someone_elses_purpose_and_an_ache_in_their_body_are_notes() {
    for (prose, quoted) in [
        (
            "Tamsin came into the office. Bram clapped her on the shoulder, to hide how shabby \
             the room looked to him.",
            "Bram clapped",
        ),
        (
            "Tamsin read on. Bram told the story slowly, so that the clerk would have to wait \
             for the part about the money.",
            "Bram told",
        ),
        (
            "Tamsin waited at the window. The heat did nothing for the numbness in his two bad \
             fingers.",
            "numbness in his",
        ),
        ("Tamsin held the lamp. Bram said nothing, and his new boots were pinching and his left heel stung.", "his left heel stung"),
    ] {
        let found = third(prose);
        let f = assert_one(&found, Check::OtherMind, prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
    // Her own purpose, and her own ache.
    for prose in [
        "Bram came in. Tamsin kept her voice low, so that she could hear the stairs.",
        "Bram came in. Tamsin sat down, to hide how her hands shook.",
        "Bram came in. There was a dull ache in her back from the long drive.",
    ] {
        assert_none(&third(prose), Check::OtherMind, prose);
    }
}
