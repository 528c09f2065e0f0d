//! Tests of what happens out of the POV character's sight, read across the scene: someone who
//! has left and what they do next, the POV character gone or on the way home, somewhere else
//! at this very moment, what the POV character did not see. Each kind is a note, with control
//! scenes in the same words where the POV character sees, hears, follows or is told.

use super::tests::{World, assert_none, assert_one, run, run_with, world};
use super::*;
use crate::config::{PointOfView, Tense};

fn note(prose: &str, quoted: &str) {
    let f = assert_one(&run(prose), Check::PovLeak, prose, quoted);
    assert_eq!(f.severity, Severity::Note, "{prose}");
}

/// The findings of one check on `prose` in the test world with pronouns.
pub(super) fn of_check(prose: &str, pov: PointOfView, tense: Tense, check: Check) -> Vec<Finding> {
    run_with(&world_with_pronouns(), prose, pov, tense)
        .into_iter()
        .filter(|f| f.check == check)
        .collect()
}

/// The test world with Bram's and Orrin's records saying "he", as a user's cast would.
pub(super) fn world_with_pronouns() -> World {
    let mut w = world();
    for man in [1, 3] {
        w.characters[man].facts.insert("pronouns".into(), "he".into());
    }
    w
}

fn first_person_note(prose: &str, quoted: &str) {
    let findings = run_with(&world_with_pronouns(), prose, PointOfView::First, Tense::Past);
    let f = assert_one(&findings, Check::PovLeak, prose, quoted);
    assert_eq!(f.severity, Severity::Note, "{prose}");
}

fn first_person_none(prose: &str) {
    let findings = run_with(&world_with_pronouns(), prose, PointOfView::First, Tense::Past);
    assert_none(&findings, Check::PovLeak, prose);
}

#[test]
fn what_someone_does_after_leaving_the_pov_character_is_a_note() {
    first_person_note(
        "Bram waved his hand, turned on his heel, and was gone among the crowd. He went \
         straight to the harbour office and sat an hour in the outer room.",
        "He went",
    );
    first_person_note(
        "Bram left me over the breakfast things. He took a cab to the quay.",
        "He took",
    );
    first_person_note(
        "I showed him out and bolted the street door. He did not go home; he stood under \
         the lamp at the corner for an hour.",
        "He did not go",
    );
    first_person_note(
        "I wished him good night and went up to bed, leaving him to let himself out. He sat \
         on alone in the dark office and wept.",
        "He sat",
    );
}

#[test]
fn someone_who_left_but_is_seen_heard_followed_or_back_is_no_note() {
    for prose in [
        // Seen from the window.
        "Bram left me at the door. I saw him cross the street to the harbour office.",
        // Followed.
        "Bram strode out of the room. I followed him down the stairs, and he turned into \
         the lane.",
        // Back again.
        "Bram went out without a word. He came back within the hour with the papers.",
        // Speaking in the narrator's hearing.
        "Bram went out. \"Wait here,\" he said through the door. He knocked twice.",
        // Learned since.
        "Bram left me at the corner. He went, as I learned afterwards, straight to the quay.",
        // Taking the narrator along.
        "Bram went off to see the harbourmaster, taking me with him. He knocked at the door.",
        // A parting long before the scene.
        "Bram had left the house in Stoney Lane years ago. He kept the key all the same.",
        // A guess.
        "Bram went out. He would be at the quay by now.",
    ] {
        first_person_none(prose);
    }
}

#[test]
fn a_pronoun_that_may_be_another_man_is_not_the_one_who_left() {
    // Someone else of his gender named since the parting: "he" may be that one.
    let prose = "Bram strode out of the room. \"An amiable person,\" said Orrin, laughing. As \
                 he spoke he picked up the poker and straightened it.";
    first_person_none(prose);
}

#[test]
fn the_pov_character_gone_on_ahead_or_left_behind_is_a_note() {
    note(
        "Tamsin went home by the lamplit street. Before she had reached her own door, Bram \
         had climbed in at the back window.",
        "Before she had reached",
    );
    note(
        "Tamsin leaves the room. Left alone, Bram sits on the footstool a long while.",
        "Left alone, Bram",
    );
    note(
        "Bram watched her go from the counter and, when she had turned the corner, looked \
         for the pepper-pot she had taken.",
        "when she had turned the corner",
    );
    note(
        "Tamsin sweeps out. The door has scarcely closed behind her before Bram is at the \
         window.",
        "The door has scarcely closed behind her",
    );
}

#[test]
fn somewhere_else_at_this_very_moment_is_a_note() {
    for (prose, quoted) in [
        (
            "Tamsin waited at the lighthouse. Bram was at that moment in the mews behind the \
             harbour, rubbing down a mare.",
            "Bram was at that moment in",
        ),
        (
            "Tamsin is alone a good deal. Tonight he is sitting in the harbourmaster's study \
             with a glass of sherry.",
            "Tonight he is sitting",
        ),
        (
            "Tamsin turned the key. Behind the drawn blinds of the harbour house, Bram was \
             already burning the letter.",
            "Behind the drawn blinds of the harbour house",
        ),
        (
            "Tamsin walked fast. Two streets behind her, a man in a dark coat kept close to \
             the railings.",
            "Two streets behind her",
        ),
        (
            "Tamsin walked on. Nor did she see the boy who fell in behind her at the corner.",
            "Nor did she see",
        ),
    ] {
        note(prose, quoted);
    }
}

