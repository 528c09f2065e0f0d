//! Tests of the checks that hold the scene against what a person's record says of them —
//! looks, injuries, age: each rule with sentences it must flag, naming the record and quoting
//! the words, and control sentences with the same words that must pass (another person, a
//! memory, a change shown on the page, the record agreeing).

use serde_json::json;

use super::*;
use crate::config::{PointOfView, Tense};
use crate::model::Character;

fn character(id: &str, name: &str, extra: serde_json::Value) -> Character {
    let mut value = json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1 });
    if let (Some(obj), Some(more)) = (value.as_object_mut(), extra.as_object()) {
        obj.extend(more.clone());
    }
    serde_json::from_value(value).unwrap()
}

/// Tamsin Reed (POV, she, grey-eyed, twenty-six), Bram Hale (he, a grey beard and a scar over
/// his left eye, a broken left leg since scene 4, his father's silver knife in hand), Maud Fenn (she, a red-haired widow of
/// sixty, a broken right arm since scene 5).
fn cast() -> Vec<Character> {
    vec![
        character(
            "C1",
            "Tamsin Reed",
            json!({
                "description": "A courier who keeps her fear folded small.",
                "facts": { "eyes": "grey", "age": "26" }
            }),
        ),
        character(
            "C2",
            "Bram Hale",
            json!({
                "description": "A ferryman with a grey beard and a scar over his left eye.",
                "facts": { "pronouns": "he" },
                "inventory": ["his father's silver knife", "rope"],
                "conditions": [
                    { "name": "broken left leg", "kind": "injury", "since_tick": 4 }
                ]
            }),
        ),
        character(
            "C3",
            "Maud Fenn",
            json!({
                "description": "A red-haired widow of sixty who runs the harbour.",
                "facts": { "pronouns": "she" },
                "conditions": [
                    { "name": "broken right arm", "kind": "injury", "since_tick": 5 },
                    { "name": "old scar", "kind": "injury", "since_tick": 1, "until_tick": 2 }
                ]
            }),
        ),
    ]
}

fn check_as(prose: &str, pov: PointOfView) -> Vec<Finding> {
    let people = cast();
    evaluate(&EvalInput {
        prose,
        pov,
        tense: Tense::Past,
        pov_character: &people[0],
        characters: &people,
        scene_location: None,
        locations: &[],
        lost_items: &[],
        off_page: &[],
        target_words: (1, 10_000),
    })
    .into_iter()
    .filter(|f| f.check == Check::Contradiction)
    .collect()
}

fn check(prose: &str) -> Vec<Finding> {
    check_as(prose, PointOfView::DeepThird)
}

/// One violation, about `record`, quoting `quoted` in its excerpt and message.
fn violation(prose: &str, record: &str, quoted: &str) -> Finding {
    let found = check(prose);
    assert_eq!(found.len(), 1, "{prose:?}: {found:#?}");
    let f = found[0].clone();
    assert_eq!(f.severity, Severity::Violation, "{prose:?}: {f:#?}");
    assert_eq!(f.record.as_deref(), Some(record), "{f:#?}");
    assert!(
        f.excerpt.as_deref().unwrap_or("").contains(quoted),
        "{f:#?}"
    );
    assert!(f.message.contains(quoted), "{f:#?}");
    assert!(f.sentence.is_some() && f.span.is_some(), "{f:#?}");
    f
}

fn silent(prose: &str) {
    let found = check(prose);
    assert!(found.is_empty(), "{prose:?}: {found:#?}");
}

// ---- appearance ----

