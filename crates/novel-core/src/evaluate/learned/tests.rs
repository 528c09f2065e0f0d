//! Tests of the learned reading: the weights file format, the score and its reasons, what a
//! sentence's features are (names as roles, dialogue left out), the notes a model makes (a
//! note, never twice for a sentence a rule flagged), and that the shipped models load and
//! read the head-hops users reported as missed.

use super::super::ctx::Ctx;
use super::super::finding::{Check, Finding, Severity};
use super::super::input::EvalInput;
use super::super::tests_apart::world_with_pronouns;
use super::model::Model;
use super::*;
use crate::config::{PointOfView, Tense};
use crate::model::Character;

fn ctx<'a>(characters: &'a [Character], prose: &'a str) -> Ctx<'a> {
    ctx_in(characters, prose, PointOfView::DeepThird, Tense::Past)
}

fn ctx_in<'a>(characters: &'a [Character], prose: &'a str, pov: PointOfView, tense: Tense) -> Ctx<'a> {
    Ctx::new(EvalInput {
        prose,
        pov,
        tense,
        pov_character: &characters[0],
        characters,
        scene_location: None,
        locations: &[],
        lost_items: &[],
        off_page: &[],
        target_words: (1, 10_000),
    })
}

/// "secretly" weighs enough on its own; everything else nothing.
fn secretly_model() -> Model {
    Model::parse("# test\nbias\t-2\nthreshold\t0.5\nitems\t7\nu=secretly\t5\nu=glad\t0.5\nu=was\t0.1\n")
        .unwrap()
}

#[test]
fn a_weights_file_gives_its_header_and_weights_and_a_bad_line_says_where() {
    let m = secretly_model();
    assert_eq!((m.bias, m.threshold, m.items), (-2.0, 0.5, 7));
    let err = Model::parse("bias\t-2\nu=secretly 5\n").err().unwrap();
    assert!(err.contains("line 2"), "{err}");
    assert!(Model::parse("threshold\t1.5\n").is_err());
    assert!(Model::parse("bias\tmany\n").is_err());
}

#[test]
fn a_score_adds_the_weights_of_the_features_present_and_names_the_heaviest() {
    let m = secretly_model();
    let glad = m.score(&["u=glad".into(), "u=he".into()]);
    assert!((glad.probability - 1.0 / (1.0 + 1.5f32.exp())).abs() < 1e-6);
    assert!(!m.fires(&glad));
    let both = m.score(&["u=glad".into(), "u=secretly".into()]);
    assert!(m.fires(&both));
    assert_eq!(both.reasons, ["u=secretly", "u=glad"]);
}

#[test]
fn names_become_roles_and_dialogue_is_left_out_of_the_features() {
    let w = world_with_pronouns();
    let c = ctx(&w.characters, "Bram told Tamsin, “I was glad of it,” and wished he had stayed.");
    let f = sentence_features(&c, 0);
    for expected in [
        "mode=third_past",
        "first=OTHERM",
        "b=OTHERM_told",
        "b=told_POV",
        "u=QUOTE",
        "u=wished",
        "s=SUBJOTHER",
    ] {
        assert!(f.iter().any(|x| x == expected), "{expected} not in {f:?}");
    }
    assert!(!f.iter().any(|x| x == "u=glad" || x.contains("bram")), "{f:?}");
    assert!(f.windows(2).all(|p| p[0] < p[1]), "sorted, no repeats: {f:?}");
}

#[test]
fn a_model_notes_the_sentence_it_reads_and_leaves_one_a_rule_flagged() {
    let w = world_with_pronouns();
    let prose = "Bram smiled at the lamp. He was secretly glad of the storm. “I am secretly glad,” he said.";
    let c = ctx(&w.characters, prose);
    let m = secretly_model();
    let notes = readings_with(&c, &[], &[(Check::OtherMind, &m)]);
    assert_eq!(notes.len(), 1, "{notes:#?}");
    let n = &notes[0];
    assert_eq!((n.check, n.severity), (Check::OtherMind, Severity::Note));
    assert_eq!(n.sentence.as_deref(), Some("He was secretly glad of the storm."));
    assert!(n.message.contains("“secretly”") && n.message.contains("Tamsin Reed"), "{}", n.message);
    assert!(!n.message.contains("“was”"), "grammar words alone are no reason: {}", n.message);

    let rule = Finding::new(Check::OtherMind, Severity::Violation, "rule".into(), None);
    let rule = Finding {
        sentence: n.sentence.clone(),
        ..rule
    };
    assert!(readings_with(&c, std::slice::from_ref(&rule), &[(Check::OtherMind, &m)]).is_empty());
    // A rule's finding of another family does not silence this one.
    let leak = Finding {
        check: Check::PovLeak,
        ..rule
    };
    assert_eq!(readings_with(&c, &[leak], &[(Check::OtherMind, &m)]).len(), 1);
}

#[test]
fn the_shipped_models_load_and_read_a_reported_head_hop_but_not_plain_action() {
    for (_, items) in trained_items() {
        assert!(items > 0, "the weights say what they were trained on");
    }
    let w = world_with_pronouns();
    let hop = "Tamsin set the lamp down. Across the room Bram felt a cold dread settle in his stomach and wished he had stayed home.";
    let notes = readings(&ctx(&w.characters, hop), &[]);
    assert!(
        notes.iter().any(|n| n.check == Check::OtherMind && n.severity == Severity::Note),
        "{notes:#?}"
    );
    let plain = "Tamsin climbed the stairs to the lamp room and trimmed the wick. Bram carried the oil up after her and set it by the door.";
    let notes = readings(&ctx(&w.characters, plain), &[]);
    assert!(notes.is_empty(), "{notes:#?}");
}

