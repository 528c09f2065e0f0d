//! Point-of-view checks: omniscient narration that knows what the POV character does not
//! ("she didn't realize", "unbeknownst to him", "Meanwhile, across town"), and narration that
//! states another character's thoughts or feelings as fact ("Bram wondered", "in Bram's mind").
//! Dialogue and italic thought are never read: a character may say "I didn't realize".

use std::sync::LazyLock;

use regex::Regex;

use super::continuity::has_arrival;
use super::lexicon::{FEELINGS, INFERENCE, MIND_VERBS, is_in};
use super::text::{NameHit, Sentence, verb_after};
use super::{Check, Ctx, Finding, Severity};
use crate::config::PointOfView;

struct Leak {
    pattern: Regex,
    /// Why the phrase breaks deep POV, completing "The narration …".
    why: &'static str,
    /// In a first-person novel, "I didn't realize" is the narrator's own hindsight.
    first_person_ok: bool,
}

fn leak(pattern: &str, why: &'static str, first_person_ok: bool) -> Leak {
    Leak {
        // The patterns are constants checked by the tests; a bad one is a programming error.
        pattern: Regex::new(pattern).expect("constant POV-leak pattern"),
        why,
        first_person_ok,
    }
}

static LEAKS: LazyLock<Vec<Leak>> = LazyLock::new(|| {
    let unaware = "tells the reader something the POV character is not aware of";
    let hindsight = "looks back from a later time the POV character has not reached";
    let elsewhere = "jumps to a place or a person the POV character cannot see";
    vec![
        leak(
            r"(?i)(?:\b(\w+)\s+)?\bdid(?:n['’]t| not)\s+reali[sz]e\b",
            unaware,
            true,
        ),
        leak(r"(?i)\bunbeknown(?:st)?\s+to\b", unaware, false),
        leak(
            r"(?i)\blittle did\s+(?:she|he|they|i|we)\s+(?:know|suspect|realize|realise|guess)\b",
            hindsight,
            false,
        ),
        leak(r"(?i)(?:\b(\w+)\s+)?\bhad no idea that\b", unaware, true),
        leak(
            r"(?i)\bwhat\s+(?:she|he|they|i)\s+did(?:n['’]t| not)\s+(?:know|realize|realise|see|notice)\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\bwould later\s+(?:learn|realize|realise|discover|find out|understand)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bonly later would\s+(?:she|he|they|i)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bif only\s+(?:she|he|they)\s+had known\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bhad\s+(?:she|he|they)\s+(?:only\s+)?known\s*,",
            hindsight,
            false,
        ),
        leak(
            r"(?i)^\W*(?:meanwhile,?\s+)?(?:across (?:town|the city|the river)|elsewhere|miles away|far away|back at the \w+|on the other side of (?:town|the city))\s*,",
            elsewhere,
            false,
        ),
        leak(
            r"(?i)^\W*meanwhile,?\s+(?:in another|at the other|back in|back at|across)\b",
            elsewhere,
            false,
        ),
    ]
});

/// "without her knowing": a leak when "her" is the POV character.
static WITHOUT_KNOWING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bwithout\s+(her|his|their|my)\s+(?:knowing|knowledge|noticing|realizing|realising)\b")
        .expect("constant pattern")
});

/// Openings that cut to simultaneous action; a leak when followed by someone known elsewhere.
const SIMULTANEOUS: &[&[&str]] = &[
    &["meanwhile"],
    &["at", "that", "very", "moment"],
    &["at", "that", "same", "moment"],
    &["at", "the", "same", "moment"],
    &["at", "the", "same", "time"],
    &["at", "that", "moment"],
];

const MIND_NOUNS: &[&str] = &["mind", "thoughts"];

#[rustfmt::skip]
const HEART_VERBS: &[&str] = &[
    "sank", "leapt", "leaped", "raced", "pounded", "ached", "swelled", "broke", "skipped",
    "clenched", "lurched", "twisted", "sinks", "leaps", "races", "pounds", "aches", "swells",
    "breaks", "skips", "clenches", "lurches", "twists",
];