#[test]
fn eye_and_hair_colour_against_the_record_is_a_violation_that_names_the_record() {
    let f = violation(
        "Tamsin pushed the door open. Maud's black hair was pinned up under a cap.",
        "C3",
        "Maud's black hair",
    );
    assert!(f.message.contains("red-haired"), "{}", f.message);
    assert!(f.message.contains("the description"), "{}", f.message);
    let f = violation(
        "The room was cold. Tamsin rubbed her blue eyes and read the letter again.",
        "C1",
        "her blue eyes",
    );
    assert!(f.message.contains("the fact “eyes”"), "{}", f.message);
    violation(
        "Tamsin sat by the stove. Her eyes were brown in the glass of the window.",
        "C1",
        "Her eyes",
    );
    violation(
        "The red-haired Maud waved from the quay. The fair-haired Maud stood on the quay.",
        "C3",
        "fair-haired Maud",
    );
}

#[test]
fn colours_that_fit_the_record_or_belong_to_someone_else_pass() {
    for prose in [
        // The record agrees, in other words of the same family.
        "Maud's auburn hair was pinned up under a cap.",
        "Tamsin rubbed her steel-grey eyes.",
        // Another colour beside one that fits: greying, streaked.
        "Maud's hair, red going to white, was pinned up.",
        // Someone else's eyes, someone the record does not know.
        "Tamsin looked at the boy. His blue eyes were wet.",
        "Bram's blue eyes followed the boat.",
        // A change of look, a trick of light, a likeness, a memory, a denial.
        "Maud's hair was black with dye now.",
        "In the lamplight Tamsin's eyes were black.",
        "Tamsin's eyes looked blue in that light.",
        "Her eyes were not blue, whatever Bram said.",
        // A bruise, a look.
        "Tamsin touched her black eye and winced.",
        "Tamsin fixed her dark eyes on him.",
        // Clothes and things, not the person.
        "Tamsin wore her blue coat and her brown boots.",
    ] {
        silent(prose);
    }
}

