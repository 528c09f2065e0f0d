//! Idioms whose grammatical subject is not the one who feels: "it crossed her mind that…",
//! "It occurred to Trelawney that…", "it struck him that…", "the thought of another scene
//! turned his stomach", "the thought of leaving makes her feel faint". The one who thinks
//! or feels is the object or the possessor after the verb; this module finds them, and the
//! feelings named as someone's own ("her own fears for the annuity", "whose dread of him",
//! "Bram's resolve hardened").
//! `minds.rs` decides whether that is another character and whether the POV character is
//! reading it. The owner of a pronoun is a guess at reference, so these are notes.

use super::ctx::Ctx;
use super::inner::EMOTION_NOUNS;
use super::lexicon::is_in;
use super::mind_words::owner_of_mind;
use super::subject::Referent;
use super::text::Sentence;

/// Verbs of "it … to/on someone that": "it occurred to him", "it dawned on her".
const DAWNING: &[&str] = &["occurred", "occurs", "dawned", "dawns"];

/// Verbs of "it … someone that": "it struck him that", "it crossed her mind".
const STRIKING: &[&str] = &["struck", "strikes", "crossed", "crosses", "hit", "hits"];

/// Verbs the thought of something does to someone: "made her feel faint", "turned his
/// stomach", "set his nerves tingling", "filled him with dread".
#[rustfmt::skip]
const DOING: &[&str] = &[
    "made", "makes", "turned", "turns", "set", "sets", "filled", "fills", "sent", "sends",
    "gave", "gives", "froze", "freezes", "chilled", "chills", "sickened", "sickens",
    "stirred", "stirs", "brought", "brings", "kept", "keeps",
];

/// What something wakes in someone: "stirred up in him a hunger", "roused in her a fury".
#[rustfmt::skip]
const WAKING: &[&str] = &[
    "stirred", "stirs", "woke", "wakes", "roused", "rouses", "kindled", "kindles", "awakened",
    "awakens", "bred", "breeds", "raised", "raises",
];

/// What a feeling does in its owner: "stirs in", "sat heavy in", "welled up in".
#[rustfmt::skip]
const DWELLING: &[&str] = &[
    "stirs", "stirred", "rose", "rises", "welled", "wells", "sat", "sits", "lay", "lies",
    "burned", "burns", "grew", "grows", "swelled", "swells", "woke", "wakes", "flared", "flares",
    "heavy", "stirring", "rising", "up", "cold", "hot", "deep", "sharp",
];