#[test]
fn the_pov_characters_own_guess_silences_the_mind_reading_but_not_the_leak_reading() {
    let w = world_with_pronouns();
    let m = secretly_model();
    for (prose, notes) in [
        ("Bram smiled at the lamp. He was secretly glad of the storm.", 1),
        ("Bram smiled at the lamp. He was secretly glad of the storm, she guessed.", 0),
        ("Bram smiled at the lamp. She could tell he was secretly glad of the storm.", 0),
        // The feeling in her own body is hers.
        ("Bram looked up secretly from the bench, and her heart went cold.", 0),
        ("Bram looked up secretly from the bench, and his heart went cold.", 1),
    ] {
        let c = ctx(&w.characters, prose);
        assert_eq!(readings_with(&c, &[], &[(Check::OtherMind, &m)]).len(), notes, "{prose}");
    }
    let c = ctx(&w.characters, "Bram smiled. She could tell he was secretly glad of the storm.");
    assert_eq!(readings_with(&c, &[], &[(Check::PovLeak, &m)]).len(), 1);
}

#[test]
fn a_possessive_is_read_as_the_pov_characters_or_someone_elses() {
    let w = world_with_pronouns();
    let c = ctx(&w.characters, "Bram did not look up, and her heart went cold while his face stayed calm.");
    let f = sentence_features(&c, 0);
    for expected in ["p=OWNPOV_heart", "p=OWNOTHER_face"] {
        assert!(f.iter().any(|x| x == expected), "{expected} not in {f:?}");
    }
}

/// A tense model that fires on a past verb the rules read in a present-tense novel, and a
/// person model that fires on "i" in third-person present narration.
fn voice_models() -> (Family, Family) {
    fn tense() -> Model {
        Model::parse("bias\t-2\nthreshold\t0.5\nitems\t3\nt=third_present:past_event\t5\n").unwrap()
    }
    fn person() -> Model {
        Model::parse("bias\t-2\nthreshold\t0.5\nitems\t3\nu=third_present:i\t5\n").unwrap()
    }
    (
        Family { check: Check::TenseDrift, model: LazyLock::new(tense) },
        Family { check: Check::PersonDrift, model: LazyLock::new(person) },
    )
}

#[test]
fn voice_features_carry_the_mode_the_rules_tense_reading_and_the_sentence_before() {
    let w = world_with_pronouns();
    let c = ctx_in(
        &w.characters,
        "Bram takes a seat by the fire. He looked round the room and then turned to Tamsin.",
        PointOfView::DeepThird,
        Tense::Present,
    );
    let readings = voice::tense_readings(&c);
    let second = readings[1].as_deref().expect("a narration sentence with a tense");
    let f = voice_features(&c, 1, second);
    for expected in [
        "mode=third_present",
        "t=third_present:past_event",
        "t=third_present:past:looked",
        "t=third_present:before_present_event",
        "u=third_present:looked",
        "b=third_present:to_POV",
    ] {
        assert!(f.iter().any(|x| x == expected), "{expected} not in {f:?}");
    }
    assert!(!f.iter().any(|x| x == PERSON_CUE), "no first-person word: {f:?}");
    // Dialogue alone has no tense to read.
    let c = ctx_in(&w.characters, "“Come in,” said Bram. “Sit.”", PointOfView::DeepThird, Tense::Past);
    assert!(voice::tense_readings(&c)[1].is_none());
}

#[test]
fn the_person_reading_scores_only_a_sentence_whose_words_could_drift() {
    let w = world_with_pronouns();
    for (prose, cue) in [
        ("Keeping pace with him, I leave Bram at his own door.", true),
        ("Oh my god, not again.", false),
        ("The plaque by the door read: HERE I STOOD, AND HERE I FELL.", false),
        ("She read the note again: Meet me at the harbour, and come alone.", false),
        ("Bram left her at the door and walked on.", false),
    ] {
        let c = ctx_in(&w.characters, prose, PointOfView::DeepThird, Tense::Past);
        let f = voice_features(&c, 0, &[]);
        assert_eq!(f.iter().any(|x| x == PERSON_CUE), cue, "{prose}: {f:?}");
    }
    // In the first person, the narrator's name or "she" is where drift can be.
    let c = ctx_in(&w.characters, "Tamsin set the lamp down.", PointOfView::First, Tense::Past);
    assert!(voice_features(&c, 0, &[]).iter().any(|x| x == PERSON_CUE));
}

#[test]
fn voice_notes_are_notes_and_a_family_the_rules_found_adds_none() {
    let w = world_with_pronouns();
    let (tense, person) = voice_models();
    let prose = "Bram takes a seat by the fire. He looked round the room and then turned to Tamsin.";
    let c = ctx_in(&w.characters, prose, PointOfView::DeepThird, Tense::Present);
    let notes = voice_readings_with(&c, &[], &[&tense, &person]);
    assert_eq!(notes.len(), 1, "{notes:#?}");
    assert_eq!((notes[0].check, notes[0].severity), (Check::TenseDrift, Severity::Note));
    assert!(notes[0].message.contains("present tense"), "{}", notes[0].message);
    let rule = Finding::new(Check::TenseDrift, Severity::Note, "rule".into(), None);
    assert!(voice_readings_with(&c, &[rule], &[&tense, &person]).is_empty());

    let c = ctx_in(
        &w.characters,
        "Bram left. Keeping pace with him, I leave him at his own door.",
        PointOfView::DeepThird,
        Tense::Present,
    );
    let notes = voice_readings_with(&c, &[], &[&tense, &person]);
    assert!(notes.iter().any(|n| n.check == Check::PersonDrift), "{notes:#?}");
}
