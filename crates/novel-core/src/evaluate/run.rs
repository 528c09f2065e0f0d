//! Running every check over a scene: the scene read once into the shared [`Ctx`] (names,
//! pronouns, places sentence by sentence), then each check in order, each capped at
//! [`MAX_PER_CHECK`] findings.

use std::cell::OnceCell;

use super::ctx::Ctx;
use super::finding::{Finding, MAX_PER_CHECK};
use super::input::EvalInput;
use super::map::Map;
use super::text;
use crate::model::Character;

/// Runs every check over the scene; findings come in check order, the learned reading's
/// notes last.
pub fn evaluate(input: &EvalInput<'_>) -> Vec<Finding> {
    let ctx = Ctx::new(*input);
    let mut findings = rules(&ctx);
    let learned = super::learned::readings(&ctx, &findings);
    findings.extend(learned);
    findings
}

/// The rules alone, without the learned reading: what the rules' own tests assert.
#[cfg(test)]
pub(super) fn evaluate_rules(input: &EvalInput<'_>) -> Vec<Finding> {
    rules(&Ctx::new(*input))
}

fn rules(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let checks: [fn(&Ctx<'_>) -> Vec<Finding>; 18] = [
        super::pov::leaks,
        super::minds::other_minds,
        super::continuity::dead_characters,
        super::continuity::two_places,
        super::continuity::lost_items,
        super::possessions::held_by_another,
        super::places::unreachable,
        super::facts::contradictions,
        super::appearance::contradictions,
        super::conditions::contradictions,
        super::ages::contradictions,
        super::knowledge::off_page_knowledge,
        super::form::length,
        super::voice::tense_drift,
        super::voice::person_drift,
        super::form::markup,
        super::meta::meta_text,
        super::style::stock_phrasing,
    ];
    for check in checks {
        let mut found = check(ctx);
        found.truncate(MAX_PER_CHECK);
        findings.extend(found);
    }
    findings
}

impl<'a> Ctx<'a> {
    pub(super) fn new(input: EvalInput<'a>) -> Ctx<'a> {
        let mut people: Vec<&'a Character> = input.characters.iter().collect();
        let pov = match people.iter().position(|c| c.id == input.pov_character.id) {
            Some(i) => i,
            None => {
                people.push(input.pov_character);
                people.len() - 1
            }
        };
        let names = text::NameIndex::new(&people);
        let genders = people.iter().map(|c| pronoun_of(c)).collect();
        let map = Map::new(input.locations);
        let place_words = map.words();
        let prose = text::Prose::new(input.prose);
        let meta = prose
            .sentences
            .iter()
            .map(|s| super::meta::is_meta(&prose, s))
            .collect();
        let hits = prose
            .sentences
            .iter()
            .map(|s| (s.start, names.hits(&prose, s)))
            .collect();
        let mut ctx = Ctx {
            input,
            prose,
            meta,
            people,
            pov,
            names,
            pov_pronoun: pronoun_of(input.pov_character),
            genders,
            map,
            place_words,
            place_after: Vec::new(),
            journeys: Vec::new(),
            hits,
            subjects: OnceCell::new(),
            others_seen: OnceCell::new(),
            tense_readings: OnceCell::new(),
        };
        let (place_after, journeys) = super::places::track(&ctx);
        ctx.place_after = place_after;
        ctx.journeys = journeys;
        ctx
    }
}

/// A character's pronoun, from a `pronouns` or `gender` fact or, failing that, from the
/// pronouns their description, goals, fears and arc use when they use only one kind ("clear
/// her brother's name").
fn pronoun_of(c: &Character) -> Option<&'static str> {
    let stated = ["pronouns", "gender", "sex"]
        .iter()
        .filter_map(|key| c.facts.get(*key))
        .find_map(|value| {
            pronoun_in(
                value,
                &["she", "her", "female", "woman", "girl"],
                &["he", "him", "male", "man", "boy"],
            )
        });
    stated.or_else(|| {
        let text = format!(
            "{} {} {} {} {} {}",
            c.description,
            c.personality.join(" "),
            c.goals.join(" "),
            c.fears.join(" "),
            c.arc.want,
            c.arc.need
        );
        pronoun_in(
            &text,
            &["she", "her", "hers", "herself"],
            &["he", "him", "his", "himself"],
        )
    })
}

/// "she" or "he" when `text` uses words of only one of the two kinds.
fn pronoun_in(text: &str, she: &[&str], he: &[&str]) -> Option<&'static str> {
    let text = text.to_lowercase();
    let words: Vec<&str> = text.split(|ch: char| !ch.is_alphabetic()).collect();
    let uses = |kind: &[&str]| words.iter().any(|w| kind.contains(w));
    match (uses(she), uses(he)) {
        (true, false) => Some("she"),
        (false, true) => Some("he"),
        _ => None,
    }
}