pub(super) fn leaks(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let first_person = ctx.input.pov == PointOfView::First;
    for s in ctx.prose.narration_sentences() {
        // One finding per sentence: "Meanwhile, across town," matches twice and needs one fix.
        if let Some(f) = phrase_leak(ctx, s, first_person).or_else(|| simultaneous_cut(ctx, s)) {
            out.push(f);
        }
    }
    out
}

fn phrase_leak(ctx: &Ctx<'_>, s: &Sentence, first_person: bool) -> Option<Finding> {
    let narration = ctx.prose.narration(s);
    for l in LEAKS.iter() {
        let Some(caps) = l.pattern.captures(narration) else {
            continue;
        };
        let subject_is_i = caps.get(1).is_some_and(|m| m.as_str() == "I");
        if first_person && l.first_person_ok && subject_is_i {
            continue;
        }
        let whole = caps.get(0)?;
        // Quote the phrase itself, not the subject word captured before it.
        let from = caps.get(1).map_or(whole.start(), |m| m.end());
        let phrase = narration[from..whole.end()]
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .trim_end_matches(|c: char| !c.is_alphanumeric());
        return Some(leak_finding(ctx, s, s.start + from, phrase, l.why));
    }
    let caps = WITHOUT_KNOWING.captures(narration)?;
    let (whole, pronoun) = (caps.get(0)?, caps.get(1)?);
    pronoun_is_pov(ctx, &pronoun.as_str().to_lowercase()).then(|| {
        leak_finding(
            ctx,
            s,
            s.start + whole.start(),
            whole.as_str(),
            "tells the reader something the POV character is not aware of",
        )
    })
}

fn pronoun_is_pov(ctx: &Ctx<'_>, possessive: &str) -> bool {
    match (ctx.input.pov, ctx.pov_pronoun) {
        (PointOfView::First, _) => possessive == "my",
        (PointOfView::DeepThird, Some("she")) => possessive == "her",
        (PointOfView::DeepThird, Some(_)) => possessive == "his",
        (PointOfView::DeepThird, None) => possessive != "my",
    }
}

fn leak_finding(ctx: &Ctx<'_>, s: &Sentence, at: usize, phrase: &str, why: &str) -> Finding {
    let excerpt = ctx.prose.excerpt(s, at);
    let pov = ctx.pov_name();
    Finding::new(
        Check::PovLeak,
        Severity::Violation,
        format!(
            "The narration says “{phrase}”, which {why}; the scene must stay inside {pov}'s \
             head. In: “{excerpt}”. Rewrite the sentence so it reports only what {pov} \
             perceives, thinks or can infer at this moment, or cut it."
        ),
        Some(excerpt),
    )
}

/// "Meanwhile, Bram…" / "At that very moment, Bram…" where Bram is known to be elsewhere and
/// does not arrive in the sentence.
fn simultaneous_cut(ctx: &Ctx<'_>, s: &Sentence) -> Option<Finding> {
    let opening = SIMULTANEOUS.iter().find(|phrase| {
        phrase.len() <= s.tokens.len()
            && phrase
                .iter()
                .zip(&s.tokens)
                .all(|(w, t)| *w == t.lower && !t.barrier)
    })?;
    let hit =
        ctx.names.hits(&ctx.prose, s).into_iter().find(|h| {
            h.who != ctx.pov && h.first >= opening.len() && h.first <= opening.len() + 2
        })?;
    let away = ctx.elsewhere(hit.who)?;
    if has_arrival(ctx.prose.narration(s)) {
        return None;
    }
    let excerpt = ctx.prose.excerpt(s, s.start);
    let who = ctx.name(hit.who);
    let pov = ctx.pov_name();
    Some(Finding::new(
        Check::PovLeak,
        Severity::Violation,
        format!(
            "The narration cuts away to {who}, who is at {} and not in this scene: “{excerpt}”. \
             {pov} cannot see this. Cut the sentence, or let {pov} learn of it on the page \
             (a message, a sound, {who} arriving).",
            away.name
        ),
        Some(excerpt),
    ))
}