/// (first token, last token, whose mind) for each such idiom in sentence `si`.
pub(super) fn experienced_idioms(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let word = |k: usize| s.tokens.get(k).filter(|t| t.plain_gap).map(|t| t.lower.as_str());
    for (i, t) in s.tokens.iter().enumerate() {
        let w = t.lower.as_str();
        // "it occurred to Trelawney that", "it dawned on her".
        let object_at = if is_in(DAWNING, w) && matches!(word(i + 1), Some("to" | "on" | "upon")) {
            Some(i + 2)
        } else if is_in(STRIKING, w) && i > 0 && s.tokens[i - 1].lower == "it" {
            Some(i + 1)
        } else {
            None
        };
        if let Some(k) = object_at
            && let Some(who) = owner_at(ctx, si, s, k)
        {
            // "it struck him that", "it crossed her mind": a thought, not a blow.
            let thought = is_in(DAWNING, w)
                || matches!(word(k + 1), Some("that" | "mind" | "as"))
                || matches!(word(k + 2), Some("mind"));
            if thought {
                out.push((i, k, who));
            }
        }
        // "An old shame stirs in Mr. George": the feeling's home is its owner.
        if is_in(EMOTION_NOUNS, w) {
            let home = (i + 1..(i + 16).min(s.tokens.len()))
                .take_while(|&k| !s.tokens[k].barrier || k == i + 1)
                .find(|&k| {
                    s.tokens[k].lower == "in" && k > 0 && is_in(DWELLING, &s.tokens[k - 1].lower)
                });
            // "in Mr. George": the name may start after its title.
            let title = |k: usize| {
                s.tokens.get(k).is_some_and(|t| {
                    matches!(t.lower.as_str(), "mr" | "mrs" | "miss" | "dr" | "sir" | "lady" | "old")
                })
            };
            if let Some(k) = home {
                let at = if title(k + 1) { k + 2 } else { k + 1 };
                if let Some(who) = owner_at(ctx, si, s, at).or_else(|| owner_at(ctx, si, s, k + 1)) {
                    out.push((i, at, who));
                }
            }
        }
        // "The sight had stirred up in the marooned man a hunger for cheese": what something
        // wakes in someone.
        if is_in(WAKING, w) {
            let mut k = i + 1;
            if word(k) == Some("up") {
                k += 1;
            }
            if word(k) == Some("in")
                && let Some(who) = owner_at(ctx, si, s, k + 1).or_else(|| {
                    // "in the marooned man": a noun for a person a few words on.
                    (k + 2..(k + 5).min(s.tokens.len()))
                        .find(|&n| super::people::is_person_noun(&s.tokens[n].lower))
                        .map(|_| Referent::Someone)
                })
            {
                let felt = (k + 2..(k + 9).min(s.tokens.len()))
                    .take_while(|&n| !s.tokens[n].barrier)
                    .find(|&n| {
                        let x = s.tokens[n].lower.as_str();
                        is_in(EMOTION_NOUNS, x) || matches!(x, "hunger" | "thirst" | "craving")
                    });
                if let Some(n) = felt {
                    out.push((i, n, who));
                }
            }
        }
        // "the thought of another scene turned his stomach": the thought's effect.
        if w == "thought" && i > 0 && s.tokens[i - 1].lower == "the" && word(i + 1) == Some("of") {
            let reach = (i + 2..(i + 20).min(s.tokens.len()))
                .take_while(|&k| !s.tokens[k].barrier)
                .find(|&k| is_in(DOING, &s.tokens[k].lower));
            if let Some(v) = reach
                && let Some(who) = owner_at(ctx, si, s, v + 1)
            {
                out.push((i - 1, v + 1, who));
            }
        }
    }
    out
}

/// Feelings named as someone's own: "her own fears for the annuity", "his dread of the
/// sea", "whose dread of him has grown".
#[rustfmt::skip]
const OWN_FEELINGS: &[&str] = &[
    "fears", "dread", "hopes", "longing", "jealousy", "grief", "misgivings", "resentment",
    "envy", "shame", "guilt", "terror", "horror", "loathing", "contempt", "suspicions",
];

/// (first token, last token, whose mind) for a feeling named as someone's and what it is
/// about: "with her own fears for the annuity", "My Lady, whose dread of him has grown".
pub(super) fn owned_feelings(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let hits = ctx.hits(s);
    for (i, t) in s.tokens.iter().enumerate() {
        let mut n = i + 1;
        if s.tokens.get(n).is_some_and(|x| x.plain_gap && x.lower == "own") {
            n += 1;
        }
        // The broad lexicon's nouns of emotion too: "his curiosity about so early a visitor".
        if !s.tokens.get(n).is_some_and(|x| {
            x.plain_gap && (is_in(OWN_FEELINGS, &x.lower) || is_in(EMOTION_NOUNS, &x.lower))
        }) {
            continue;
        }
        let about = s.tokens.get(n + 1).is_some_and(|x| {
            x.plain_gap && matches!(x.lower.as_str(), "of" | "for" | "that" | "about" | "at" | "lest")
        });
        // "continued to express her admiration of": a feeling shown or said, which anyone sees.
        let shown = i > 0 && is_in(SHOWING, &s.tokens[i - 1].lower);
        if !about || shown {
            continue;
        }
        let who = if t.lower == "whose" {
            // The person before the comma that opens the relative clause.
            hits.iter()
                .rev()
                .find(|h| h.last < i && h.who != ctx.pov)
                .map(|h| Referent::Person(h.who))
        } else {
            possessor_at(ctx, si, s, i)
        };
        if let Some(who) = who {
            out.push((i, n, who));
        }
    }
    out
}

