//! Continuity against the story memory: a dead character acting in the present, a character
//! acting here while last known to be somewhere else (with no arrival on the page), and a
//! character using an item they have lost. A sentence framed as memory, dream, wish or
//! negation ("Bram used to laugh", "she had no knife now") is never a finding.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::{FRAMING, NOT_USING, USE_VERBS, is_action, is_in};
use super::text::{Sentence, Token, match_words, name_words, normalise, verb_after};
use super::{Check, Ctx, Finding, LostItem, Severity};
use crate::config::PointOfView;

static ARRIVAL: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern, covered by the tests.
    Regex::new(
        r"(?i)\b(?:arriv(?:e|es|ed|ing)|(?:came|comes|come|walked|walks|stepped|steps|strode|strides|burst|bursts|slipped|slips|hurried|hurries|limped|limps|stumbled|stumbles|ran|runs) in|burst through|entered|enters|appeared|appears|showed up|shows up|joined|joins|(?:came|comes) (?:through|back|up|down|over|around|round)|returned|returns|caught up|catches up|door (?:opened|opens|banged|bangs|swung|swings|creaked|creaks)|footsteps)\b",
    )
    .expect("constant arrival pattern")
});

/// Words that put a speaker somewhere else: a voice over a phone is not a body in the room.
#[rustfmt::skip]
const REMOTE: &[&str] = &[
    "phone", "radio", "screen", "video", "message", "letter", "note", "transmitter", "comm",
    "earpiece", "hologram", "speaker", "line", "recording", "voicemail", "mirror",
];

/// Words before an item that make it a different one ("drew a spare knife").
#[rustfmt::skip]
const OTHER_ONE: &[&str] = &[
    "a", "an", "another", "new", "spare", "different", "borrowed", "second", "replacement",
    "someone's", "somebody's",
];

#[rustfmt::skip]
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "her", "his", "their", "my", "its", "your", "our", "some", "one",
];

/// Whether the text shows someone arriving.
pub(super) fn has_arrival(text: &str) -> bool {
    ARRIVAL.is_match(text)
}

fn framed(s: &Sentence) -> bool {
    s.tokens
        .iter()
        .enumerate()
        .any(|(i, t)| is_in(FRAMING, &t.lower) && (t.lower != "used" || followed_by(s, i, "to")))
}

fn followed_by(s: &Sentence, i: usize, word: &str) -> bool {
    s.tokens
        .get(i + 1)
        .is_some_and(|t| t.plain_gap && t.lower == word)
}

/// The first sentence in which `who` is the subject of a visible action, unframed.
fn acting<'s>(ctx: &'s Ctx<'_>, who: usize) -> Option<(&'s Sentence, usize)> {
    ctx.prose.narration_sentences().find_map(|s| {
        if framed(s) {
            return None;
        }
        ctx.names
            .hits(&ctx.prose, s)
            .into_iter()
            .filter(|h| h.who == who && !h.possessive)
            .find_map(|h| {
                let v = verb_after(&s.tokens, h.last)?;
                let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
                is_action(&s.tokens[v].lower, next).then_some((s, s.tokens[h.first].start))
            })
    })
}

pub(super) fn dead_characters(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for who in (0..ctx.people.len()).filter(|w| *w != ctx.pov && ctx.is_dead(*w)) {
        let Some((s, at)) = acting(ctx, who) else {
            continue;
        };
        let excerpt = ctx.prose.excerpt(s, at);
        let name = ctx.name(who);
        let pov = ctx.pov_name();
        out.push(Finding::new(
            Check::DeadCharacter,
            Severity::Violation,
            format!(
                "{name} is dead in the story so far, but acts in the present here: “{excerpt}”. \
                 Remove {name} from the action, or make the moment clearly {pov}'s memory, \
                 dream or imagining (for example \"{pov} remembered how {name}…\")."
            ),
            Some(excerpt),
        ));
    }
    out
}

pub(super) fn two_places(ctx: &Ctx<'_>) -> Vec<Finding> {
    let Some(scene) = ctx.input.scene_location else {
        return Vec::new();
    };
    // An arrival anywhere in the narration is enough: the extractor will move the character,
    // so only a scene that never brings them in is worth a word. Dialogue does not count:
    // "You came back," says nothing about who walked in.
    if has_arrival(&ctx.prose.masked) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for who in (0..ctx.people.len()).filter(|w| *w != ctx.pov && !ctx.is_dead(*w)) {
        let Some(away) = ctx.elsewhere(who) else {
            continue;
        };
        let Some((s, at)) = acting(ctx, who) else {
            continue;
        };
        if s.tokens.iter().any(|t| is_in(REMOTE, &t.lower)) {
            continue;
        }
        let excerpt = ctx.prose.excerpt(s, at);
        let name = ctx.name(who);
        out.push(Finding::new(
            Check::TwoPlaces,
            Severity::Warning,
            format!(
                "{name} was last at {} but acts here at {} with no arrival on the page: \
                 “{excerpt}”. Add a line showing {name} arriving, or keep {name} out of the \
                 scene.",
                away.name, scene.name
            ),
            Some(excerpt),
        ));
    }
    out
}

