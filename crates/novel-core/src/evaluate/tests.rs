//! Tests of the scene evaluator: for every check a scene it must flag and a scene that uses
//! the same words legitimately (dialogue, italic thought, memory, the POV character's own
//! mind) and must pass; a realistic clean scene with no violation; the revision brief. The
//! rules are tested on their own (`run::evaluate_rules`); the learned reading in
//! `learned/tests.rs`.

use serde_json::json;

use super::text::{MASK, Prose};
use super::*;
use crate::config::{PointOfView, Tense};
use crate::model::{Character, Location};

fn character(id: &str, name: &str, extra: serde_json::Value) -> Character {
    let mut value = json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1 });
    if let (Some(obj), Some(more)) = (value.as_object_mut(), extra.as_object()) {
        obj.extend(more.clone());
    }
    serde_json::from_value(value).unwrap()
}

fn location(id: &str, name: &str) -> Location {
    serde_json::from_value(
        json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1 }),
    )
    .unwrap()
}

/// Tamsin Reed (POV, she) and Bram Hale at the lighthouse, Maud Fenn at the harbour, Orrin
/// Vale dead.
pub(super) struct World {
    pub(super) characters: Vec<Character>,
    locations: Vec<Location>,
    lost: Vec<LostItem>,
}

pub(super) fn world() -> World {
    World {
        characters: vec![
            character(
                "C1",
                "Tamsin Reed",
                json!({ "description": "A courier who keeps her fear folded small.", "last_location": "L1" }),
            ),
            character("C2", "Bram Hale", json!({ "last_location": "L1" })),
            character(
                "C3",
                "Maud Fenn",
                json!({ "aliases": ["the Harbourmistress"], "last_location": "L2" }),
            ),
            character(
                "C4",
                "Orrin Vale",
                json!({ "status": "dead", "last_location": "L1" }),
            ),
        ],
        locations: vec![
            location("L1", "the lighthouse"),
            location("L2", "the harbour"),
        ],
        lost: vec![LostItem {
            character_id: "C1".into(),
            character_name: "Tamsin Reed".into(),
            item: "her father's silver knife".into(),
            tick: 3,
        }],
    }
}

pub(super) fn run_with(w: &World, prose: &str, pov: PointOfView, tense: Tense) -> Vec<Finding> {
    let input = EvalInput {
        prose,
        pov,
        tense,
        pov_character: &w.characters[0],
        characters: &w.characters,
        scene_location: Some(&w.locations[0]),
        locations: &w.locations,
        lost_items: &w.lost,
        off_page: &[],
        // Wide enough that short test scenes raise no length finding.
        target_words: (1, 10_000),
    };
    // The rules' tests assert the rules; the learned reading has its own (learned/tests.rs).
    super::run::evaluate_rules(&input)
}

pub(super) fn run(prose: &str) -> Vec<Finding> {
    run_with(&world(), prose, PointOfView::DeepThird, Tense::Past)
}

pub(super) fn of(findings: &[Finding], check: Check) -> Vec<&Finding> {
    findings.iter().filter(|f| f.check == check).collect()
}

pub(super) fn assert_none(findings: &[Finding], check: Check, prose: &str) {
    let hits = of(findings, check);
    assert!(hits.is_empty(), "{check:?} on {prose:?}: {hits:#?}");
}

pub(super) fn assert_one(findings: &[Finding], check: Check, prose: &str, quoted: &str) -> Finding {
    let hits = of(findings, check);
    assert_eq!(hits.len(), 1, "{check:?} on {prose:?}: {findings:#?}");
    let f = hits[0].clone();
    let excerpt = f.excerpt.clone().unwrap_or_default();
    assert!(
        excerpt.contains(quoted),
        "excerpt {excerpt:?} lacks {quoted:?}"
    );
    assert!(
        f.message.contains(quoted),
        "message {:?} lacks {quoted:?}",
        f.message
    );
    assert!(excerpt.chars().count() <= 120, "{excerpt}");
    f
}

/// Some finding of `check` names `quoted` (other findings may stand beside it).
fn assert_names(findings: &[Finding], check: Check, prose: &str, quoted: &str) {
    assert!(
        of(findings, check).iter().any(|f| f.message.contains(quoted)),
        "no {check:?} naming {quoted:?} in {prose:?}: {findings:#?}"
    );
}

// ---- text ----

#[test]
fn dialogue_and_italics_are_masked_with_offsets_kept() {
    let prose = "“I know,” she said. \"Go.\" *Run*, _now_. snake_case ‘I don’t,’ he said.";
    let p = Prose::new(prose);
    assert_eq!(p.masked.len(), prose.len());
    let visible: String = p.masked.chars().filter(|c| *c != MASK).collect();
    assert_eq!(visible, " she said.  , . snake_case  he said.");
}

#[test]
fn an_unclosed_quotation_ends_with_its_paragraph() {
    let p = Prose::new("“Wait, she said\nBram turned.");
    let narration: Vec<&str> = p.narration_sentences().map(|s| p.narration(s)).collect();
    assert_eq!(narration, vec!["Bram turned."]);
}

#[test]
fn sentences_split_after_dialogue_but_not_before_a_tag() {
    let prose = "“Stop.” Bram turned. “Now!” she said. Mr. Hale left.\nNext line";
    let p = Prose::new(prose);
    let sentences: Vec<&str> = p.sentences.iter().map(|s| &prose[s.start..s.end]).collect();
    assert_eq!(
        sentences,
        vec![
            "“Stop.”",
            "Bram turned.",
            "“Now!” she said.",
            "Mr. Hale left.",
            "Next line"
        ]
    );
}

#[test]
fn excerpts_are_cut_around_the_focus() {
    let long = format!(
        "{} she didn't realize it {}.",
        "word ".repeat(40),
        "more ".repeat(40)
    );
    let findings = run(&long);
    let f = assert_one(&findings, Check::PovLeak, &long, "didn't realize");
    let excerpt = f.excerpt.unwrap_or_default();
    assert!(
        excerpt.starts_with('…') && excerpt.ends_with('…'),
        "{excerpt}"
    );
    // Cut between words, not inside one.
    let inner = excerpt.trim_matches('…');
    assert!(long.contains(&format!(" {inner} ")), "{excerpt}");
}

// ---- POV leaks ----

#[test]
fn omniscient_phrases_in_narration_are_leaks() {
    let cases = [
        (
            "She didn't realize the man behind her held a knife.",
            "didn't realize",
        ),
        (
            "She did not realise how close the tide had come.",
            "did not realise",
        ),
        (
            "Unbeknownst to her, the door had been unlocked.",
            "Unbeknownst to",
        ),
        (
            "Little did she know the ledger was a forgery.",
            "Little did she know",
        ),
        (
            "She had no idea that Bram had already left.",
            "had no idea that",
        ),
        (
            "What she didn't know was that the ship had sunk.",
            "What she didn't know",
        ),
        (
            "She would later learn the truth from Maud.",
            "would later learn",
        ),
        (
            "Across town, the magistrate locked his study.",
            "Across town",
        ),
        (
            "Meanwhile, across the river, the bells began.",
            "Meanwhile, across the river",
        ),
        (
            "The door closed without her knowing.",
            "without her knowing",
        ),
    ];
    for (prose, quoted) in cases {
        let f = assert_one(&run(prose), Check::PovLeak, prose, quoted);
        assert_eq!(f.severity, Severity::Violation);
        assert!(f.message.contains("Tamsin Reed"), "{}", f.message);
    }
}

#[test]
fn the_same_words_in_dialogue_thought_or_plain_use_are_not_leaks() {
    let prose = "“I didn’t realize you were here,” she said. *Little did he know.* \
                 She drove across town in the rain. \"Unbeknownst to me,\" Bram said. \
                 He slipped out without his knowing. She had no idea what to do.";
    assert_none(&run(prose), Check::PovLeak, prose);
}

#[test]
fn a_first_person_narrator_may_own_their_hindsight() {
    let w = world();
    let own = "I didn't realize then how much it mattered.";
    let findings = run_with(&w, own, PointOfView::First, Tense::Past);
    assert_none(&findings, Check::PovLeak, own);
    let other = "He didn't realize I was watching.";
    let findings = run_with(&w, other, PointOfView::First, Tense::Past);
    assert_one(&findings, Check::PovLeak, other, "didn't realize");
}

#[test]
fn a_cut_to_someone_known_elsewhere_is_a_leak_but_not_to_someone_present() {
    let away = "Meanwhile, Maud crept along the harbour wall.";
    let f = assert_one(&run(away), Check::PovLeak, away, "Meanwhile, Maud");
    assert!(f.message.contains("the harbour"), "{}", f.message);
    let present = "Meanwhile, Bram kept the lamp trimmed. At that moment, Maud came in.";
    assert_none(&run(present), Check::PovLeak, present);
}

// ---- other minds ----

#[test]
fn another_characters_inner_life_stated_as_fact_is_flagged() {
    let cases = [
        ("Bram wondered whether she would stay.", "Bram wondered"),
        (
            "Bram Hale had hoped for a quieter night.",
            "Bram Hale had hoped",
        ),
        ("Maud felt afraid of the dark water.", "Maud felt afraid"),
        (
            "The Harbourmistress remembered every ship.",
            "Harbourmistress remembered",
        ),
        ("In Bram's mind, the tower was already lost.", "Bram's mind"),
        ("Bram's heart sank at the sight of it.", "Bram's heart sank"),
    ];
    for (prose, quoted) in cases {
        let f = assert_one(&run(prose), Check::OtherMind, prose, quoted);
        assert_eq!(f.severity, Severity::Violation);
    }
}

