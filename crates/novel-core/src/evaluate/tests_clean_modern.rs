//! Tests of sentences a writer's model drafts in clean close third or first person that the
//! checks once took for a break: the POV character's own alias shared with a relative's
//! name, her pride in someone, how little someone said, a look with a parenthesis in it, a
//! knowing look, the narrator's name in what someone else wrote, hands behind a back, an oath
//! or a resolve about the future, a letter tagged "she wrote", and a guess that covers what
//! someone would never admit. Each has a control in the same words that is still a finding.

use super::tests::{assert_none, run_with};
use super::tests_apart::world_with_pronouns;
use super::*;
use crate::config::{PointOfView, Tense};

fn third(prose: &str) -> Vec<Finding> {
    run_with(&world_with_pronouns(), prose, PointOfView::DeepThird, Tense::Past)
}

fn minds(found: &[Finding]) -> Vec<&Finding> {
    found.iter().filter(|f| f.check == Check::OtherMind).collect()
}

#[test]
fn an_alias_of_the_pov_character_is_hers_though_a_relatives_name_ends_in_it() {
    let mut w = world_with_pronouns();
    w.characters[0].aliases.push("Reed".into());
    let mut mother = w.characters[2].clone();
    mother.id = "C9".into();
    mother.name = "Mrs. Reed".into();
    mother.aliases.clear();
    w.characters.push(mother);
    let prose = "The lamp guttered. Reed was secretly afraid that the oil would not last the night.";
    let found = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
    assert_none(&found, Check::OtherMind, prose);
    // The relative by her own full name is still someone else.
    let prose = "The lamp guttered. Mrs. Reed was secretly afraid that the oil would not last the night.";
    let found = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
    assert!(!minds(&found).is_empty(), "{found:#?}");
}

#[test]
fn her_pride_in_him_and_how_little_he_said_are_no_mind_of_his() {
    for prose in [
        "Tamsin watched Bram haul the line. She felt a glow of pride in him that she would not have shown.",
        "Tamsin took no pleasure in him that evening.",
        "Bram came in from the rain. He did not say much.",
        "Bram put the letter back very carefully, as a man puts away a thing he is afraid of breaking.",
    ] {
        assert_none(&third(prose), Check::OtherMind, prose);
    }
    for prose in [
        "Tamsin watched Bram haul the line. A glow of pride rose in him.",
        "Bram came in from the rain. He was frozen, though he would not tell her so.",
    ] {
        assert!(!minds(&third(prose)).is_empty(), "{prose}");
    }
}

#[test]
fn a_look_split_by_a_parenthesis_and_a_knowing_look_are_seen() {
    for prose in [
        "Bram stretched his legs toward the grate and looked, for once, thoroughly pleased with the world.",
        "Bram was watching her over his pipe with a sly, knowing look.",
    ] {
        assert_none(&third(prose), Check::OtherMind, prose);
    }
    let prose = "Bram stretched his legs toward the grate, thoroughly pleased with the world.";
    assert!(!minds(&third(prose)).is_empty(), "{prose}");
}

#[test]
fn the_narrators_name_in_what_another_wrote_is_no_person_drift() {
    let w = world_with_pronouns();
    let run = |prose: &str| run_with(&w, prose, PointOfView::First, Tense::Past);
    let prose = "I went ashore alone. Bram was entering in the log that the girl Tamsin had gone ashore against orders.";
    assert_none(&run(prose), Check::PersonDrift, prose);
    for prose in [
        "I went ashore alone. The girl Tamsin had gone ashore against orders.",
        "The lamp was lit, so that Tamsin could see the ledger.",
    ] {
        assert!(
            run(prose).iter().any(|f| f.check == Check::PersonDrift),
            "{prose}"
        );
    }
}
#[test]
fn hands_behind_a_back_an_oath_and_a_resolve_are_no_narrator_knowledge() {
    for prose in [
        "Tamsin stood at the window with her hands behind her back.",
        "She splashed her face at the basin. Last night she swore it would be the last time.",
        "Tamsin locked the office door. She told herself she would never set foot in it again.",
    ] {
        assert_none(&third(prose), Check::PovLeak, prose);
    }
    for prose in [
        "Bram took the key from the drawer behind her back.",
        "Tamsin locked the office door. She would never set foot in it again.",
    ] {
        assert!(
            third(prose).iter().any(|f| f.check == Check::PovLeak),
            "{prose}"
        );
    }
}

#[test]
fn a_letter_tagged_she_wrote_is_no_person_drift() {
    let prose = "Tamsin took a fresh sheet. I cannot make the figures come right, she wrote, however many times I add them.";
    assert_none(&third(prose), Check::PersonDrift, prose);
    let prose = "Tamsin took a fresh sheet. I cannot make the figures come right, however many times I add them.";
    assert!(
        third(prose).iter().any(|f| f.check == Check::PersonDrift),
        "{prose}"
    );
}