/// Verbs that put a feeling where others see or hear it.
#[rustfmt::skip]
const SHOWING: &[&str] = &[
    "express", "expressed", "expresses", "expressing", "voice", "voiced", "voices", "show",
    "showed", "shows", "showing", "declare", "declared", "declares", "confess", "confessed",
    "avow", "avowed", "hide", "hid", "hides", "conceal", "concealed", "conceals", "betray",
    "betrayed", "betrays",
];

/// Qualities of the inner life that only their owner feels change: "Bram's resolve
/// hardened", "his patience was wearing thin", "her courage failed".
#[rustfmt::skip]
const QUALITIES: &[&str] = &[
    "resolve", "patience", "courage", "nerve", "conscience", "pride", "hopes", "fears",
    "doubts", "misgivings", "curiosity", "suspicions", "determination", "composure",
];

#[rustfmt::skip]
const QUALITY_CHANGES: &[&str] = &[
    "hardened", "hardens", "wavered", "wavers", "faltered", "falters", "snapped", "snaps",
    "wearing", "wore", "broke", "breaks", "failed", "fails", "rose", "rises", "sank", "sinks",
    "crumbled", "crumbles", "returned", "returns", "deserted", "deserts", "stirred", "stirs",
    "grew", "grows", "ran", "runs", "soared", "soars", "gave", "gives", "evaporated",
    "evaporates", "strengthened", "strengthens", "weakened", "weakens", "pricked", "pricks",
];

/// (first token, last token, whose mind) for each quality that changes in sentence `si`.
pub(super) fn quality_changes(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    (0..s.tokens.len())
        .filter_map(|i| {
            let end = changed_quality(s, i + 1)?;
            Some((i, end, possessor_at(ctx, si, s, i)?))
        })
        .collect()
}

/// The verb of change after a quality at token `at` ("resolve hardened", "patience was
/// wearing thin"), if one follows.
fn changed_quality(s: &Sentence, at: usize) -> Option<usize> {
    s.tokens.get(at).filter(|t| t.plain_gap && is_in(QUALITIES, &t.lower))?;
    let mut j = at + 1;
    while s.tokens.get(j).is_some_and(|t| {
        t.plain_gap && matches!(t.lower.as_str(), "was" | "were" | "is" | "are" | "had" | "began" | "begins" | "to")
    }) {
        j += 1;
    }
    s.tokens
        .get(j)
        .filter(|t| t.plain_gap && is_in(QUALITY_CHANGES, &t.lower))
        .map(|_| j)
}

/// Whoever owns what follows token `i` ("Bram's resolve", "his patience", "their hopes"), if
/// it is someone other than the POV character.
pub(super) fn possessor_at(ctx: &Ctx<'_>, si: usize, s: &Sentence, i: usize) -> Option<Referent> {
    if let Some(h) = ctx.hits(s).into_iter().find(|h| h.last == i && h.possessive) {
        return (h.who != ctx.pov).then_some(Referent::Person(h.who));
    }
    let owns = matches!(s.tokens[i].lower.as_str(), "his" | "her" | "their");
    owner_at(ctx, si, s, i).filter(|_| owns)
}

/// Whoever token `k` names as an object or possessor ("him", "her", "his", "Trelawney",
/// "my companion's"), if it is someone other than the POV character.
pub(super) fn owner_at(ctx: &Ctx<'_>, si: usize, s: &Sentence, k: usize) -> Option<Referent> {
    let t = s.tokens.get(k)?;
    if let Some(h) = ctx.hits(s).into_iter().find(|h| h.first == k) {
        return (h.who != ctx.pov).then_some(Referent::Person(h.who));
    }
    let who = match t.lower.as_str() {
        "him" | "her" | "his" => owner_of_mind(ctx, si, k, ctx.resolve(si, k, &t.lower)),
        "them" | "their" => Referent::Someone,
        // "my companion's nerves": someone the narrator names by what they are.
        "my" | "our" if s.tokens.get(k + 1).is_some_and(|n| n.lower.ends_with("'s")) => {
            Referent::Someone
        }
        _ => return None,
    };
    who.is_other().then_some(who)
}