#[test]
fn a_pronoun_that_could_be_someone_else_makes_a_note_not_a_revision() {
    let found = check("Tamsin and Nell sat by the fire. Her blue eyes shone in the heat.");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Note);
    assert!(
        found[0].message.contains("Not certain"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_scar_on_the_wrong_side_and_a_beard_on_a_clean_face_are_violations() {
    violation(
        "Bram turned, and the scar above his right eye caught the light of the stove.",
        "C2",
        "his right eye",
    );
    silent("Bram turned, and the scar above his left eye caught the glow of the stove.");
    // The other side of another part is no contradiction.
    silent("Bram rubbed the scar on his right hand.");
    violation(
        "Bram rubbed his clean-shaven chin and said nothing.",
        "C2",
        "clean-shaven",
    );
    silent("Bram rubbed his beard and said nothing.");
    // A shave on the page is the change shown.
    silent("Bram had shaved at dawn. He rubbed his clean-shaven chin.");
}

#[test]
fn a_disguise_the_record_keeps_suspends_the_looks() {
    let mut people = cast();
    people[2].conditions.push(crate::model::Condition {
        name: "in disguise as a fishwife".into(),
        kind: "disguise".into(),
        since_tick: 6,
        until_tick: None,
        note: String::new(),
    });
    let found = evaluate(&EvalInput {
        prose: "Maud's black hair was pinned up under a cap.",
        pov: PointOfView::DeepThird,
        tense: Tense::Past,
        pov_character: &people[0],
        characters: &people,
        scene_location: None,
        locations: &[],
        lost_items: &[],
        off_page: &[],
        target_words: (1, 10_000),
    });
    assert!(
        found.iter().all(|f| f.check != Check::Contradiction),
        "{found:#?}"
    );
}

// ---- conditions ----

#[test]
fn running_on_a_broken_leg_and_both_arms_with_a_broken_arm_are_violations() {
    let f = violation(
        "The bell rang twice. Bram ran for the door.",
        "C2",
        "Bram ran",
    );
    assert!(f.message.contains("broken left leg"), "{}", f.message);
    assert!(f.message.contains("since scene 4"), "{}", f.message);
    violation(
        "Maud raised both arms and shouted for the boats to come in.",
        "C3",
        "both arms",
    );
    violation(
        "Maud lifted her right arm to wave them off.",
        "C3",
        "her right arm",
    );
}

#[test]
fn an_injury_kept_in_view_healed_or_not_acted_on_passes() {
    for prose in [
        // Someone who is not hurt.
        "Tamsin ran for the door.",
        "Tamsin raised both arms and shouted.",
        // Not a run: a hand through the hair, a shop, a speech gone over.
        "Bram ran a hand through his hair.",
        "Bram ran over the headings of his speech.",
        // Maud is the object: whoever seizes her with both hands, it is not she.
        "Then he comes back, pounces on Maud, and seizing her with both hands, turns her.",
        "Maud ran the harbour like a ship.",
        // The injury on the page: a limp, a crutch, the pain, a sling.
        "Bram limped to the door. Then Bram ran for the boat.",
        "Bram ran for the boat despite the pain.",
        "Maud raised both arms, the sling forgotten.",
        // Healed on the page.
        "The leg had healed by midsummer. Bram ran for the door.",
        // Wish, attempt, memory.
        "Bram wanted to run, but he could not.",
        "Bram remembered how he ran along the quay as a boy.",
        // The good arm.
        "Maud lifted her left arm to wave them off.",
    ] {
        silent(prose);
    }
}

// ---- ages ----

#[test]
fn a_stated_age_far_from_the_record_is_a_violation() {
    let f = violation(
        "Tamsin came down the stair. Maud was twelve, and small for it.",
        "C3",
        "Maud was twelve",
    );
    assert!(f.message.contains("widow of sixty"), "{}", f.message);
    violation(
        "The twelve-year-old Maud sat on the quay.",
        "C3",
        "twelve-year-old Maud",
    );
    violation(
        "Tamsin was in her sixties and tired of the sea.",
        "C1",
        "in her sixties",
    );
    violation("Tamsin is forty years old.", "C1", "forty years old");
}

#[test]
fn ages_within_grace_memories_and_other_numbers_pass() {
    for prose in [
        "Maud was sixty-one, and tired of the sea.",
        "Tamsin was twenty-seven.",
        "Maud was in her early sixties.",
        // Not an age.
        "Maud was forty minutes late.",
        "Tamsin was one of the last to leave.",
        // A memory, a look, a guess.
        "When Maud was twelve, the harbour froze.",
        "Maud looked seventy in the grey light.",
        "Tamsin was nearly thirty, Bram thought.",
        // Someone else's age.
        "Her son was twelve.",
    ] {
        silent(prose);
    }
}

#[test]
fn the_narrators_past_age_in_the_first_person_is_a_memory() {
    let found = check_as(
        "I was twelve, and the sea was everything.",
        PointOfView::First,
    );
    assert!(found.is_empty(), "{found:#?}");
    let found = check_as("I am forty, and the town knows it.", PointOfView::First);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Violation);
}

// ---- possessions ----

#[test]
fn an_item_another_person_holds_used_without_handing_over_is_a_warning() {
    let prose = "The rope would not give. Tamsin drew the silver knife and cut it.";
    let found = check(prose);
    assert_eq!(found.len(), 1, "{found:#?}");
    let f = &found[0];
    assert_eq!(f.severity, Severity::Warning, "the record may lag: {f:#?}");
    assert_eq!(f.record.as_deref(), Some("C2"));
    assert!(
        f.message.contains("his father's silver knife"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("Tamsin drew the silver knife"),
        "{}",
        f.message
    );
    for prose in [
        // The holder uses it.
        "Bram drew the silver knife and cut the rope.",
        // Handed over on the page first.
        "Bram handed her the knife. Tamsin drew the silver knife and cut the rope.",
        // Another of the kind, or her own.
        "Tamsin drew a silver knife from the rack.",
        "Tamsin drew her silver knife.",
        // A generic item is anyone's.
        "Tamsin gripped the rope.",
    ] {
        silent(prose);
    }
}