#[test]
fn a_guess_marked_before_or_after_covers_what_he_would_never_admit() {
    let w = world_with_pronouns();
    let first = |prose: &str| run_with(&w, prose, PointOfView::First, Tense::Present);
    for prose in [
        "Bram laughs at me about the paper again. I think he is frightened, really, though he would never admit it.",
        "Bram glances at Orrin in the dark. I think he has come to respect him more than he would ever say.",
    ] {
        assert_none(&first(prose), Check::OtherMind, prose);
    }
    for prose in [
        "Bram laughs at me about the paper again. He is frightened, really, though he would never admit it.",
        "Bram glances at Orrin in the dark. He has come to respect him more than he would ever say.",
    ] {
        assert!(!minds(&first(prose)).is_empty(), "{prose}");
    }
    let prose = "Bram held her hand. He was anxious about the boat, no doubt; his voice had the quick, hard sound.";
    assert_none(&third(prose), Check::OtherMind, prose);
    let prose = "Bram held her hand. He was anxious about the boat; his voice had the quick, hard sound.";
    assert!(!minds(&third(prose)).is_empty(), "{prose}");
}

#[test]
fn what_happens_after_the_pov_character_has_gone_is_a_leak_unless_they_still_hear_it() {
    use super::tests::{of, world};
    for (prose, pov) in [
        (
            "Tamsin said good night and went up. When she had gone up, Bram told the clerk the \
             rest, and the clerk wrote it down.",
            PointOfView::DeepThird,
        ),
        (
            "I said good night and went out. As the street door shut behind me, Bram asked the \
             clerk whether I could be trusted.",
            PointOfView::First,
        ),
        (
            "Bram drove off. Past the bend where Tamsin could no longer see him, he stopped the \
             cart and got down.",
            PointOfView::DeepThird,
        ),
    ] {
        let found = run_with(&world(), prose, pov, Tense::Past);
        assert_eq!(of(&found, Check::PovLeak).len(), 1, "{prose}: {found:#?}");
    }
    for (prose, pov) in [
        (
            "I said good night and went out. As the street door shut behind me, I heard Bram \
             laugh.",
            PointOfView::First,
        ),
        // Someone else gone is no leak.
        (
            "Bram said good night and went up. When he had gone up, Tamsin locked the ledger \
             away.",
            PointOfView::DeepThird,
        ),
    ] {
        let found = run_with(&world(), prose, pov, Tense::Past);
        assert!(of(&found, Check::PovLeak).is_empty(), "{prose}: {found:#?}");
    }
}

#[test]
fn a_report_after_an_abbreviation_and_a_guess_marked_before_are_no_leak() {
    use super::tests::{of, world};
    for (prose, pov) in [
        (
            "Bram tells Mr. Fenn that his nerves are ruined for good and that he will never \
             smile again.",
            PointOfView::DeepThird,
        ),
        (
            "The officer passes me on the quay as though I were a fly. Very likely he has no \
             idea that I exist.",
            PointOfView::First,
        ),
    ] {
        let found = run_with(&world(), prose, pov, Tense::Present);
        assert!(of(&found, Check::PovLeak).is_empty(), "{prose}: {found:#?}");
    }
    // Unmarked, the same is a leak.
    let prose = "The officer passes me on the quay as though I were a fly. He has no idea that I exist.";
    let found = run_with(&world(), prose, PointOfView::First, Tense::Present);
    assert_eq!(of(&found, Check::PovLeak).len(), 1, "{found:#?}");
}

#[test]
fn a_first_person_narrator_among_those_who_did_not_know_is_hindsight_or_a_note() {
    use super::tests::{of, world};
    // Said to be hindsight: no finding.
    let prose = "I carried on a feud with him for months. What I did not know then, and was told \
                 only afterwards, is that he had asked to be moved on my account.";
    let found = run_with(&world(), prose, PointOfView::First, Tense::Past);
    assert!(of(&found, Check::PovLeak).is_empty(), "{found:#?}");
    // Not said: a note, since the narrator may have learned it since.
    let prose = "We went down into the vault. None of us noticed that one of the flagstones had \
                 already been lifted.";
    let found = run_with(&world(), prose, PointOfView::First, Tense::Past);
    let leaks = of(&found, Check::PovLeak);
    assert_eq!(leaks.len(), 1, "{found:#?}");
    assert_eq!(leaks[0].severity, Severity::Note);
    // The narrator's own resolve is no foreknowledge.
    let prose = "I tried to lift the bed yesterday until I was lame. Today I will not try it again.";
    let found = run_with(&world(), prose, PointOfView::First, Tense::Present);
    assert!(of(&found, Check::PovLeak).is_empty(), "{found:#?}");
}