#[test]
fn the_pov_mind_perception_and_guesses_are_not_other_minds() {
    let prose = "Tamsin wondered whether Bram would stay. Tamsin Reed felt afraid. \
                 She could tell Bram knew more than he said. Maybe Bram thought she was lying. \
                 Did Bram know? Bram felt along the wall for the latch. \
                 Bram knew how to splice a rope. “Bram thought so,” she said. Bram's head hit the beam.";
    assert_none(&run(prose), Check::OtherMind, prose);
}

#[test]
fn the_forms_a_writers_model_uses_for_a_head_hop_are_found() {
    for (prose, quoted) in [
        ("Bram felt a small glow of triumph.", "glow"),
        ("Bram felt his courage drain away.", "courage"),
        ("Maud had made up her mind not to speak.", "made up her mind"),
        ("Relief washed over Bram as the lamp caught.", "Relief washed over Bram"),
        ("Bram found himself hoping she would stay.", "found himself hoping"),
        ("Bram swore to himself that he would settle it.", "swore to himself"),
        ("Bram could not help but feel that it was lost.", "help but feel"),
        ("Tamsin turned. Inside he was raging at the fools.", "he was raging"),
        (
            "Bram bowed, burning with a resentment he would not show.",
            "burning",
        ),
        (
            "Bram, though cursing inwardly at the sight, smiled at her.",
            "cursing",
        ),
        (
            "“Go on,” said Bram quietly, though he had guessed at once who she was.",
            "guessed",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    let own = "Tamsin felt a small glow of triumph. Relief washed over her. She found herself \
               hoping. Bram looked relieved. Bram made up the fire. Bram found himself a chair. \
               Inside, the lamp was burning with a low flame. Bram frowned, as though thinking \
               of something else.";
    assert_none(&run(own), Check::OtherMind, own);
}

#[test]
fn a_phrase_with_its_own_owner_after_a_comma_carries_that_owners_mind() {
    for (prose, quoted) in [
        (
            "Bram stared at the map, his mind already running ahead to the crossing.",
            "his mind already running",
        ),
        (
            "A hand came through the gap, its owner sure that the vault was empty.",
            "its owner sure",
        ),
        (
            "The men sat under the sail, each of them longing to be ashore.",
            "each of them longing",
        ),
        (
            "The door opened, Maud fearing in her innocence that she had given offence.",
            "Maud fearing",
        ),
        (
            "Bram cursed the money, his whole black heart set on the papers.",
            "his whole black heart set",
        ),
        (
            "Bram watched her a moment, nettled that she should presume to judge him.",
            "nettled",
        ),
        (
            "Bram stood by the gate, though inwardly sick with dread for the boy.",
            "sick",
        ),
        (
            "“Well?” said Bram, secretly alarmed to find her awake.",
            "alarmed",
        ),
        (
            "Bram said he was ready, though his heart is already beating with dread.",
            "heart is already beating",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    let own = "Tamsin stared at the map, her mind already running ahead to the crossing. \
               Bram frowned, as if his mind were elsewhere. The men sat under the sail, each of \
               them mending a rope. Bram seized the poker and bent it. Maud, alarmed by the \
               cries, came running down the stairs. Bram stood by the gate, his hands full of \
               rope.";
    assert_none(&run(own), Check::OtherMind, own);
}

#[test]
fn a_cut_to_the_same_moment_elsewhere_or_what_no_one_witnessed_is_a_leak() {
    for (prose, quoted) in [
        (
            "Tamsin waited. At that hour her father, home early from the inn, was reading the letter.",
            "At that hour her father",
        ),
        (
            "Tamsin kept still. Below in the garden, all that while, Jennie stood under the arbour.",
            "all that while",
        ),
        (
            "Tamsin climbed the stair. By then the lady and her husband were already far out on the water.",
            "By then the lady",
        ),
        (
            "Tamsin slept. Out on the quay the cab had stuck at the first turning.",
            "Out on the quay",
        ),
        (
            "Tamsin turned back. Beyond the hamlet, unobserved by any soul, two men rose out of the ditch.",
            "unobserved by any soul",
        ),
        (
            "Tamsin laughed. It would end sooner than either of them supposed.",
            "than either of them supposed",
        ),
        (
            "Tamsin took the letter. Unknown to Mr. Hale, it had been opened over the kettle.",
            "Unknown to Mr. Hale",
        ),
        (
            "Tamsin crossed the room. She never perceived that Bram was watching her.",
            "never perceived",
        ),
        (
            "Tamsin sighed. A home of her own was not to come to her in this life.",
            "not to come to her in this life",
        ),
    ] {
        assert_one(&run(prose), Check::PovLeak, prose, quoted);
    }
    let seen = "At that moment Bram came through the door. At that moment Tamsin was reading \
                the letter. Below in the garden, Jennie was cutting roses; Tamsin watched her \
                from the window. Out on the quay the lamps were already lit. At that moment \
                the door was flung open. The cab stopped sooner than she expected.";
    assert_none(&run(seen), Check::PovLeak, seen);
}

#[test]
fn a_relative_clause_before_does_not_excuse_a_present_event_in_the_next_clause() {
    for (prose, quoted) in [
        (
            "Tamsin passed the door. Within there was a corridor, which ends in a gate, and Bram unlocks it.",
            "Bram unlocks",
        ),
        (
            "Tamsin and Bram parted at the gate; Bram went home, and Tamsin continues her walk alone.",
            "Tamsin continues",
        ),
    ] {
        assert_one(&run(prose), Check::TenseDrift, prose, quoted);
    }
    let first = "I had seen the captain before. I pluck up courage at once and cross the threshold.";
    let found = run_with(&world(), first, PointOfView::First, Tense::Past);
    assert_one(&found, Check::TenseDrift, first, "I pluck");
    let timeless = "Tamsin read it slowly, moving her lips as a priest does when he reads. Bram \
                    pointed to the road, which runs to the harbour.";
    assert_none(&run(timeless), Check::TenseDrift, timeless);
}

#[test]
fn a_second_predicate_a_plural_seat_of_thought_and_a_first_person_companion_carry_a_mind() {
    for (prose, quoted) in [
        (
            "Bram, who had rehearsed his story all the way from the office and was privately sure it would go down well, took his place.",
            "sure",
        ),
        (
            "Maud's thoughts are far away with Watt, and she says nothing.",
            "thoughts",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    for (prose, quoted) in [
        (
            "My companion sat in the front of the trap. He was turning the matter over and over, and cursing himself for not having asked.",
            "cursing",
        ),
        (
            "“Is this table free?” he asked. He was sizing me up all the while, wondering how much I knew.",
            "wondering",
        ),
    ] {
        let found = run_with(&world(), prose, PointOfView::First, Tense::Past);
        assert_one(&found, Check::OtherMind, prose, quoted);
    }
    let outward = "Bram had rehearsed his story and was sure to tell it. He looked at me, and I \
                   knew what he was thinking.";
    let found = run_with(&world(), outward, PointOfView::First, Tense::Past);
    assert_none(&found, Check::OtherMind, outward);
}

#[test]
fn hearts_sleeves_a_porters_surprise_and_what_the_pov_knows_besides() {
    for (prose, quoted) in [
        (
            "Bram took up his crutch and departed, laughing in his sleeve at the ease of it.",
            "his sleeve",
        ),
        (
            "“Indeed,” said Bram, though the news had struck a chill into his heart.",
            "his heart",
        ),
        (
            "The porter took up his candle again, but slowly, for he was surprised by the idea.",
            "he was surprised",
        ),
        (
            "Bram held her hand, afraid in his heart that she would fail him, and Tamsin knew that he was speaking to her.",
            "afraid",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    let first = "They were timid people, who hated me in their hearts and dared not show it.";
    let found = run_with(&world(), first, PointOfView::First, Tense::Past);
    assert_one(&found, Check::OtherMind, first, "their hearts");
    let own = "Tamsin held the lamp, afraid in her heart that it would fail, and she knew that \
               Bram was watching. The child stirs against her shoulder and she rocks it, her \
               thoughts far away. Tamsin laughed up her sleeve.";
    assert_none(&run(own), Check::OtherMind, own);
}

#[test]
fn in_the_present_a_past_joined_to_a_present_or_after_a_later_pluperfect_is_drift() {
    for (prose, quoted) in [
        (
            "Tamsin waits by the door. Bram sits out the storm in his chair and glided to the window.",
            "glided",
        ),
        (
            "Tamsin waits by the door. Bram completed the work as carefully as he had begun it.",
            "Bram completed",
        ),
        (
            "Tamsin waits by the door. Maud did not look at the girl again.",
            "Maud did",
        ),
    ] {
        let found = run_with(&world(), prose, PointOfView::DeepThird, Tense::Present);
        assert_one(&found, Check::TenseDrift, prose, quoted);
    }
    let clean = "Tamsin is now decided, and prepared to go. Bram has turned from the window and \
                 retired to his chair. As a girl she had walked these cliffs. Tamsin knows that \
                 Bram went to the harbour.";
    let found = run_with(&world(), clean, PointOfView::DeepThird, Tense::Present);
    assert_none(&found, Check::TenseDrift, clean);
}

#[test]
fn in_the_past_a_present_perfect_event_and_a_habit_only_in_a_relative_clause_are_drift() {
    for (prose, quoted) in [
        (
            "The child began to scream. Bram has jumped up from his chair and is walking the floor.",
            "Bram has",
        ),
        (
            "Tamsin followed them. As she walks on slowly, she watches Bram's head, which turns at every moment.",
            "she walks",
        ),
    ] {
        assert_one(&run(prose), Check::TenseDrift, prose, quoted);
    }
    let habit = "Tamsin kept the letter. When Bram speaks of her, it is always as the woman. \
                 The market never closes.";
    assert_none(&run(habit), Check::TenseDrift, habit);
}

#[test]
fn plural_and_joined_subjects_in_the_progressive_and_a_past_before_a_present_are_drift() {
    for prose in [
        "The pudding was cut. Aunt Kate and Mary Jane are still arguing in the pantry.",
        "We ran to the stockade. Behind us the pirates are crashing through the wood.",
        "I crept nearer. Silver and Tom have been arguing this half hour.",
        "Tamsin sat holding the child. The baby has begun to cry again.",
    ] {
        assert!(!of(&run(prose), Check::TenseDrift).is_empty(), "no drift in {prose:?}");
    }
    let present = "Bram lies still. Tamsin bent over him and listened, and then she turns to the door.";
    let found = run_with(&world(), present, PointOfView::DeepThird, Tense::Present);
    assert_one(&found, Check::TenseDrift, present, "Tamsin bent");
    let diary = "I sat by the window and watched the lawn while the baby sleeps.";
    let found = run_with(&world(), diary, PointOfView::First, Tense::Present);
    assert!(!of(&found, Check::TenseDrift).is_empty(), "no drift in {diary:?}");
    let clean = "Tamsin seats herself by the bed, just as she sat in the old room, and touches \
                 his hand. Having helped herself to tea, Tamsin pronounces it good and goes on. \
                 There is a letter on the table. I think the men have gone, and I sit alone.";
    let found = run_with(&world(), clean, PointOfView::DeepThird, Tense::Present);
    assert_none(&found, Check::TenseDrift, clean);
    // A report, and a relative clause of what is so ("which is made of brass"); "which is
    // ringing" is the scene's action going on, and drift (see `tests_tense.rs`).
    let past = "Tamsin said the men are leaving. The bell, which is made of brass, was old.";
    assert_none(&run(past), Check::TenseDrift, past);
}

#[test]
fn opening_phrases_intentions_and_far_cuts_are_found() {
    let mut w = world();
    w.characters[1] = character(
        "C2",
        "Bram Hale",
        json!({ "facts": { "pronouns": "he" }, "last_location": "L1" }),
    );
    w.characters[0] = character(
        "C1",
        "Tamsin Reed",
        json!({ "facts": { "pronouns": "he" }, "last_location": "L1" }),
    );
    for (prose, quoted) in [
        (
            "Bram stood at the head of the stairs. Ashamed of the state he was in, he let Tamsin lead him.",
            "Ashamed",
        ),
        (
            "Bram sat down upon a table, meaning to learn from Tamsin whether the captain was in.",
            "meaning",
        ),
    ] {
        let found = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
        assert_one(&found, Check::OtherMind, prose, quoted);
    }
    for (prose, quoted) in [
        (
            "Tamsin climbs into the carriage. Far off on the north road, the woman has already passed the kilns.",
            "Far off",
        ),
        (
            "Tamsin sits still. In the next room Dr. Hale was pouring out a saucer of milk.",
            "In the next room",
        ),
    ] {
        let found = run_with(&w, prose, PointOfView::DeepThird, Tense::Present);
        assert!(!of(&found, Check::PovLeak).is_empty(), "no leak in {prose:?} ({quoted})");
    }
    let first = "I went to bed. While I slept, the blind man was already standing in the lane.";
    let found = run_with(&w, first, PointOfView::First, Tense::Past);
    assert!(!of(&found, Check::PovLeak).is_empty(), "no leak in {first:?}");
    let own = "Ashamed of the state he was in, Tamsin let Bram lead him. While I slept, I \
               dreamed of the sea. In the kitchen I was cutting bread.";
    let found = run_with(&w, own, PointOfView::First, Tense::Past);
    assert_none(&found, Check::PovLeak, own);
}

#[test]
fn plural_subjects_with_a_bare_verb_and_a_narrators_taking_are_drift_but_a_modifier_is_not() {
    for prose in [
        "The boat grounded on the sand. The men leap out one after another.",
        "Tamsin crept nearer. The voices of the two of them are rising louder with every word.",
    ] {
        assert!(!of(&run(prose), Check::TenseDrift).is_empty(), "no drift in {prose:?}");
    }
    let first = "We reached the inn at dusk. Bram and I take a bedroom on the upper floor.";
    let found = run_with(&world(), first, PointOfView::First, Tense::Past);
    assert!(!of(&found, Check::TenseDrift).is_empty(), "no drift in {first:?}");
    let clean = "The snow was falling softly into the dark mutinous Shannon waves. He was, I \
                 take it, the best of men. She walks there every day.";
    let found = run_with(&world(), clean, PointOfView::First, Tense::Past);
    assert_none(&found, Check::TenseDrift, clean);
}

#[test]
fn a_second_predicate_reaches_past_an_object_it_but_not_into_an_as_if() {
    let prose = "The girl does not understand a word of it, and is privately resolved to ask.";
    assert_one(&run(prose), Check::OtherMind, prose, "resolved");
    let outward = "Bram looked at her very hard, as if he wanted to ask something and thought \
                   better of it.";
    assert_none(&run(outward), Check::OtherMind, outward);
}

#[test]
fn feelings_whose_owner_is_an_object_or_held_as_a_grudge_are_found() {
    for (prose, quoted) in [
        (
            "Tamsin watched the door. It occurred to Bram, as he waited, that he had brought them all to this.",
            "occurred",
        ),
        (
            "Bram said it without looking up, and the thought of another scene turned his stomach.",
            "thought",
        ),
        (
            "Bram sat by the fire. He had a horror of the one-legged man that never let go of him.",
            "horror",
        ),
        (
            "Bram lifted his face to the other man's, for he had set his heart on winning him over.",
            "set his heart on",
        ),
        (
            "Bram strode out, and all the way down he was turning over in his black heart how to be revenged.",
            "heart",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    let outward = "It struck Bram on the shoulder. The thought of the storm made Tamsin shiver. \
                   Bram's hand trembles; she is afraid, Tamsin supposes.";
    assert_none(&run(outward), Check::OtherMind, outward);
    let commentary = "He keeps her photograph still, and I do not believe a month goes by \
                      without his taking it out.";
    let found = run_with(&world(), commentary, PointOfView::First, Tense::Past);
    assert_none(&found, Check::TenseDrift, commentary);
}

#[test]
fn an_inverted_verb_of_coming_is_read_for_its_tense() {
    for prose in [
        "Tamsin closed the book. Out on the river there passes a goods train, and she watched it.",
        "The clock struck three. Then, from the direction of the ventilator, comes a low whistle.",
        "The lantern was shut off. Suddenly there appears a thin line of yellow light.",
        "We waited by the fire. At last in strides the captain and slams the door behind him.",
    ] {
        assert!(!of(&run(prose), Check::TenseDrift).is_empty(), "no drift in {prose:?}");
    }
    let present = "The great house is quiet. Down the long passage came a footstep, and Tamsin \
                   lifts her head.";
    let found = run_with(&world(), present, PointOfView::DeepThird, Tense::Present);
    assert!(!of(&found, Check::TenseDrift).is_empty(), "no drift in {present:?}");
    let listed = "Tamsin listens a while. Then she rose unsteadily, lays the pipe down, and looks about.";
    let found = run_with(&world(), listed, PointOfView::DeepThird, Tense::Present);
    assert!(!of(&found, Check::TenseDrift).is_empty(), "no drift in {listed:?}");
    let clean = "There was a train on the river. Down the passage came a footstep. There are \
                 two roads to the harbour.";
    assert_none(&run(clean), Check::TenseDrift, clean);
}

#[test]
fn a_cut_to_home_miles_off_or_that_same_night_and_what_she_never_guessed_are_leaks() {
    for (prose, quoted) in [
        (
            "Tamsin stood at the corner. At home her sister had already gone out to the chapel.",
            "At home",
        ),
        (
            "Tamsin climbs to the box. Miles off, in a cottage, the lady has already changed her dress.",
            "Miles off",
        ),
        (
            "Tamsin followed her up the stairs. She never guessed that Bram had been thinking of another.",
            "never guessed that",
        ),
        (
            "Tamsin gripped the rail. Behind her in the crowd, without her ever catching sight of him, Bram had come down to the wall.",
            "without her ever catching sight",
        ),
    ] {
        assert_one(&run(prose), Check::PovLeak, prose, quoted);
    }
    let hindsight = "I never guessed that Bram had been thinking of another.";
    let found = run_with(&world(), hindsight, PointOfView::First, Tense::Past);
    assert_none(&found, Check::PovLeak, hindsight);
}

#[test]
fn a_passive_of_motion_and_an_inversion_with_a_phrase_between_are_read_for_their_tense() {
    for prose in [
        "Tamsin got down into the boat. Slowly, then, the coracle is carried out upon the ebb.",
        "Tamsin closed the paper. Out on the river there passes, slowly, a goods train.",
    ] {
        assert!(!of(&run(prose), Check::TenseDrift).is_empty(), "no drift in {prose:?}");
    }
    let first = "Bram mopped his forehead and looked from one to the other of us. He was \
                 thoroughly ashamed, now that he had told it, of the wages he had earned.";
    let found = run_with(&world(), first, PointOfView::First, Tense::Past);
    assert!(!of(&found, Check::OtherMind).is_empty(), "no head-hop in {first:?}");
}

#[test]
fn a_feeling_named_as_someones_own_is_theirs() {
    for (prose, quoted) in [
        (
            "Tamsin turns to the door. Maud, whose dread of him has grown all autumn, keeps her eyes on the fire.",
            "dread",
        ),
        (
            "Tamsin turns to the door. Bram is more occupied with his own fears for the money than with the sick man.",
            "fears",
        ),
    ] {
        let found = run_with(&world(), prose, PointOfView::DeepThird, Tense::Present);
        assert!(!of(&found, Check::OtherMind).is_empty(), "no head-hop in {prose:?} ({quoted})");
    }
    let own = "Tamsin turns to the door, her own fears for the money rising.";
    let found = run_with(&world(), own, PointOfView::DeepThird, Tense::Present);
    assert_none(&found, Check::OtherMind, own);
}

// ---- dead characters ----

#[test]
fn a_dead_character_acting_in_the_present_is_flagged() {
    let prose = "Orrin smiled and handed her the lamp.";
    let f = assert_one(&run(prose), Check::DeadCharacter, prose, "Orrin smiled");
    assert!(f.message.contains("Orrin Vale"), "{}", f.message);
    let later = "The wind rose. Orrin Vale slowly turned toward the stair.";
    assert_one(
        &run(later),
        Check::DeadCharacter,
        later,
        "Orrin Vale slowly turned",
    );
}

#[test]
fn a_dead_character_remembered_or_quoted_is_fine() {
    let prose = "She remembered how Orrin smiled. Orrin used to laugh at storms. \
                 Orrin had said the lamp would outlast them all. “Orrin says hello,” Bram said. \
                 Orrin's coat still hung by the door. Orrin looked peaceful in the photograph. \
                 For one second she was twelve years old again, and Orrin called her name.";
    assert_none(&run(prose), Check::DeadCharacter, prose);
}

// ---- two places ----

#[test]
fn a_character_elsewhere_acting_here_without_arriving_is_a_warning() {
    let prose = "Maud nodded at the lens.";
    let findings = run(prose);
    let f = assert_one(&findings, Check::TwoPlaces, prose, "Maud nodded");
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("the harbour") && f.message.contains("the lighthouse"));
    assert!(!needs_revision(&findings));
}

#[test]
fn an_arrival_or_a_remote_voice_is_not_two_places() {
    let arrives = "Maud came in from the rain. Maud nodded at the lens.";
    assert_none(&run(arrives), Check::TwoPlaces, arrives);
    let radio = "Maud said over the radio that the boats were in.";
    assert_none(&run(radio), Check::TwoPlaces, radio);
    let here = "Bram nodded at the lens.";
    assert_none(&run(here), Check::TwoPlaces, here);
}

// ---- lost items ----

#[test]
fn using_a_lost_item_is_flagged_by_name_and_by_pov_pronoun() {
    let by_name = "Tamsin drew the silver knife and cut the rope.";
    let f = assert_one(&run(by_name), Check::LostItem, by_name, "Tamsin drew");
    assert!(f.message.contains("tick 3"), "{}", f.message);
    let by_pronoun = "The rope creaked. She gripped her father's knife in both hands.";
    assert_one(&run(by_pronoun), Check::LostItem, by_pronoun, "She gripped");
    let first = "I drew the silver knife.";
    let findings = run_with(&world(), first, PointOfView::First, Tense::Past);
    assert_one(&findings, Check::LostItem, first, "I drew");
}

#[test]
fn a_lost_item_missed_remembered_or_replaced_is_fine() {
    let prose = "She gripped the empty sheath where the knife had hung. \
                 Tamsin reached for the knife that was no longer there. \
                 Tamsin drew a spare knife from her boot. Tamsin drew Bram's knife. \
                 “Drew the knife, did you?” Bram said. She did not draw the knife.";
    assert_none(&run(prose), Check::LostItem, prose);

    let mut w = world();
    w.characters[0].inventory = vec!["hunting knife".into()];
    let used = "Tamsin drew the knife.";
    let findings = run_with(&w, used, PointOfView::DeepThird, Tense::Past);
    assert_none(&findings, Check::LostItem, used);
}

// ---- length ----

fn length_findings(words: usize, target: (u32, u32)) -> Vec<Finding> {
    let w = world();
    let prose = "Tamsin waited. ".repeat(words / 2);
    let input = EvalInput {
        prose: &prose,
        pov: PointOfView::DeepThird,
        tense: Tense::Past,
        pov_character: &w.characters[0],
        characters: &w.characters,
        scene_location: None,
        locations: &w.locations,
        lost_items: &[],
        off_page: &[],
        target_words: target,
    };
    of(&evaluate(&input), Check::Length)
        .into_iter()
        .cloned()
        .collect()
}

#[test]
fn length_is_judged_against_the_target_with_the_actual_count() {
    assert!(length_findings(600, (500, 900)).is_empty());
    let short = length_findings(400, (500, 900));
    assert_eq!(short.len(), 1);
    assert_eq!(short[0].severity, Severity::Warning);
    assert!(
        short[0].message.contains("400 words"),
        "{}",
        short[0].message
    );
    let far_short = length_findings(200, (500, 900));
    assert_eq!(far_short[0].severity, Severity::Violation);
    assert!(
        far_short[0].message.contains("at least 500"),
        "{}",
        far_short[0].message
    );
    let long = length_findings(1000, (500, 900));
    assert_eq!(long[0].severity, Severity::Warning);
    let far_long = length_findings(1400, (500, 900));
    assert_eq!(far_long[0].severity, Severity::Violation);
    assert!(
        far_long[0].message.contains("1400 words"),
        "{}",
        far_long[0].message
    );
}

// ---- tense ----

#[test]
fn present_narration_in_a_past_novel_is_tense_drift() {
    let prose = "Tamsin climbed the stair. She walks to the lens. Bram turns away. \
                 She looks at the ledger. He says nothing. The storm broke.";
    let findings = run(prose);
    let f = assert_one(&findings, Check::TenseDrift, prose, "She walks");
    assert!(f.message.contains("“Bram turns”"), "{}", f.message);
    // "The storm broke." is read too (a noun-phrase subject), so six sentences are tensed.
    assert!(f.message.contains("4 of 6"), "{}", f.message);
}

#[test]
fn past_narration_in_a_present_novel_is_tense_drift() {
    let prose = "Tamsin climbs the stair. She walked to the lens. Bram turned away. \
                 They looked at the ledger. The storm breaks.";
    let findings = run_with(&world(), prose, PointOfView::DeepThird, Tense::Present);
    assert_one(&findings, Check::TenseDrift, prose, "She walked");
    // In a past-tense novel the same passage drifts the other way: one present sentence is
    // enough.
    let past_only = run(prose);
    assert_one(&past_only, Check::TenseDrift, prose, "Tamsin climbs");
}

#[test]
fn present_dialogue_and_a_little_free_thought_are_not_drift() {
    let prose = "“She walks every night,” Bram said. “He says nothing,” she said. \
                 *She is lying.* He is lying, she thought. She climbed the stair. \
                 She reached the lens. Bram turned. She is tired, so tired. \
                 She waited. He sat down. She always knew. They looked up.";
    assert_none(&run(prose), Check::TenseDrift, prose);
}

#[test]
fn a_first_person_narrator_in_the_present_may_recall_in_the_past_but_not_tell_now_in_it() {
    let w = world();
    let recalls = "I sit by the lens and write. I carried the lamp up that stair for eighteen \
                   months. Bram said the glass was cracked. The glass is cold under my hand.";
    let findings = run_with(&w, recalls, PointOfView::First, Tense::Present);
    assert_none(&findings, Check::TenseDrift, recalls);
    let now = "I sit by the lens and write. Now I climbed to the lamp room. The glass is cold.";
    let findings = run_with(&w, now, PointOfView::First, Tense::Present);
    assert_one(&findings, Check::TenseDrift, now, "I climbed");
    // A deed denied in the past is a deed all the same.
    let denied = "Bram is crying at the rail. She did not open the door again.";
    let findings = run_with(&w, denied, PointOfView::DeepThird, Tense::Present);
    assert_one(&findings, Check::TenseDrift, denied, "She did");
}

// ---- person ----

#[test]
fn first_person_narration_in_deep_third_is_person_drift() {
    let prose = "I walked to the lens. Tamsin waited. My hands shook on the rail.";
    let f = assert_one(&run(prose), Check::PersonDrift, prose, "I walked");
    assert!(f.message.contains("My hands shook"), "{}", f.message);
}

#[test]
fn first_person_inside_dialogue_or_thought_is_not_person_drift() {
    let prose = "“I walked here,” she said. *My hands are shaking.* I can’t, she thought. \
                 _Me, of all people._ She read the plaque for Henry I. Tamsin waited. \
                 I’m fine, she told herself. She thought: I have to get out.";
    assert_none(&run(prose), Check::PersonDrift, prose);
}

#[test]
fn a_first_person_narrator_slipping_into_she_is_noted_but_others_beside_i_are_not() {
    let w = world();
    // Narration about the narrator alone, then "she" with nobody else in sight: a slip.
    let slip = "I climbed to the lamp room. I am tired of the sea. She believes the light will fail.";
    let findings = run_with(&w, slip, PointOfView::First, Tense::Past);
    assert_one(&findings, Check::PersonDrift, slip, "She believes");
    // "She" in a sentence that speaks of "I", or beside dialogue, is someone the narrator
    // is with, even when the scene has not named her.
    for fine in [
        "I do not believe she had the strength to climb. She shrugged and turned away.",
        "“Go on,” I said. She laughed and turned away.",
        "She was a late riser, and I blinked at her in some surprise when she came down.",
        "I left the lamp room at noon. The harbour was quiet. A cart passed. At dusk she \
         came up the stair and sat by the lens.",
    ] {
        let findings = run_with(&w, fine, PointOfView::First, Tense::Past);
        assert_none(&findings, Check::PersonDrift, fine);
    }
}

#[test]
fn a_she_with_another_woman_named_just_after_is_that_woman_not_the_narrator() {
    let mut w = world();
    w.characters[2] = character(
        "C3",
        "Maud Fenn",
        json!({ "facts": { "pronouns": "she" }, "last_location": "L2" }),
    );
    let other = "But she was not destined to go far. With a cry Maud seizes the branch of a tree.";
    let findings = run_with(&w, other, PointOfView::First, Tense::Past);
    assert_none(&findings, Check::PersonDrift, other);
    let slip = "I climbed to the lamp room. I am tired of the sea. She believes the light will fail.";
    let findings = run_with(&w, slip, PointOfView::First, Tense::Past);
    assert_one(&findings, Check::PersonDrift, slip, "She believes");
}

#[test]
fn a_first_person_narrator_called_by_name_is_person_drift() {
    let w = world();
    let prose = "Tamsin walked to the lens. I waited. Tamsin Reed smiled at the glass.";
    let findings = run_with(&w, prose, PointOfView::First, Tense::Past);
    let f = assert_one(&findings, Check::PersonDrift, prose, "Tamsin walked");
    assert!(f.message.contains("“Tamsin Reed smiled”"), "{}", f.message);
    // Her name as others use it, or as an object, may be theirs: at most a note, never a
    // revision.
    let fine = "I walked to the lens. “Tamsin,” Bram said. Bram called Tamsin a fool. Tamsin's coat dripped.";
    let findings = run_with(&w, fine, PointOfView::First, Tense::Past);
    assert!(
        of(&findings, Check::PersonDrift)
            .iter()
            .all(|f| f.severity == Severity::Note),
        "{findings:#?}"
    );
}

// ---- markup ----

#[test]
fn markup_and_meta_text_are_flagged() {
    let cases = [
        ("Tamsin waited.<br>Bram turned.", "<br>"),
        ("<script>alert(1)</script> Tamsin waited.", "<script>"),
        ("Tamsin waited. <scene-end>", "<scene-end>"),
        ("# The Lighthouse\n\nTamsin waited.", "# The Lighthouse"),
        ("Here is the scene:\n\nTamsin waited.", "Here is the scene:"),
        ("Tamsin waited.\n\nWord count: 612", "Word count: 612"),
        (
            "As an AI, I cannot feel the wind. Tamsin waited.",
            "As an AI",
        ),
        (
            "Sure! Here's the revised scene.\n\nTamsin waited.",
            "Sure! Here's",
        ),
        ("Tamsin waited.\n```\nBram turned.", "```"),
    ];
    for (prose, quoted) in cases {
        let findings = run(prose);
        let hits = of(&findings, Check::Markup);
        assert_eq!(hits.len(), 1, "{prose:?}: {hits:#?}");
        assert!(hits[0].message.contains(quoted), "{}", hits[0].message);
        assert_eq!(hits[0].severity, Severity::Violation);
    }
}

#[test]
fn prose_that_merely_resembles_markup_is_clean() {
    let prose = "Here is the scene of the crime, Bram said, pointing. The tide was < a foot deep \
                 and > a yard wide. She counted #4 on the ledger. * * *\n\n***\n\nTamsin waited.";
    assert_none(&run(prose), Check::Markup, prose);
}

// ---- the whole evaluator ----

#[test]
fn a_clean_deep_pov_scene_has_no_findings() {
    let prose = include_str!("fixtures/clean_scene.md");
    let w = world();
    let input = EvalInput {
        prose,
        pov: PointOfView::DeepThird,
        tense: Tense::Past,
        pov_character: &w.characters[0],
        characters: &w.characters,
        scene_location: Some(&w.locations[0]),
        locations: &w.locations,
        lost_items: &w.lost,
        off_page: &[],
        target_words: (500, 900),
    };
    let findings = super::run::evaluate_rules(&input);
    assert!(findings.is_empty(), "{findings:#?}");
    // The learned reading may add a note (it is never sure of a sentence), but nothing the
    // revision acts on.
    let findings = evaluate(&input);
    assert!(
        findings.iter().all(|f| f.severity == Severity::Note),
        "{findings:#?}"
    );
    assert!(!needs_revision(&findings));
    assert_eq!(revision_brief(&findings), "");
}

#[test]
fn a_scene_with_several_problems_gets_one_brief_with_violations_first() {
    let prose =
        "Maud nodded at the lens. Orrin smiled at her. Unbeknownst to her, the tide turned.";
    let findings = run(prose);
    assert!(needs_revision(&findings));
    let brief = revision_brief(&findings);
    let lines: Vec<&str> = brief.lines().collect();
    assert_eq!(lines.len(), 3, "{brief}");
    assert!(lines[0].starts_with("1. [must fix] POV leak:"), "{brief}");
    assert!(
        lines[1].starts_with("2. [must fix] dead character acting:"),
        "{brief}"
    );
    assert!(lines[2].starts_with("3. [fix if it is a small change] character in two places:"));
}

#[test]
fn notes_and_warnings_alone_need_no_revision_and_notes_stay_out_of_the_brief() {
    let note = Finding::new(Check::Length, Severity::Note, "a note".into(), None);
    let warning = Finding::new(
        Check::TwoPlaces,
        Severity::Warning,
        "a warning".into(),
        None,
    );
    let findings = vec![note, warning];
    assert!(!needs_revision(&findings));
    assert_eq!(
        revision_brief(&findings),
        "1. [fix if it is a small change] character in two places: a warning\n"
    );
}

#[test]
fn findings_serialise_in_snake_case() {
    let f = Finding::new(
        Check::PovLeak,
        Severity::Violation,
        "m".into(),
        Some("e".into()),
    );
    let value = serde_json::to_value(&f).unwrap();
    assert_eq!(value["check"], "pov_leak");
    assert_eq!(value["severity"], "violation");
    let back: Finding = serde_json::from_value(value).unwrap();
    assert_eq!(back, f);
    assert_eq!(
        serde_json::to_value(Check::DeadCharacter).unwrap(),
        "dead_character"
    );
}

// ---- spans, the store, and the newer rules ----

#[test]
fn spans_count_characters_not_bytes() {
    let prose = "“Café?” Bram said. Tamsin smiled. Unbeknownst to her, the tide turned.";
    let findings = run(prose);
    let f = assert_one(&findings, Check::PovLeak, prose, "Unbeknownst to");
    let span = f.span.unwrap();
    let words: String = prose
        .chars()
        .skip(span.start as usize)
        .take((span.end - span.start) as usize)
        .collect();
    assert_eq!(words, "Unbeknownst to");
    assert_eq!(
        f.sentence.as_deref(),
        Some("Unbeknownst to her, the tide turned.")
    );
}

fn with_pronouns(mut w: World) -> World {
    w.characters[1]
        .facts
        .insert("pronouns".into(), "he/him".into());
    w.characters[2]
        .facts
        .insert("pronouns".into(), "she/her".into());
    w
}

#[test]
fn another_characters_mind_is_found_through_pronouns_and_unknown_names() {
    let w = with_pronouns(world());
    for (prose, quoted) in [
        (
            "Bram leaned on the rail. He was thinking about the night his father drowned.",
            "He was thinking",
        ),
        (
            "Maud smiled at the clerk, but inside she was seething.",
            "she was seething",
        ),
        ("Wenna wondered why the boat was late.", "Wenna wondered"),
        (
            "Bram's stomach dropped at the sight of it.",
            "Bram's stomach dropped",
        ),
        (
            "To Maud's relief, the ship was still there.",
            "To Maud's relief",
        ),
    ] {
        let findings = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
        assert_one(&findings, Check::OtherMind, prose, quoted);
    }
    for prose in [
        "Bram's jaw tightened; he was angry, she guessed.",
        "She wondered whether he was afraid.",
        "Maud had told her that Bram feared the water.",
        "Maud handed her the cup, and she wondered if it was poisoned.",
        "He must have known all along.",
    ] {
        let findings = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
        assert_none(&findings, Check::OtherMind, prose);
    }
}

#[test]
fn foreshadowing_and_narrator_knowledge_are_leaks() {
    for (prose, quoted) in [
        ("It was a choice she would later regret.", "would later"),
        (
            "It was the last time she would laugh in that room.",
            "the last time she would",
        ),
        (
            "Had she known what waited below, she would have stayed.",
            "Had she known",
        ),
        ("She didn't notice the skiff slide away.", "didn't notice"),
        (
            "It did not occur to her that the gate was open.",
            "did not occur to her",
        ),
    ] {
        assert_one(&run(prose), Check::PovLeak, prose, quoted);
    }
    for prose in [
        "She didn't notice the cold until she stopped walking.",
        "She would regret it if she let him go.",
        "She hadn't realized how tired she was.",
    ] {
        assert_none(&run(prose), Check::PovLeak, prose);
    }
}

#[test]
fn what_nobody_there_could_witness_and_a_future_only_a_narrator_knows_are_leaks() {
    for (prose, quoted, severity) in [
        (
            "Tamsin left the cellar. Down at the keg, where no one could see him, Bram drank.",
            "where no one could see",
            Severity::Violation,
        ),
        (
            "Tamsin climbed. In the room beyond, where she could not see, Bram was packing.",
            "where she could not see",
            Severity::Violation,
        ),
        (
            "Tamsin waited. Round the corner, out of sight of them all, a man had stopped.",
            "out of sight of them all, a",
            Severity::Violation,
        ),
        (
            "Tamsin shut the door. Behind the closed door, Bram was already weeping.",
            "Behind the closed door, Bram was already weeping",
            Severity::Note,
        ),
        (
            "Bram looked at his watch. The two friends were never to drink together again.",
            "were never to drink together again",
            Severity::Violation,
        ),
        (
            "Bram smiled at her. Of this she was perfectly unaware.",
            "she was perfectly unaware",
            Severity::Violation,
        ),
        (
            "Tamsin read on. In the cellar, unknown to the keeper's wife, Bram had lit a lamp.",
            "unknown to the keeper's wife",
            Severity::Violation,
        ),
        (
            "Tamsin waited. Down at the quay, at that very moment, the men were wagering.",
            "at that very moment",
            Severity::Violation,
        ),
        (
            "The gate was open. Nobody ever saw who left it so, but Bram had done it.",
            "Nobody ever saw who",
            Severity::Violation,
        ),
    ] {
        let f = assert_one(&run(prose), Check::PovLeak, prose, quoted);
        assert_eq!(f.severity, severity, "{prose}");
    }
    for prose in [
        "Tamsin climbed to where she could see the harbour.",
        "Bram walked out of sight. Tamsin waited.",
        "Behind the door, the kettle sang. Tamsin knocked.",
        "“We were never to meet again,” Bram said.",
    ] {
        assert_none(&run(prose), Check::PovLeak, prose);
    }
}

#[test]
fn one_sentence_of_drift_is_enough_and_timeless_or_reported_present_is_not() {
    let drift = "Tamsin climbed the stair. At the top she pushes the door open.";
    assert_one(&run(drift), Check::TenseDrift, drift, "she pushes");
    let slip = "Tamsin closed the shutters. I could hear the sea below.";
    assert_one(&run(slip), Check::PersonDrift, slip, "I could hear");
    for prose in [
        "She stood at the window. The harbour is beautiful at night.",
        "Bram told her that the ferry leaves at six.",
        "Everyone said she never forgets a debt.",
        "The plaque read: HERE I STOOD. Tamsin touched it.",
    ] {
        let findings = run(prose);
        assert_none(&findings, Check::TenseDrift, prose);
        assert_none(&findings, Check::PersonDrift, prose);
    }
    let w = world();
    let narrator = "I climbed the stair in the dark. She thought about the letter.";
    let findings = run_with(&w, narrator, PointOfView::First, Tense::Past);
    assert_one(&findings, Check::PersonDrift, narrator, "She thought");
}

#[test]
fn records_contradicted_and_places_out_of_reach_are_violations() {
    let mut w = with_pronouns(world());
    w.characters[0]
        .facts
        .insert("brother".into(), "alive, in the gaol".into());
    w.locations.push(location("L3", "the Isle of Skerra"));
    w.locations[0].connections = vec!["L2".into()];
    w.locations[1].connections = vec!["L1".into()];
    w.locations[2].connections = vec!["L4".into()];
    w.locations.push(location("L4", "Skerra Chapel"));
    w.locations[3].connections = vec!["L3".into()];
    let dead = "Her brother was dead, and nothing would change that.";
    let findings = run_with(&w, dead, PointOfView::DeepThird, Tense::Past);
    let f = assert_one(
        &findings,
        Check::Contradiction,
        dead,
        "Her brother was dead",
    );
    assert_eq!(f.record.as_deref(), Some("C1"));
    let alive = "Orrin was alive after all.";
    let findings = run_with(&w, alive, PointOfView::DeepThird, Tense::Past);
    assert_one(&findings, Check::Contradiction, alive, "Orrin was alive");
    let feared = "She feared her brother was dead.";
    let findings = run_with(&w, feared, PointOfView::DeepThird, Tense::Past);
    assert_none(&findings, Check::Contradiction, feared);

    let far = "Tamsin left the lighthouse and walked to the Isle of Skerra.";
    let findings = run_with(&w, far, PointOfView::DeepThird, Tense::Past);
    let f = assert_one(&findings, Check::Unreachable, far, "the Isle of Skerra");
    assert_eq!(f.record.as_deref(), Some("L3"));
    assert_eq!(f.severity, Severity::Violation);
    let near = "Tamsin walked down to the harbour.";
    let findings = run_with(&w, near, PointOfView::DeepThird, Tense::Past);
    assert_none(&findings, Check::Unreachable, near);
}

#[test]
fn commentary_about_the_scene_is_an_error_that_asks_for_a_revision() {
    let prose = "This scene is a classic example of the calm before the storm. The scene ends \
                 with a cliffhanger that keeps the reader guessing.";
    let findings = run(prose);
    let meta = of(&findings, Check::MetaText);
    assert_eq!(meta.len(), 2, "{findings:#?}");
    assert!(meta.iter().all(|f| f.severity == Severity::Violation));
    assert!(needs_revision(&findings));
    // Not story, so not read as narration slipping into the present.
    assert_none(&findings, Check::TenseDrift, prose);
    for clean in [
        "The scene at the harbour was chaos. Tamsin pushed through it.",
        "“This chapter of my life is over,” Maud said.",
        "The reader in the corner turned a page.",
    ] {
        assert_none(&run(clean), Check::MetaText, clean);
    }
}

#[test]
fn stock_phrasing_is_a_warning_that_never_forces_a_revision() {
    let prose = "Tamsin felt shivers run down her spine. “A testament to you,” Bram said.";
    let findings = run(prose);
    let stock = of(&findings, Check::StockPhrase);
    assert_eq!(stock.len(), 1, "{findings:#?}");
    assert_eq!(stock[0].severity, Severity::Warning);
    assert!(stock[0].message.contains("shivers run down her spine"));
    assert!(!needs_revision(&findings));
}

#[test]
fn check_text_reads_memory_and_recent_scenes_from_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let mut store = crate::store::Store::open(&tmp.path().join("s.sqlite"), true).unwrap();
    let w = with_pronouns(world());
    let earlier = "The salt wind came off the cliffs like a blade. Tamsin went up.";
    {
        let tx = store.transaction().unwrap();
        crate::store::init_state(&tx, "2026-01-01T00:00:00Z").unwrap();
        for l in &w.locations {
            crate::store::insert_location(&tx, l).unwrap();
        }
        for c in &w.characters {
            crate::store::insert_character(&tx, c).unwrap();
        }
        let scene = crate::model::Scene {
            id: "S1".into(),
            tick: 1,
            title: "Wind".into(),
            pov_character: Some("C1".into()),
            location: Some("L1".into()),
            prose: earlier.into(),
            word_count: 12,
            summary: vec![],
            tension: None,
            created_at: "2026-01-01T00:00:00Z".into(),
        };
        crate::store::insert_scene(&tx, &scene).unwrap();
        tx.commit().unwrap();
    }
    let config: crate::config::NovelConfig = toml::from_str("[novel]\ntitle = \"T\"\n").unwrap();
    let scope = CheckScope {
        pov_character: Some("C1".into()),
        location: None,
    };
    let draft = "At dusk the salt wind came off the cliffs like a blade. Orrin smiled at her.";
    let findings = check_text(store.conn(), &config, &scope, draft).unwrap();
    assert_eq!(of(&findings, Check::Repetition).len(), 1, "{findings:#?}");
    let dead = of(&findings, Check::DeadCharacter);
    assert_eq!(dead.len(), 1, "{findings:#?}");
    assert_eq!(dead[0].record.as_deref(), Some("C4"));
    // A stored scene is not compared with itself.
    let own = check_text(store.conn(), &config, &scope, earlier).unwrap();
    assert!(of(&own, Check::Repetition).is_empty(), "{own:#?}");
    let unknown = CheckScope {
        pov_character: Some("C9".into()),
        location: None,
    };
    assert!(matches!(
        check_text(store.conn(), &config, &unknown, draft),
        Err(CheckError::UnknownCharacter(id)) if id == "C9"
    ));
}

// ---- other minds and narrator knowledge: forms learned from published prose ----

#[test]
fn inner_life_in_relative_clauses_coordinated_starts_and_held_beliefs_is_found() {
    // (prose, quoted, severity): a relative clause tells a standing trait in passing (a note)
    // unless it says the feeling is hidden ("privately", "in secret").
    let cases = [
        (
            "Maud, who privately found the visits a strain, played the piano.",
            "who privately found",
            Severity::Violation,
        ),
        (
            "Her uncle, who had always feared the sea, stayed ashore.",
            "who had always feared",
            Severity::Note,
        ),
        (
            "Bram glanced at the lamp and privately began to regret the bargain.",
            "regret",
            Severity::Violation,
        ),
        (
            "Bram could not wait to tell them the story.",
            "Bram could not wait",
            Severity::Violation,
        ),
        (
            "Bram has a misgiving that the tide will turn against them.",
            "Bram has a misgiving",
            Severity::Violation,
        ),
        (
            "Bram took his leave, inwardly laughing at how easily she had believed him.",
            "inwardly laughing",
            Severity::Violation,
        ),
        (
            "Maud walked home slowly, weary of the long watch.",
            "weary",
            Severity::Violation,
        ),
    ];
    for (prose, quoted, severity) in cases {
        let f = assert_one(&run(prose), Check::OtherMind, prose, quoted);
        assert_eq!(f.severity, severity, "{prose}");
    }
    // Seen, said, or the POV character's own: nothing.
    let clean = "Maud, who stood by the door, waved. Bram could not wait any longer and left. \
                 Tamsin had a feeling that the tide would turn. Maud, tired from the walk, sat down.";
    assert_none(&run(clean), Check::OtherMind, clean);
}

#[test]
fn what_no_one_saw_and_a_future_not_yet_known_are_narrator_knowledge() {
    let cases = [
        (
            "Bram rose, warned by a wink that nobody else in the room could see.",
            "nobody else in the room could see",
        ),
        (
            "Tamsin was far from suspecting that she was watched.",
            "far from suspecting",
        ),
        (
            "She would stay in the tower all winter, though she has no idea of it yet.",
            "no idea of it yet",
        ),
    ];
    for (prose, quoted) in cases {
        assert_one(&run(prose), Check::PovLeak, prose, quoted);
    }
}

#[test]
fn the_plain_forms_a_writers_model_uses_are_found_and_outward_signs_are_not() {
    let minds = [
        "Across the table, Bram was thinking about the money.",
        "Bram couldn't shake the feeling that she was lying.",
        "Bram's chest tightened with guilt.",
        "Guilt gnawed at Bram.",
        "Bram knew she would never forgive him.",
        "Bram felt betrayed.",
        "A pang of jealousy shot through Bram.",
        "Bram was secretly thrilled.",
        "Bram couldn't believe his luck.",
        "In Bram's mind, the plan was already taking shape.",
        "Bram's thoughts drifted to his sister.",
        "Bram decided to say nothing.",
        "Bram hated himself for lying.",
        "Part of Bram wanted to run.",
        "Bram's heart ached for her.",
        "Bram wished he could take it back.",
        "Bram, desperate to change the subject, pointed at the sky.",
        "Bram silently cursed his luck.",
        "Deep down, Bram knew she was right.",
        "Bram was lost in thought.",
        "Bram's stomach churned with dread.",
        "Memories of the war flooded Bram's mind.",
        "A plan began to form in Bram's head.",
        "Bram longed to tell her the truth.",
        "Bram felt a sudden urge to laugh.",
        "Bram was tempted to leave.",
        "Bram pretended not to care, but inside he was seething.",
        "Bram's mind raced.",
        "Bram couldn't stop thinking about the letter.",
        "Bram nodded, relieved that she hadn't asked.",
        "Bram didn't trust her, not after last winter.",
        "Bram was determined to find the truth.",
        "Bram resented the way she spoke to him.",
        "The old fisherman was worried about the storm.",
        "Bram felt his anger rise.",
        "Bram suspected nothing.",
        "Bram considered telling her.",
        "Bram's patience was wearing thin.",
        "Bram was beginning to regret the bargain.",
        "Shame burned in Bram's cheeks.",
        "Bram wondered if she knew.",
        "Bram feared the worst.",
        "Bram could not forgive himself.",
        "Bram felt sick with worry.",
        "Bram's resolve hardened.",
    ];
    let leaks = [
        "Meanwhile, in the cellar, Bram was counting the coins.",
        "Tamsin had no idea that Bram was behind the door.",
        "Little did she know, Bram had already left.",
        "Tamsin would later regret this.",
        "This would be the last time she saw him.",
        "Neither of them noticed the figure in the doorway.",
        "Unseen by Tamsin, Bram slipped the key into his pocket.",
        "Behind her back, Bram winked at Maud.",
        "What she didn't know was that the letter was forged.",
        "Had she turned around, she would have seen him.",
        "She failed to notice the blood on his sleeve.",
        "Hours later, the ship would sink.",
        "She never saw the knife.",
        "Two streets away, Bram was running.",
        "She didn't see Bram slip out of the room.",
        "Tamsin was unaware that she was being followed.",
        "Years later, she would remember this night.",
        "It was the last letter she would ever write.",
        "Outside, unnoticed, a man watched the house.",
    ];
    let controls = [
        "Bram looked relieved.",
        "Bram seemed angry.",
        "Bram's face darkened.",
        "Tamsin wondered whether Bram was lying.",
        "She could tell Bram was afraid.",
        "Bram was angry; she could hear it in the way he set the cups down.",
        "Bram said he was tired.",
        "Bram must have known.",
        "Tamsin felt a pang of guilt.",
        "Bram smiled, but his eyes were cold.",
        "Bram's hands shook.",
        "Bram frowned as if puzzled.",
        "Bram stared at the map, his jaw tight.",
        "Bram sat down heavily, rubbing his eyes.",
        "Bram laughed, too loudly.",
        "Bram wanted the map; he said so twice.",
        "Outside, the rain was falling.",
        "Across the room, Bram was pouring tea.",
        "Tamsin did not know what to say.",
        "She would never forgive him, she decided.",
        "Bram's voice was tight with anger.",
    ];
    for p in minds {
        assert!(!of(&run(p), Check::OtherMind).is_empty(), "no head-hop found in {p:?}");
    }
    for p in leaks {
        assert!(!of(&run(p), Check::PovLeak).is_empty(), "no leak found in {p:?}");
    }
    for p in controls {
        let f = run(p);
        assert_none(&f, Check::OtherMind, p);
        assert_none(&f, Check::PovLeak, p);
    }
}

#[test]
fn a_first_person_narrators_others_and_plain_tense_slips_are_found() {
    let first_minds = [
        "Bram was secretly pleased with himself.",
        "My mother, terrified of the men, hid the money under the floor.",
        "I handed Bram the note. He read it twice, hoping I had not noticed the seal.",
        "Bram nodded at me, though inwardly he was furious.",
        "I left the room. Bram, glad to be rid of me, returned to his ledger.",
        "The captain looked at me and decided I could be trusted.",
        "Bram took the money, privately resolving never to pay it back.",
        "I told Bram the news. A wave of relief swept over him.",
        "Bram shook my hand, eager to be gone.",
        "The stranger hesitated, unsure whether to trust me.",
        "Bram's mind was elsewhere as I spoke.",
    ];
    let first_clean = [
        "Bram looked pleased with himself.",
        "I could see that Maud was thinking of her son.",
        "Bram laughed at my joke; I fancied he found it tiresome.",
        "I did not know then that Bram had already guessed the truth.",
        "Bram shook my hand and said he was eager to be gone.",
        "He was, I think, the most careful man I ever knew.",
        "I was terrified of the men.",
        "Maud turned to the window, her hands full of linen.",
    ];
    let past_tense = [
        "Tamsin climbed the stair. She opens the door.",
        "Tamsin waited. The guard takes one look at her and waves her through.",
        "Tamsin turned. Bram is standing at the window.",
        "Tamsin stopped. She turns and runs for the gate.",
    ];
    let present_tense = [
        "Tamsin climbs the stair. She opened the door.",
        "Tamsin waits. The guard took one look at her and waved her through.",
        "Tamsin turns. Bram was standing at the window, and he smiled.",
    ];
    for p in first_minds {
        let f = run_with(&world(), p, PointOfView::First, Tense::Past);
        assert!(
            !of(&f, Check::OtherMind).is_empty() || !of(&f, Check::PovLeak).is_empty(),
            "nothing found in {p:?}"
        );
    }
    for p in first_clean {
        let f = run_with(&world(), p, PointOfView::First, Tense::Past);
        assert_none(&f, Check::OtherMind, p);
        assert_none(&f, Check::PovLeak, p);
    }
    for p in past_tense {
        assert!(!of(&run(p), Check::TenseDrift).is_empty(), "no drift in {p:?}");
    }
    for p in present_tense {
        let f = run_with(&world(), p, PointOfView::DeepThird, Tense::Present);
        assert!(!of(&f, Check::TenseDrift).is_empty(), "no drift in {p:?}");
    }
}

// ---- beyond the POV character's reach (beyond.rs) ----

#[test]
fn what_lies_beyond_the_pov_characters_reach_is_a_note() {
    let cases = [
        (
            "Had she held the glass to her ear, she would have heard nothing at all.",
            "Had she held the glass",
        ),
        (
            "Were she to turn her head at the landing, she would see Bram in the shadow below.",
            "Were she to turn",
        ),
        (
            "It was the last time the ledger would be opened in that office.",
            "the last time the ledger would",
        ),
        (
            "Years afterwards, when the lamp was gone, neither of them would speak of that night.",
            "Years afterwards",
        ),
        (
            "Before the month is out this same boat will be sold at auction.",
            "Before the month is out",
        ),
        (
            "Bram had sworn to a paper he never read, a thing he told no one to the day of his death.",
            "to the day of his death",
        ),
        (
            "It escaped every eye at the table that Maud had eaten nothing.",
            "escaped every eye",
        ),
        (
            "No sooner was her back turned than Bram pocketed the key.",
            "No sooner was her back turned",
        ),
        (
            "Twenty years before, under another name, Bram had been clerk to the harbour board.",
            "Twenty years before",
        ),
        (
            "Bram lit the lamp: the last lamp he will ever trim.",
            "the last lamp he will ever",
        ),
        (
            "The boat she hired would sink before morning, though nobody on the quay suspected it.",
            "though nobody on the quay suspected",
        ),
        (
            "Four years later a paragraph in the paper would tell her how Bram had died.",
            "Four years later",
        ),
        (
            "Downstairs, Bram is reading her letter aloud to Maud.",
            "Downstairs, Bram is reading",
        ),
        (
            "In the next room, beyond the wall, Bram had set a saucer of milk upon the safe.",
            "In the next room",
        ),
        (
            "Nobody on the quay paid the least attention to the man in the grey coat.",
            "Nobody on the quay paid the least attention",
        ),
        (
            "She was never to learn that Bram stood at the rail long after the boat had gone.",
            "was never to learn",
        ),
        (
            "Not one of them will ever learn where she spent the night.",
            "will ever learn",
        ),
        (
            "Before the snow has melted, the chase will have ended at the cemetery gate.",
            "will have ended",
        ),
        (
            "While she was gone, Bram turned the ledger round and read the page.",
            "While she was gone",
        ),
        (
            "Once he was out of sight of the stile, Bram whipped up his horse.",
            "Once he was out of sight",
        ),
    ];
    for (prose, quoted) in cases {
        let f = assert_one(&run(prose), Check::PovLeak, prose, quoted);
        assert_eq!(f.severity, Severity::Note, "{prose}");
    }
}

#[test]
fn the_pov_characters_own_secrets_plans_and_sights_are_not_beyond_her() {
    let prose = "She told no one where she had hidden it. Had she been born in the town, she \
                 would have married him. No sooner was Bram's back turned than she pocketed \
                 the key. Twenty years before, she had been a clerk herself. The letter lay \
                 unopened on the table. Before the month was out, she thought, she would go. \
                 Downstairs, she could hear Bram reading the letter aloud. Nobody paid her \
                 the least attention. She will never know, she told herself. Reason, it will \
                 never learn. While Bram was gone, she read the page.";
    assert_none(&run(prose), Check::PovLeak, prose);
}

#[test]
fn what_others_do_while_the_pov_character_sleeps_is_a_note_until_she_wakes() {
    let asleep = "Tamsin fell asleep over her book. Bram came up long after and sat an hour \
                  by the bed.";
    let f = assert_one(&run(asleep), Check::PovLeak, asleep, "Bram came up long after");
    assert_eq!(f.severity, Severity::Note);
    let awake = "Tamsin slept at the lighthouse that night, and in the morning Bram came \
                 up with the tea. Bram set it down by the bed.";
    assert_none(&run(awake), Check::PovLeak, awake);
    let woken = "Tamsin fell asleep over her book. Bram's step on the stair woke her.";
    assert_none(&run(woken), Check::PovLeak, woken);
    let night = "Tamsin blew out the lamp and went up to bed. Long after the house was dark, \
                 a light burned in the window across the square.";
    assert_one(&run(night), Check::PovLeak, night, "Long after the house was dark");
}

#[test]
fn a_feeling_living_in_another_character_is_theirs() {
    let prose = "Bram set down the cup. Remorse for the blow he had struck sat heavy in him \
                 all through supper.";
    assert_one(&run(prose), Check::OtherMind, prose, "Remorse for the blow");
    let own = "Bram set down the cup. Remorse sat heavy in her all through supper.";
    assert_none(&run(own), Check::OtherMind, own);
}

#[test]
fn decisions_and_dislikes_of_another_character_are_theirs() {
    for (prose, quoted) in [
        (
            "Bram, for his part, had made up his mind on the stairs that she should have it.",
            "made up his mind",
        ),
        (
            "Bram had already settled in his own mind which boat to take.",
            "settled in his own mind",
        ),
        (
            "Bram had taken a strong dislike to the harbourmaster from the first.",
            "taken a strong dislike to",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
}

#[test]
fn a_present_modal_in_past_narration_is_tense_drift_but_not_a_maxim() {
    let w = world();
    let prose = "Tamsin waited at the window. She can hear Bram on the stairs now.";
    let findings = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
    assert_names(&findings, Check::TenseDrift, prose, "can hear");
    let maxim = "Tamsin waited at the window. We cannot give ourselves, she had read once.";
    let findings = run_with(&w, maxim, PointOfView::DeepThird, Tense::Past);
    assert_none(&findings, Check::TenseDrift, maxim);
}

#[test]
fn a_first_person_narrator_looking_back_on_their_own_acts_is_a_note_at_most() {
    let w = world();
    let regret = "I tossed the rocket into the room. It was an act I would later regret.";
    let findings = run_with(&w, regret, PointOfView::First, Tense::Past);
    let f = assert_one(&findings, Check::PovLeak, regret, "would later");
    assert_eq!(f.severity, Severity::Note);
    let found_out = "I signed where he showed me. Had I looked closer, I should have seen (as I \
                     found a month later) my father's name already there.";
    let findings = run_with(&w, found_out, PointOfView::First, Tense::Past);
    assert_none(&findings, Check::PovLeak, found_out);
}

#[test]
fn a_phrase_that_puts_what_follows_inside_another_character_makes_it_their_mind() {
    for (prose, quoted) in [
        (
            "Bram went from group to group with good advice; yet under all his smiles he was \
             cursing the hotheads.",
            "cursing",
        ),
        (
            "Bram went from group to group with good advice; yet under all his smiles he was \
             counting the hours.",
            "counting",
        ),
        (
            "Bram took a small spiteful pleasure in carrying the message.",
            "took a small spiteful pleasure in",
        ),
        (
            "Bram carried the deed to the window, for he had his doubts of her father's hand.",
            "had his doubts",
        ),
    ] {
        assert_one(&run(prose), Check::OtherMind, prose, quoted);
    }
    let own = "Bram went from group to group; yet under all her smiles she was cursing him.";
    assert_none(&run(own), Check::OtherMind, own);
}

#[test]
fn a_characters_present_in_past_narration_is_drift_even_as_a_habit_or_an_unlisted_verb() {
    let w = world();
    for (prose, quoted) in [
        (
            "Tamsin climbed the stair. She crams her cap into her pocket and re-enters the lamp room.",
            "crams",
        ),
        (
            "Tamsin sat at the desk. She turns often from her tiresome writing to the window.",
            "turns",
        ),
    ] {
        let findings = run_with(&w, prose, PointOfView::DeepThird, Tense::Past);
        assert_names(&findings, Check::TenseDrift, prose, quoted);
    }
    let commentary = "I knew him well. In his eyes she eclipses the whole of her sex.";
    let findings = run_with(&w, commentary, PointOfView::First, Tense::Past);
    assert_none(&findings, Check::TenseDrift, commentary);
}

#[test]
fn a_second_predicate_of_feeling_or_a_state_after_now_is_the_subjects_mind() {
    for (prose, quoted) in [
        (
            "Bram hears every groan through the wall, and despises her for each one of them.",
            "despises",
        ),
        (
            "Bram had meant every word of it, and was sorry now that he had teased her.",
            "sorry",
        ),
        (
            "In her last months Maud had gone over that night a thousand times, blaming herself \
             for the touch of her hand.",
            "blaming",
        ),
        ("Bram came up after supper. He had quite decided to send her away.", "decided"),
        (
            "The sight of her face had stirred up in Bram a hunger for cheese.",
            "stirred up in Bram a hunger",
        ),
    ] {
        assert_names(&run(prose), Check::OtherMind, prose, quoted);
    }
    // A first-person narrator's standing portrait, in the present, is theirs to give.
    let w = world();
    let portrait = "Bram loves me very dearly, and hates to have me sick.";
    let findings = run_with(&w, portrait, PointOfView::First, Tense::Present);
    assert_none(&findings, Check::OtherMind, portrait);
}

#[test]
fn a_first_person_narrator_called_by_a_role_of_their_own_is_person_drift() {
    let mut w = world();
    w.characters[0].description = "A young wife who keeps a secret journal.".into();
    for prose in [
        "Bram says I must rest. Bram's wife lies very still, so that he will think she sleeps.",
        "Bram laughs at me. His wife folds the paper away under the mattress.",
    ] {
        let findings = run_with(&w, prose, PointOfView::First, Tense::Present);
        let f = of(&findings, Check::PersonDrift);
        assert_eq!(f.len(), 1, "{prose}: {findings:#?}");
        assert_eq!(f[0].severity, Severity::Note);
    }
    // A role another character has too is theirs as much as the narrator's.
    w.characters[2].description = "Bram's first wife, long gone to the harbour.".into();
    let shared = "Bram says I must rest. Bram's wife lies very still.";
    let findings = run_with(&w, shared, PointOfView::First, Tense::Present);
    assert_none(&findings, Check::PersonDrift, shared);
}

#[test]
fn a_state_after_an_adverb_of_manner_or_a_feeling_named_as_someones_is_theirs() {
    for (prose, quoted) in [
        (
            "Bram only shook his head, faintly irritated that she should need to ask.",
            "irritated",
        ),
        (
            "Bram went down to the kitchen, his curiosity about so early a visitor very nearly \
             more than he could bear.",
            "curiosity",
        ),
    ] {
        assert_names(&run(prose), Check::OtherMind, prose, quoted);
    }
    let said = "Bram, with perfect calm, went on to express his admiration of the lamp.";
    assert_none(&run(said), Check::OtherMind, said);
}