#[test]
fn the_pov_character_there_seeing_or_left_alone_herself_is_no_note() {
    for prose in [
        "Tamsin waited at the window. Bram was at that moment in the yard below, and she \
         could see him plainly.",
        "Tamsin went home by the lamplit street. Before she had reached her own door, she \
         had made up her mind.",
        "Bram leaves the room. Left alone, Tamsin sits on the footstool a long while.",
        "Tamsin walked on. Nor did Bram see her, for he was reading.",
        "Tamsin stood at the window. The morning is by this time getting on apace.",
        "Tamsin watched. Maud is now at work upon her embroidery, and Tamsin watches her.",
    ] {
        assert_none(&run(prose), Check::PovLeak, prose);
    }
}

#[test]
fn asleep_until_she_woke_is_still_asleep() {
    first_person_note(
        "We sat late over our pipes, and I turned in at last upon the sofa. Some time after \
         two Bram rose, dressed in the dark, and was back in his chair before I woke.",
        "Some time after two",
    );
}

#[test]
fn what_nobody_ever_learned_or_saw_is_a_note() {
    for (prose, quoted) in [
        (
            "The smoke rolled out. In all that confusion nobody saw Maud pause by the bell-pull.",
            "nobody saw Maud",
        ),
        (
            "Bram reads the letter twice. No one in the room observes that a second sheet has \
             slipped to the floor.",
            "No one in the room observes that",
        ),
        (
            "Tamsin came back from the funeral. Nobody, then or afterwards, found the scrap of \
             sailcloth in his coat.",
            "Nobody, then or afterwards,",
        ),
        (
            "Tamsin heard a night-bird. The gipsies had gone that evening, warned off, though \
             nobody ever discovered by whom.",
            "though nobody ever discovered",
        ),
        (
            "Tamsin approved of what she had done. Nobody had thought to mention the book, and \
             nobody ever would.",
            "and nobody ever would",
        ),
        (
            "Bram finds his hat in the dark. It is not his own, and he will not discover the \
             exchange until he is half way home.",
            "will not discover the exchange until",
        ),
    ] {
        note(prose, quoted);
    }
}

#[test]
fn what_lies_hidden_in_anothers_keeping_or_went_on_before_she_came_is_a_note() {
    for (prose, quoted) in [
        (
            "Tamsin hoped he would not miss the letters. They lay at that moment in the bottom \
             drawer of the harbourmaster's own desk.",
            "lay at that moment in the bottom drawer",
        ),
        (
            "Tamsin went below. Down in Bram's sea-chest, under a spare shirt, lay a paper with \
             every name on it.",
            "Bram's sea-chest",
        ),
        (
            "When Tamsin came down, Bram was already at the desk. He had been there since six, \
             and had taken the ledger out twice before he heard her step.",
            "He had been there since six",
        ),
        (
            "An old man was dozing in the hall. He had let two men go up an hour before Tamsin \
             came.",
            "had let two men go up an hour before Tamsin came",
        ),
    ] {
        note(prose, quoted);
    }
}

#[test]
fn what_she_keeps_herself_or_sees_in_a_chest_is_no_note() {
    first_person_none(
        "My mother pulled it up, and there lay before us, the last things in the chest, a \
         bundle tied up in oilcloth.",
    );
    assert_none(
        &run("Tamsin opened the drawer. The letters lay in her own desk where she had put them."),
        Check::PovLeak,
        "her own desk",
    );
}

#[test]
fn a_sealed_letters_words_her_back_turned_and_a_place_a_mile_off_are_notes() {
    for (prose, quoted) in [
        (
            "A note lies at her elbow with its seal still whole. It is from the harbourmaster, \
             and it says that he will call on Thursday.",
            "It is from the harbourmaster",
        ),
        (
            "Tamsin turned away to hang her shawl on the peg. While her back was turned, Bram \
             struck out a line in the day-book.",
            "While her back was turned",
        ),
        (
            "Tamsin slipped the bolt. Half a mile up the road, Bram had already gathered his men \
             in the lee of a hedge.",
            "Half a mile up the road",
        ),
        (
            "Tamsin lights the candles. In the hour she has been away, someone has let himself \
             into these rooms with a borrowed key.",
            "In the hour she has been away",
        ),
    ] {
        note(prose, quoted);
    }
}

#[test]
fn a_letter_she_has_read_or_his_back_turned_is_no_note() {
    for prose in [
        "Tamsin broke the seal and read it twice. It is from the harbourmaster, and it says \
         that he will call on Thursday.",
        "Bram turned away to hang his coat on the peg. While his back was turned, Tamsin \
         struck out a line in the day-book.",
    ] {
        assert_none(&run(prose), Check::PovLeak, prose);
    }
}
