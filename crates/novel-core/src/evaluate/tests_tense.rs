//! Tests of tense drift inside long sentences: a subject with "of" in it ("the memory of the
//! pistol flashes"), a verb of becoming ("the smell grows stronger"), "can hear" in past
//! narration, a present-tense story slipping into the past after "until" or "while", a denied
//! deed ("did not so much as turn"), and the controls a first-person narrator's telling and a
//! comparison need.

use super::tests::{assert_none, run_with};
use super::tests_apart::{of_check, world_with_pronouns};
use super::*;
use crate::config::{PointOfView, Tense};

fn drift(prose: &str, pov: PointOfView, tense: Tense) -> Vec<Finding> {
    of_check(prose, pov, tense, Check::TenseDrift)
}

#[test]
fn a_present_verb_inside_a_long_past_sentence_is_drift() {
    for prose in [
        "Tamsin listened. She heard a gentle sound, and then all was silent once more, though \
         the smell grows stronger.",
        "Tamsin stood still. As she was thinking, the memory of the pistol flashes into her \
         mind, and she set her face to the hill.",
        "The evening deepened. Down far in the avenue she can hear a street organ playing, and \
         she knew the air.",
    ] {
        let found = drift(prose, PointOfView::DeepThird, Tense::Past);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
}

#[test]
fn a_past_verb_after_until_while_or_a_denied_deed_in_present_narration_is_drift() {
    for (prose, pov) in [
        (
            "Tamsin passes out into the streets and walks on, until at the corner she stopped \
             to let a dray go by.",
            PointOfView::DeepThird,
        ),
        (
            "I lie here on this bed and follow the pattern, while down in the garden Maud \
             walked the baby up and down.",
            PointOfView::First,
        ),
        (
            "Bram waits for her answer. Tamsin did not so much as turn her head, and he is \
             left standing.",
            PointOfView::DeepThird,
        ),
    ] {
        let found = drift(prose, pov, Tense::Present);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
}

#[test]
fn the_narrators_telling_a_past_clause_before_while_and_a_colour_turning_are_not_drift() {
    let w = world_with_pronouns();
    for (prose, pov, tense) in [
        (
            "He was a friend of Bram's, and so the mention of his name leads me on to speak of \
             our cook.",
            PointOfView::First,
            Tense::Past,
        ),
        (
            "I write this at the same desk, in the same room, twenty years after.",
            PointOfView::First,
            Tense::Past,
        ),
        (
            "Tamsin walks to the window, as she did every evening when her father was alive.",
            PointOfView::DeepThird,
            Tense::Present,
        ),
        (
            "Tamsin watched the sky. The colour of the water turned grey as the sun went down.",
            PointOfView::DeepThird,
            Tense::Past,
        ),
    ] {
        assert_none(&run_with(&w, prose, pov, tense), Check::TenseDrift, prose);
    }
}

#[test]
fn a_result_clause_an_unlisted_verb_after_a_name_and_and_then_are_read_for_tense() {
    for (prose, tense) in [
        ("Tamsin set the cup down so hard that the saucer cracks in two.", Tense::Past),
        ("Tamsin watched the water. Bram plumps a round-shot down on the deck.", Tense::Past),
        ("Bram waits at the door, and then the gig drove away.", Tense::Present),
    ] {
        let found = drift(prose, PointOfView::DeepThird, tense);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
}

#[test]
fn a_report_after_that_and_a_maxim_in_we_are_not_drift() {
    let w = world_with_pronouns();
    for prose in [
        "Tamsin knew that the harbour closes at six.",
        "Tamsin heard the voice again. We cannot give ourselves, it said: we are our own.",
    ] {
        assert_none(&run_with(&w, prose, PointOfView::DeepThird, Tense::Past), Check::TenseDrift, prose);
    }
}

#[test]
fn a_thing_doing_two_things_a_count_or_a_long_phrase_before_its_verb_is_read_for_tense() {
    for prose in [
        "Tamsin waited by the ventilator. The snake hisses and slides back through the hole.",
        "Tamsin sat on at her desk. Outside, the church clock strikes nine.",
        "Two hours passed. Then a single bright light shines out in front of them.",
    ] {
        let found = drift(prose, PointOfView::DeepThird, Tense::Past);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    // A plural noun and another after "and" are no verbs; nor is a count after a noun's
    // plural.
    for prose in [
        "Tamsin walked among the graves. The stone crosses and headstones were white with snow.",
        "Tamsin counted the coins. The purse clasps and buttons were of silver.",
    ] {
        let w = world_with_pronouns();
        assert_none(&run_with(&w, prose, PointOfView::DeepThird, Tense::Past), Check::TenseDrift, prose);
    }
}

#[test]
fn the_next_event_after_a_time_clause_then_there_is_an_opening_adverb_or_i_am_doing_is_drift() {
    for prose in [
        "A gentle sound came from the ventilator. The instant that we heard it, Bram springs \
         from the bed.",
        "A slow step paused outside the door. Then there is a loud and authoritative tap.",
        "From my place I could look over the case. Suddenly my eyes catch the glint of a light.",
        "The men came aboard one by one. I am lying all this while doubled in the bottom of \
         the barrel.",
        "We waited in the dark. On the table stands a dark-lantern with the shutter half open.",
    ] {
        let found = drift(prose, PointOfView::First, Tense::Past);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    // The narrator's telling, a report of what was heard, and a timeless "there is".
    for prose in [
        "I had been sitting up late. I am writing these lines many years after.",
        "I had been sitting up late. There is no doubt that he was the cleverest man I knew.",
        "A gentle sound came. The moment that I heard it, I knew what it was.",
    ] {
        let w = world_with_pronouns();
        assert_none(&run_with(&w, prose, PointOfView::First, Tense::Past), Check::TenseDrift, prose);
    }
}

#[test]
fn let_after_a_name_a_past_before_the_next_event_and_a_past_beside_is_writing_are_drift() {
    for prose in [
        "The carriage rattles on through the dark streets. Bram let down the window, put out his \
         head, and called to the driver.",
        "Tamsin carries the handkerchief to the lamp. She studied the name for a long while \
         before she folded it into her pocket.",
        "The snow is falling again. Then, as Tamsin is writing these lines, the lamp guttered \
         and went out.",
    ] {
        let found = drift(prose, PointOfView::DeepThird, Tense::Present);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    // A participle in a phrase with no verb; nouns in "-s" joined by "and".
    let w = world_with_pronouns();
    let prose = "The night is dark. Contrast enough between Tamsin shut up in her carriage and \
                 Bram shut up in his.";
    assert_none(&run_with(&w, prose, PointOfView::DeepThird, Tense::Present), Check::TenseDrift, prose);
    let prose = "He went on talking. I could make nothing of his winks and pinches at the time.";
    assert_none(&run_with(&w, prose, PointOfView::First, Tense::Past), Check::TenseDrift, prose);
}

#[test]
fn an_action_going_on_in_a_relative_clause_is_drift_and_a_way_of_life_is_not() {
    let prose = "Bram came in from the rain. Gabriel, who is still holding the hall door open \
                 against the cold, watched his wife come down the stairs.";
    assert_eq!(drift(prose, PointOfView::DeepThird, Tense::Past).len(), 1, "{prose}");
    let prose = "Our visitor looked about him. Our visitor, who is fumbling in the pocket of his \
                 great-coat, drew out a dirty newspaper.";
    assert_eq!(drift(prose, PointOfView::First, Tense::Past).len(), 1, "{prose}");
    let w = world_with_pronouns();
    let prose = "I had not seen him for years. Bram, who is living in Sussex these days, wrote \
                 to me last week.";
    assert_none(&run_with(&w, prose, PointOfView::First, Tense::Past), Check::TenseDrift, prose);
}

#[test]
fn a_past_clause_joined_to_a_present_one_is_drift_and_a_participles_phrase_is_not() {
    for prose in [
        "John is away all day. I lie on the great bed, and I could see the smooch along the \
         baseboard.",
        "John is away all day. John is sitting downstairs with his papers, and I was creeping \
         round and round the room.",
    ] {
        let found = drift(prose, PointOfView::First, Tense::Present);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    let w = world_with_pronouns();
    for prose in [
        "Tamsin comes in with her eyes red and her handkerchief crushed in one fist.",
        "Tamsin sits turning over in her mind the lady in the veil and the coin she gave him.",
    ] {
        assert_none(&run_with(&w, prose, PointOfView::DeepThird, Tense::Present), Check::TenseDrift, prose);
    }
}

#[test]
fn a_verb_after_a_comparison_closed_by_a_comma_or_after_a_participle_aside_is_read() {
    for prose in [
        "Bram muttered a curse, pushed back his chair, and, with his face set like a mask, \
         climbs the stairs to the landing.",
        "Bram bowed, answered him with a cold civility, and, seeing Tamsin come, turns away to \
         the window.",
    ] {
        let found = drift(prose, PointOfView::DeepThird, Tense::Past);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    // The comparison's own verb: anyone's habit.
    let w = world_with_pronouns();
    let prose = "Bram read it not aloud, but moving his lips as a priest does when he reads the prayers.";
    assert_none(&run_with(&w, prose, PointOfView::DeepThird, Tense::Past), Check::TenseDrift, prose);
}

#[test]
fn a_less_common_verb_from_the_general_lexicon_is_read_but_a_capitalised_name_is_not() {
    for (prose, tense) in [
        (
            "Tamsin was helped down the front steps and into the cab. Bram clambers in after \
             her and spent a long time settling her on the seat.",
            Tense::Past,
        ),
        (
            "Tamsin comes back from the door. She rises, stands a moment at the window, and \
             wrung her hands together before she speaks again.",
            Tense::Present,
        ),
    ] {
        let found = drift(prose, PointOfView::DeepThird, tense);
        assert_eq!(found.len(), 1, "{prose}: {found:#?}");
    }
    let name = "The game went on. After a long struggle Weathers again brought his opponent's \
                hand slowly on to the table.";
    assert!(drift(name, PointOfView::DeepThird, Tense::Past).is_empty());
}
