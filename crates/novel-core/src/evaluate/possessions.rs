//! An item the story memory puts in one person's hands used by someone else with no handing
//! over on the page: Bram's inventory holds "silver knife", and the scene says "Tamsin drew the
//! silver knife". Only items named by two words or more (a bare "knife" may be anyone's), held
//! by exactly one living person, used by a subject the checks can name, with the item named as
//! that one ("the silver knife", "Bram's silver knife"; not "a silver knife", not "her silver
//! knife", which may be her own). A sentence that hands it over, finds or takes it ("Bram
//! handed her the knife", "she took it from the drawer") in the scene up to that point makes
//! the use fair. The record may lag behind an exchange off the page, so the finding is a
//! warning the reviser fixes when it is small, never a revision of its own. (An item lost or
//! given away earlier is `continuity::lost_items`.)

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::lexicon::{NOT_USING, USE_VERBS, is_in};
use super::text::{Sentence, normalise, verb_after};
use super::whose::subject;

/// Words of an item passing between hands, or being come by.
#[rustfmt::skip]
const CHANGES_HANDS: &[&str] = &[
    "gave", "give", "gives", "handed", "passed", "passes", "tossed", "tosses", "threw",
    "throws", "lent", "lends", "borrowed", "borrows", "took", "takes", "snatched", "snatches",
    "grabbed", "grabs", "stole", "steals", "seized", "seizes", "offered", "offers", "returned",
    "returns", "slid", "slides", "pressed", "presses", "picked", "picks", "found", "finds",
    "caught", "catches", "swapped", "traded", "bought", "fetched", "retrieved", "pocketed",
    "accepted", "wrested", "prised", "pried",
];

const DETERMINERS: &[&str] = &[
    "the", "a", "an", "his", "her", "my", "their", "its", "our", "your",
];

/// The words an item is known by: the last two of its name without determiners and owners'
/// possessives ("her father's silver knife" → ["silver", "knife"]); `None` under two words.
fn known_by(item: &str) -> Option<Vec<String>> {
    let words: Vec<String> = item
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(normalise)
        .filter(|w| !DETERMINERS.contains(&w.as_str()) && !w.ends_with("'s"))
        .collect();
    (words.len() >= 2).then(|| words[words.len() - 2..].to_vec())
}

pub(super) fn held_by_another(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut held: Vec<(usize, &str, Vec<String>)> = Vec::new();
    for (h, c) in ctx.people.iter().enumerate() {
        if ctx.is_dead(h) {
            continue;
        }
        for item in &c.inventory {
            if let Some(words) = known_by(item) {
                held.push((h, item.as_str(), words));
            }
        }
    }
    // An item more than one person holds one of is nobody's in particular.
    let mut unique = Vec::new();
    for (h, item, words) in &held {
        if held.iter().filter(|(_, _, w)| w == words).count() == 1 {
            unique.push((*h, *item, words));
        }
    }
    let mut out = Vec::new();
    for (holder, item, words) in unique {
        if let Some(f) = used_by_another(ctx, holder, item, words) {
            out.push(f);
        }
    }
    out
}

fn used_by_another(ctx: &Ctx<'_>, holder: usize, item: &str, words: &[String]) -> Option<Finding> {
    let head = words.last()?;
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        let changes_hands = s.tokens.iter().any(|t| is_in(CHANGES_HANDS, &t.lower))
            && s.tokens.iter().any(|t| t.lower == *head || t.lower == "it");
        if changes_hands {
            return None;
        }
        if s.tokens.is_empty() || s.tokens.iter().any(|t| is_in(NOT_USING, &t.lower)) {
            continue;
        }
        for i in 0..s.tokens.len() {
            let Some((user, last)) = subject(ctx, si, s, i) else {
                continue;
            };
            if user.who == holder {
                continue;
            }
            let Some(v) = verb_after(&s.tokens, last) else {
                continue;
            };
            if !is_in(USE_VERBS, &s.tokens[v].lower) {
                continue;
            }
            let Some(end) = named_as_held(ctx, s, v, holder, words) else {
                continue;
            };
            let (at, to) = (s.tokens[i].start, s.tokens[end].end);
            let excerpt = ctx.prose.excerpt(s, at);
            let (name, owner) = (ctx.name(user.who), ctx.name(holder));
            let message = format!(
                "The story memory has “{item}” with {owner} (record {id}), but {name} uses it \
                 here with no handing over on the page: “{excerpt}”. Show how {name} came by \
                 it, or give the action to {owner}.",
                item = item.trim(),
                id = ctx.people[holder].id,
            );
            let severity = if user.sure {
                Severity::Warning
            } else {
                Severity::Note
            };
            return Some(
                Finding::new(Check::Contradiction, severity, message, Some(excerpt))
                    .at(&ctx.prose, s, at, to)
                    .about(&ctx.people[holder].id),
            );
        }
    }
    None
}

/// The item as the verb's object within eight words, named as the one held: "the silver
/// knife" or "Bram's silver knife" (the holder's possessive). The last token.
fn named_as_held(
    ctx: &Ctx<'_>,
    s: &Sentence,
    v: usize,
    holder: usize,
    words: &[String],
) -> Option<usize> {
    let hits = ctx.hits(s);
    for i in v + 1..(v + 9).min(s.tokens.len()) {
        if s.tokens[i].barrier {
            return None;
        }
        let fits = words.iter().enumerate().all(|(k, w)| {
            s.tokens
                .get(i + k)
                .is_some_and(|t| (k == 0 || t.plain_gap) && t.lower == *w)
        });
        if !fits {
            continue;
        }
        let before = i.checked_sub(1)?;
        let the = s.tokens[before].lower == "the";
        let holders = hits
            .iter()
            .any(|h| h.last == before && h.possessive && h.who == holder);
        return (the || holders).then_some(i + words.len() - 1);
    }
    None
}