pub(super) fn other_minds(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in ctx.prose.narration_sentences() {
        if is_question(ctx.prose.narration(s)) {
            continue;
        }
        for hit in ctx.names.hits(&ctx.prose, s) {
            if hit.who == ctx.pov || inferred(s, &hit) {
                continue;
            }
            let found = if hit.possessive {
                possessive_mind(s, &hit)
            } else {
                stated_mind(s, &hit)
            };
            if let Some(end) = found {
                out.push(mind_finding(ctx, s, &hit, end));
            }
        }
    }
    out
}

fn is_question(narration: &str) -> bool {
    narration
        .trim_end_matches(|c: char| c.is_whitespace() || c == super::text::MASK || c == ')')
        .ends_with('?')
}

/// A perception or guess earlier in the sentence ("She could tell Bram knew") makes what
/// follows the POV character's reading of Bram, not Bram's mind.
fn inferred(s: &Sentence, hit: &NameHit) -> bool {
    s.tokens[..hit.first]
        .iter()
        .any(|t| is_in(INFERENCE, &t.lower))
}

/// "Bram wondered", "Bram had hoped", "Bram felt afraid": returns the last token matched.
fn stated_mind(s: &Sentence, hit: &NameHit) -> Option<usize> {
    let mut v = verb_after(&s.tokens, hit.last)?;
    if s.tokens[v].lower == "had" {
        v = verb_after(&s.tokens, v)?;
    }
    let verb = s.tokens[v].lower.as_str();
    let next = s.tokens.get(v + 1).filter(|t| t.plain_gap);
    let next_word = next.map(|t| t.lower.as_str());
    if is_in(MIND_VERBS, verb) {
        // "knew how to", "remembered to": skill and action, not a private thought.
        let exempt = matches!((verb, next_word), ("knew" | "knows", Some("how")))
            || matches!((verb, next_word), ("remembered" | "remembers", Some("to")));
        return (!exempt).then_some(v);
    }
    if matches!(verb, "felt" | "feels") && next_word.is_some_and(|w| is_in(FEELINGS, w)) {
        return Some(v + 1);
    }
    None
}

/// "Bram's thoughts", "in Bram's mind", "Bram's heart sank".
fn possessive_mind(s: &Sentence, hit: &NameHit) -> Option<usize> {
    let next = s.tokens.get(hit.last + 1).filter(|t| t.plain_gap)?;
    if is_in(MIND_NOUNS, &next.lower) {
        return Some(hit.last + 1);
    }
    let before = hit.first.checked_sub(1).map(|i| s.tokens[i].lower.as_str());
    if next.lower == "head" && matches!(before, Some("in" | "inside")) {
        return Some(hit.last + 1);
    }
    let after = s.tokens.get(hit.last + 2).filter(|t| t.plain_gap)?;
    (next.lower == "heart" && is_in(HEART_VERBS, &after.lower)).then_some(hit.last + 2)
}

fn mind_finding(ctx: &Ctx<'_>, s: &Sentence, hit: &NameHit, end: usize) -> Finding {
    let from = s.tokens[hit.first].start;
    let phrase = &ctx.prose.original[from..s.tokens[end].end];
    let excerpt = ctx.prose.excerpt(s, from);
    let who = ctx.name(hit.who);
    let pov = ctx.pov_name();
    Finding::new(
        Check::OtherMind,
        Severity::Violation,
        format!(
            "The narration states {who}'s inner life as fact (“{phrase}”), but the scene is \
             in {pov}'s point of view and {pov} cannot see into {who}'s mind. In: “{excerpt}”. \
             Show it through what {pov} can observe ({who}'s face, gestures, words), or make \
             it {pov}'s own guess (\"{who} seemed to…\", \"{pov} guessed…\")."
        ),
        Some(excerpt),
    )
}
