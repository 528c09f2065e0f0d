//! Tests of person drift beyond "I" and the narrator's name: a narrator's "we" in
//! third-person narration (a note, since older novels keep an authorial "we"), with a voice
//! quoted without marks as the control; and a first-person narrator called by the role their
//! record gives them before a verb the verb list leaves out ("His wife lay there").

use super::tests::{assert_none, run_with};
use super::tests_apart::{of_check, world_with_pronouns};
use super::*;
use crate::config::{PointOfView, Tense};

fn person(prose: &str, pov: PointOfView, tense: Tense) -> Vec<Finding> {
    of_check(prose, pov, tense, Check::PersonDrift)
}

#[test]
fn a_narrators_we_in_third_person_narration_is_a_note() {
    for (prose, tense) in [
        (
            "Bram mounts beside the coachman, turns up his collar, and we are away through the \
             sleeping streets.",
            Tense::Present,
        ),
        (
            "Tamsin entered the park and walked through the alleys where we had walked four \
             years before.",
            Tense::Past,
        ),
    ] {
        let found = person(prose, PointOfView::DeepThird, tense);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
        assert_eq!(found[0].severity, Severity::Note);
        assert!(found[0].message.contains("“we”"), "{}", found[0].message);
    }
}

#[test]
fn a_voice_quoted_without_marks_and_dialogue_are_not_a_narrators_we() {
    for prose in [
        "Tamsin heard the strange voice again. We cannot give ourselves, it said: we are our own.",
        "\"We shall be late,\" said Bram, and Tamsin laughed.",
    ] {
        let w = world_with_pronouns();
        assert_none(
            &run_with(&w, prose, PointOfView::DeepThird, Tense::Past),
            Check::PersonDrift,
            prose,
        );
    }
}

#[test]
fn a_first_person_narrator_called_by_her_role_before_lay_is_a_note() {
    let mut w = world_with_pronouns();
    w.characters[0].description = "A young wife confined to the house, who keeps a journal.".into();
    let prose = "Bram was asleep and I hated to waken him, so I kept still. His wife lay there for \
                 hours, watching the paper.";
    let found: Vec<Finding> = run_with(&w, prose, PointOfView::First, Tense::Past)
        .into_iter()
        .filter(|f| f.check == Check::PersonDrift)
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("His wife lay"), "{}", found[0].message);
}

#[test]
fn an_authorial_we_beside_to_say_and_the_narrators_chronicler_are_person_drift() {
    // "Bram said": a tag with a name is no voice quoted without marks.
    let prose = "Bram said nothing, and we are away through the sleeping streets.";
    assert_eq!(person(prose, PointOfView::DeepThird, Tense::Present).len(), 1, "{prose}");
    let chronicler = "\"Put on your hat and come.\" Bram's chronicler put on his hat at once, \
                      very glad of the excuse.";
    let found = person(chronicler, PointOfView::First, Tense::Past);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("chronicler put"), "{}", found[0].message);
}

/// The person-drift findings on `prose` told in the first person by a narrator with
/// `description` (and `aliases`), Bram being another character.
fn narrator_findings(description: &str, aliases: &[&str], prose: &str) -> Vec<Finding> {
    let mut w = world_with_pronouns();
    w.characters[0].description = description.into();
    w.characters[0].aliases = aliases.iter().map(|a| (*a).to_string()).collect();
    run_with(&w, prose, PointOfView::First, Tense::Past)
        .into_iter()
        .filter(|f| f.check == Check::PersonDrift)
        .collect()
}

#[test]
fn a_narrator_called_by_another_word_for_their_role_or_by_the_writing_is_a_note() {
    let friend = "Bram's friend and chronicler, an army doctor.";
    for (description, prose, quoted) in [
        (friend, "Bram whispered in my ear. Bram's companion nodded, and sat down upon the bed.", "companion nodded"),
        (friend, "Bram moved the lamp onto the table, while his friend stood by the door in his stockinged feet.", "friend stood"),
        (
            "A young wife confined to the house, who keeps a journal.",
            "I quite enjoy the room now. The young wife in the nursery has been very clever to-day.",
            "wife in the nursery has",
        ),
        (
            "A young wife confined to the house, who keeps a journal.",
            "It is a very bad habit, for, you see, the writer of these pages does not sleep.",
            "writer of these pages does",
        ),
    ] {
        let found = narrator_findings(description, &[], prose);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
        assert_eq!(found[0].severity, Severity::Note, "{prose}");
        assert!(found[0].message.contains(quoted), "{prose}: {}", found[0].message);
    }
}

#[test]
fn a_strangers_wife_and_a_role_the_record_does_not_give_are_not_the_narrator() {
    for (description, prose) in [
        (
            "A young wife confined to the house, who keeps a journal.",
            "It is let so cheaply because the last tenant's wife died in the nursery.",
        ),
        // "friend" is not in the record: the companion is someone else's.
        ("An army doctor in civil practice.", "Bram whispered in my ear. Bram's companion nodded."),
    ] {
        let found = narrator_findings(description, &[], prose);
        assert!(found.is_empty(), "{prose}: {found:#?}");
    }
}

#[test]
fn an_honorific_the_record_gives_as_an_alias_names_the_narrator() {
    let prose = "\"Our party is complete,\" said Bram, and handed the Doctor his hunting crop to hold.";
    let found = narrator_findings("Bram's friend, an army doctor.", &["Doctor"], prose);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("“Doctor”"), "{}", found[0].message);
    // Not derived from a longer name: "Doctor Bram Hale" does not make every "Doctor" his.
    let found = narrator_findings("Bram's friend, an army doctor.", &[], prose);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_narrator_named_after_a_time_with_that_or_called_by_the_telling_or_a_known_possessor() {
    // "All that evening": a time, not a report of what others said.
    let found = narrator_findings(
        "A notary's daughter who keeps the books.",
        &[],
        "I locked the strong-room. All that evening Tamsin kept one hand upon the key.",
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Violation);
    let prose = "Bram stood at the corner, and the man who chronicles his adventures waited at his elbow.";
    let found = narrator_findings("Bram's friend and chronicler, an army doctor.", &[], prose);
    assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    assert!(
        found[0].message.contains("man who chronicles his adventures waited"),
        "{}",
        found[0].message
    );
    // "the clerk's wife" is the narrator when the cast has a clerk: her husband.
    let mut w = world_with_pronouns();
    w.characters[0].description = "A young wife and mother, who keeps a journal.".into();
    w.characters[1].description = "Her husband, a clerk at the harbour office.".into();
    let prose = "He seems very queer sometimes, and the clerk's wife has caught him looking at the paper.";
    let found: Vec<Finding> = run_with(&w, prose, PointOfView::First, Tense::Past)
        .into_iter()
        .filter(|f| f.check == Check::PersonDrift)
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("wife has"), "{}", found[0].message);
}
