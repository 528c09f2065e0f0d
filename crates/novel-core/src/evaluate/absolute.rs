//! Absolute phrases that carry another character's inner life: a phrase after a comma with a
//! subject of its own and no finite verb — "…, its owner sure that the vault was empty",
//! "…, his mind already running ahead to the hour", "…, his whole black heart set on the
//! packet", "…, each of them longing to be ashore", "…, Rosa fearing in her innocence that she
//! had given offence", "…, with his thoughts far away". English hangs such a phrase on a
//! clause about someone else, so the subject-and-verb reading in `minds.rs` never meets it;
//! this module finds its owner (a possessive, a name, "its owner", "each of them") and the
//! word of inner life after it. The owner of a possessive pronoun is a guess at reference, so
//! these are notes.

use super::ctx::Ctx;
use super::inner;
use super::lexicon::is_in;
use super::mind_words::{
    DEGREE, GUESSES, INNER_ADVERBS, MIND_PARTICIPLES, OUTWARD, READING, STATES,
    owner_of_mind, what_the_feeling_is_about,
};
use super::subject::Referent;
use super::text::Sentence;

/// What a possessive names when it names the seat of thought or feeling.
const SEATS: &[&str] = &["mind", "thoughts", "heart", "soul", "spirits", "brain", "fancy"];

/// Words that open an absolute phrase before its owner.
const OPENERS: &[&str] = &["though", "although", "while", "with"];

/// Groups that are certainly not the POV character: "each of them", "all of them".
const GROUPS: &[&str] = &["each", "both", "all", "every", "most", "some"];

/// (first token, last token, whose mind) for each absolute phrase of inner life in sentence `si`.
pub(super) fn absolute_mind(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let hits = ctx.hits(s);
    for p in 1..s.tokens.len() {
        let gap = &ctx.prose.original[s.tokens[p - 1].end..s.tokens[p].start];
        if s.tokens[p].barrier || !gap.contains([',', ';', '—', '–']) {
            continue;
        }
        let k = if is_in(OPENERS, &s.tokens[p].lower) { p + 1 } else { p };
        let Some(owner) = s.tokens.get(k).filter(|t| k == p || t.plain_gap) else {
            continue;
        };
        let word = |i: usize| {
            s.tokens
                .get(i)
                .filter(|t| t.plain_gap)
                .map(|t| t.lower.as_str())
        };
        // (the owner, where the word of inner life may stand, whether a seat of mind was named)
        let (referent, mut j, seat) = if let Some(h) = hits.iter().find(|h| h.first == k) {
            if h.who == ctx.pov {
                continue;
            }
            let who = Referent::Person(h.who);
            if h.possessive {
                let Some(noun) = seat_after(&word, h.last + 1) else {
                    continue;
                };
                (who, noun + 1, true)
            } else {
                (who, h.last + 1, false)
            }
        } else if matches!(owner.lower.as_str(), "his" | "her" | "their") {
            let Some(noun) = seat_after(&word, k + 1) else {
                continue;
            };
            let resolved = if owner.lower == "their" {
                Referent::Someone
            } else {
                ctx.resolve(si, k, &owner.lower)
            };
            (owner_of_mind(ctx, si, k, resolved), noun + 1, true)
        } else if owner.lower == "its" && word(k + 1) == Some("owner") {
            (Referent::Someone, k + 2, false)
        } else if is_in(GROUPS, &owner.lower) && word(k + 1) == Some("of") && word(k + 2) == Some("them") {
            (Referent::Someone, k + 3, false)
        } else {
            continue;
        };
        if !referent.is_other() {
            continue;
        }
        while word(j).is_some_and(|w| is_in(DEGREE, w) || is_in(INNER_ADVERBS, w) || w == "whole") {
            j += 1;
        }
        let Some(w) = word(j) else {
            continue;
        };
        let about = what_the_feeling_is_about(ctx, s, j);
        let inner_word = if seat {
            // "his mind running ahead", "his heart set on", "her thoughts far away".
            w.ends_with("ing")
                || (matches!(w, "set" | "fixed" | "bent") && matches!(about, Some("on" | "upon")))
                || (matches!(w, "far" | "elsewhere" | "busy" | "full" | "heavy" | "sick"))
                || is_in(STATES, w)
        } else {
            // "its owner sure that…", "each of them longing to…", "Rosa fearing … that".
            let complement = matches!(about, Some("that" | "to" | "of" | "at" | "for" | "with" | "lest"));
            (is_in(MIND_PARTICIPLES, w) && about.is_some())
                || ((w.ends_with("ing") && (inner::is_feeling_verb(w) || inner::is_cognition_verb(w)))
                    && complement)
                || (is_in(STATES, w) && complement)
        };
        if !inner_word {
            continue;
        }
        // "…, as if his mind were elsewhere", "…, his thoughts plainly elsewhere": a reading.
        let outward = (p.saturating_sub(1)..j).any(|i| {
            let x = s.tokens[i].lower.as_str();
            (is_in(OUTWARD, x) && !matches!(x, "though")) || is_in(GUESSES, x) || is_in(READING, x)
        });
        if !outward {
            out.push((k, j, referent));
        }
    }
    out
}

/// The token of a seat of mind ("mind", "heart") within two words after `from` ("his whole
/// black heart"), if one stands there.
fn seat_after<'s>(word: &impl Fn(usize) -> Option<&'s str>, from: usize) -> Option<usize> {
    (from..from + 3)
        .take_while(|&i| word(i).is_some())
        .find(|&i| word(i).is_some_and(|w| is_in(SEATS, w)))
}