pub(super) fn lost_items(ctx: &Ctx<'_>) -> Vec<Finding> {
    ctx.input
        .lost_items
        .iter()
        .filter_map(|lost| lost_item(ctx, lost))
        .collect()
}

fn lost_item(ctx: &Ctx<'_>, lost: &LostItem) -> Option<Finding> {
    let head = item_head(&lost.item)?;
    let who = ctx.people.iter().position(|c| c.id == lost.character_id);
    // Holding another of the same kind ("hunting knife" after losing the "silver knife").
    if let Some(w) = who
        && ctx.people[w]
            .inventory
            .iter()
            .any(|inv| item_head(inv).is_some_and(|h| singular(&h) == singular(&head)))
    {
        return None;
    }
    let item_words: Vec<String> = lost.item.split_whitespace().map(normalise).collect();
    for s in ctx.prose.narration_sentences() {
        if s.tokens.iter().enumerate().any(|(i, t)| not_using(s, i, t)) {
            continue;
        }
        for subject_last in subjects(ctx, s, who, lost) {
            let Some(v) = verb_after(&s.tokens, subject_last) else {
                continue;
            };
            if !is_in(USE_VERBS, &s.tokens[v].lower) {
                continue;
            }
            if object_is_item(s, v, &head, &item_words) {
                let at = s.tokens[subject_last].start;
                let excerpt = ctx.prose.excerpt(s, at);
                let name = lost.character_name.trim();
                let item = item_phrase(&lost.item);
                return Some(Finding::new(
                    Check::LostItem,
                    Severity::Violation,
                    format!(
                        "{name} lost {item} earlier in the story (tick {}), but uses it \
                         here: “{excerpt}”. Either show on the page how {name} got it back, \
                         or change the action so it does not need {item}.",
                        lost.tick
                    ),
                    Some(excerpt),
                ));
            }
        }
    }
    None
}

fn not_using(s: &Sentence, i: usize, t: &Token) -> bool {
    (is_in(NOT_USING, &t.lower) || t.lower.ends_with("n't"))
        || (t.lower == "used" && followed_by(s, i, "to"))
}

/// Token indexes ending a subject that refers to the item's owner: their name, or — when
/// they are the POV character — "I" in first person, or their pronoun opening a sentence.
fn subjects(ctx: &Ctx<'_>, s: &Sentence, who: Option<usize>, lost: &LostItem) -> Vec<usize> {
    let mut out: Vec<usize> = match who {
        Some(w) => ctx
            .names
            .hits(&ctx.prose, s)
            .into_iter()
            .filter(|h| h.who == w && !h.possessive)
            .map(|h| h.last)
            .collect(),
        None => {
            let words = name_words(&lost.character_name);
            (0..s.tokens.len())
                .filter_map(|i| match_words(&ctx.prose, &s.tokens, i, &words))
                .filter(|(_, possessive)| !possessive)
                .map(|(last, _)| last)
                .collect()
        }
    };
    if who == Some(ctx.pov) {
        for (i, t) in s.tokens.iter().enumerate() {
            let is_pov_subject = match ctx.input.pov {
                PointOfView::First => ctx.prose.word(t) == "I",
                PointOfView::DeepThird => {
                    (i == 0 || t.barrier) && ctx.pov_pronoun == Some(t.lower.as_str())
                }
            };
            if is_pov_subject {
                out.push(i);
            }
        }
    }
    out
}

/// Whether the item is the verb's object within the next eight words ("drew her father's
/// silver knife"), and not a different one ("drew a spare knife").
fn object_is_item(s: &Sentence, v: usize, head: &str, item_words: &[String]) -> bool {
    for t in s.tokens.iter().skip(v + 1).take(8) {
        if t.barrier {
            return false;
        }
        if singular(&t.lower) == singular(head) {
            return true;
        }
        let foreign_possessive = t.lower.ends_with("'s") && !item_words.contains(&t.lower);
        if is_in(OTHER_ONE, &t.lower) || foreign_possessive {
            return false;
        }
    }
    false
}

/// The item with a determiner, to read well in a sentence: "the silver knife", "her compass".
fn item_phrase(item: &str) -> String {
    let item = item.trim();
    let first = item.split_whitespace().next().map(normalise);
    if first.is_some_and(|w| DETERMINERS.contains(&w.as_str())) {
        item.to_string()
    } else {
        format!("the {item}")
    }
}

/// The noun an item is called by: "her father's silver compass" → "compass",
/// "box of matches" → "box".
fn item_head(item: &str) -> Option<String> {
    let item = item.split('(').next().unwrap_or_default();
    let words: Vec<String> = item
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(normalise)
        .collect();
    let core: Vec<&String> = words
        .iter()
        .skip_while(|w| DETERMINERS.contains(&w.as_str()))
        .collect();
    let head = match core.iter().position(|w| *w == "of") {
        Some(p) if p > 0 => core[p - 1],
        _ => *core.last()?,
    };
    (head.chars().count() >= 3).then(|| head.clone())
}

fn singular(word: &str) -> &str {
    for suffix in ["ches", "shes", "xes", "sses"] {
        if word.ends_with(suffix) {
            return &word[..word.len() - 2];
        }
    }
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        return &word[..word.len() - 1];
    }
    word
}
