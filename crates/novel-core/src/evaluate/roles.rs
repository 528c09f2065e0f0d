//! A first-person narrator called by a role instead of "I": the roles their own description
//! gives them ("A young wife and mother…" → "John's wife lies very still"; "Holmes's friend
//! and chronicler, an army doctor" → "his friend, following the finger, made out"), and "the
//! narrator" for anyone. Only as the subject of a verb, and only a role no other character's
//! description or alias claims ("the doctor" in a book with two doctors is someone else).
//! `voice.rs` reports these with the narrator's other third-person slips, as notes: a role is
//! a guess at who is meant.

use super::ctx::Ctx;
use super::lexicon::{is_action, is_past};
use super::people::subject_verbs;
use super::text::Sentence;
use super::verbs::present_third_base;

/// Nouns for what a person is to others or does, as descriptions name them.
#[rustfmt::skip]
const ROLE_NOUNS: &[&str] = &[
    "wife", "husband", "mother", "father", "son", "daughter", "sister", "brother", "friend",
    "companion", "chronicler", "biographer", "doctor", "physician", "surgeon", "patient",
    "boy", "girl", "lad", "lass", "widow", "widower", "clerk", "nurse", "governess", "servant",
    "apprentice", "assistant", "partner", "secretary", "lodger", "tenant", "heir", "orphan",
    "narrator", "diarist", "hero", "heroine", "schoolmaster", "schoolteacher", "teacher",
    "student", "soldier",
];

/// Roles that name whoever tells the story, whatever their description: "Our hero, gentlemen,
/// has had toothache", "Holmes's chronicler put on his hat".
const ANYONE_TELLING: &[&str] = &["narrator", "hero", "heroine", "chronicler", "diarist"];

/// The roles that name the narrator: from their description, less those another character
/// also has, and "narrator".
pub(super) fn narrator_roles(ctx: &Ctx<'_>) -> Vec<&'static str> {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect()
    };
    let own = words(&ctx.people[ctx.pov].description);
    let others: Vec<String> = ctx
        .people
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != ctx.pov)
        .flat_map(|(_, c)| {
            let mut w = words(&c.description);
            for alias in &c.aliases {
                w.extend(words(alias));
            }
            w
        })
        .collect();
    ROLE_NOUNS
        .iter()
        .copied()
        .filter(|r| ANYONE_TELLING.contains(r) || own.iter().any(|w| w == r))
        .filter(|r| !others.iter().any(|w| w == r))
        .collect()
}

/// Where sentence `s` calls the narrator by one of `roles` as the subject of a verb ("John's
/// wife lies", "His companion nodded", "The narrator folds"): the first token of the phrase
/// and the verb's token.
pub(super) fn role_subject(ctx: &Ctx<'_>, s: &Sentence, roles: &[&str]) -> Option<(usize, usize)> {
    (0..s.tokens.len()).find_map(|i| {
        let role = s.tokens[i].lower.as_str();
        if !roles.contains(&role) || i == 0 {
            return None;
        }
        // "the", "his", "her", "their", "our" or a name's possessive, with up to two words
        // between.
        let owner = (i.saturating_sub(3)..i).find(|&k| {
            let w = s.tokens[k].lower.as_str();
            matches!(w, "the" | "his" | "her" | "their" | "our") || w.ends_with("'s") || w.ends_with("’s")
        })?;
        if s.tokens[owner + 1..=i].iter().any(|t| t.barrier) {
            return None;
        }
        // A subject opens its clause.
        let opens = owner == 0
            || s.tokens[owner].barrier
            || matches!(s.tokens[owner - 1].lower.as_str(), "and" | "but" | "then" | "so");
        if !opens {
            return None;
        }
        // "His wife lay there for hours": a verb the chain reader does not know, right after.
        let chain = subject_verbs(ctx, s, i);
        let v = chain
            .first()
            .copied()
            .or_else(|| (i + 1 < s.tokens.len() && s.tokens[i + 1].plain_gap).then_some(i + 1))?;
        let verb = s.tokens[v].lower.as_str();
        let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
        let acts = is_action(verb, next)
            || is_past(verb)
            || present_third_base(verb).is_some()
            || super::verbs::is_same_in_past(verb)
            || matches!(verb, "would" | "could" | "had" | "was" | "is" | "has" | "lay" | "lies");
        acts.then_some((owner, v))
    })
}
