//! Voice checks: tense drift (a past-tense novel whose narration slides into "she walks", or
//! the reverse) and person drift (first person creeping into deep third, or a first-person
//! narrator called by name). Only narration counts, and a sentence tagged as direct thought
//! ("He's lying, she thought.") is skipped: thoughts keep the tense and person they are
//! thought in.

use super::lexicon::{
    is_action, is_past, is_present_contraction, is_present_plain, is_present_third,
};
use super::text::{Sentence, verb_after};
use super::{Check, Ctx, Finding, Severity};
use crate::config::{PointOfView, Tense};

/// Drift below this many sentences is style (a line of free indirect thought), not drift.
const MIN_DRIFT_SENTENCES: usize = 3;
/// …and so is drift in under a fifth of the tensed narration sentences.
const MIN_DRIFT_SHARE_PERCENT: usize = 20;
/// First-person slips in deep third: one may be a quoted note, two are a habit.
const MIN_PERSON_SLIPS: usize = 2;

/// Words that set a sentence in the past of a present-tense story.
#[rustfmt::skip]
const BACKSTORY: &[&str] = &[
    "ago", "once", "years", "yesterday", "childhood", "girl", "boy", "child", "younger",
    "earlier", "remembered", "formerly",
];

/// Verbs that tag unquoted thought or speech: "I can't, she thought." / "I'm fine, he said."
#[rustfmt::skip]
const THOUGHT_TAGS: &[&str] = &[
    "thought", "wondered", "thinks", "wonders", "told", "tells", "reminded", "reminds",
    "promised", "promises", "said", "says", "asked", "asks", "whispered", "whispers",
    "murmured", "murmurs", "muttered", "mutters",
];

#[derive(Clone, Copy, PartialEq)]
enum Subject {
    /// he, she, a name: takes "walks".
    Third,
    /// I, we, they: takes "walk".
    Plain,
}

/// The byte spans (subject start, verb end) of present and past subject–verb pairs.
#[derive(Default)]
struct Tenses {
    present: Vec<(usize, usize)>,
    past: Vec<(usize, usize)>,
}

fn subjects(ctx: &Ctx<'_>, s: &Sentence) -> Vec<(usize, usize, Subject)> {
    let mut out: Vec<(usize, usize, Subject)> = ctx
        .names
        .hits(&ctx.prose, s)
        .into_iter()
        .filter(|h| !h.possessive)
        .map(|h| (h.first, h.last, Subject::Third))
        .collect();
    for (i, t) in s.tokens.iter().enumerate() {
        let kind = match t.lower.as_str() {
            "he" | "she" => Subject::Third,
            "they" | "we" => Subject::Plain,
            "i" if ctx.prose.word(t) == "I" => Subject::Plain,
            _ => continue,
        };
        out.push((i, i, kind));
    }
    out
}

fn tenses(ctx: &Ctx<'_>, s: &Sentence) -> Tenses {
    let mut found = Tenses::default();
    for t in s.tokens.iter().filter(|t| is_present_contraction(&t.lower)) {
        found.present.push((t.start, t.end));
    }
    for (first, last, kind) in subjects(ctx, s) {
        let Some(v) = verb_after(&s.tokens, last) else {
            continue;
        };
        let verb = s.tokens[v].lower.as_str();
        let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
        let span = (s.tokens[first].start, s.tokens[v].end);
        let present = match kind {
            Subject::Third => is_present_third(verb),
            Subject::Plain => is_present_plain(verb),
        };
        if present {
            found.present.push(span);
        } else if is_past(verb) && !(verb == "used" && next == Some("to")) {
            found.past.push(span);
        }
    }
    found
}

/// "He's lying, she thought." — a thought in its own tense and person.
fn thought_tagged(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    let names = ctx.names.hits(&ctx.prose, s);
    let text = ctx.prose.original;
    (1..s.tokens.len()).any(|i| {
        let tag = &s.tokens[i];
        if !THOUGHT_TAGS.contains(&tag.lower.as_str()) || !tag.plain_gap {
            return false;
        }
        let subject = &s.tokens[i - 1];
        let is_subject = matches!(subject.lower.as_str(), "he" | "she" | "they" | "i")
            || names.iter().any(|h| h.last == i - 1);
        let gap_from = if i >= 2 { s.tokens[i - 2].end } else { s.start };
        // "…, she thought." after the thought, or "She thought: …" before it.
        let after_thought =
            gap_from > s.start && text[gap_from..subject.start].contains([',', '—', '–']);
        let gap_to = s.tokens.get(i + 1).map_or(s.end, |t| t.start);
        let before_thought = text[tag.end..gap_to].contains(':');
        is_subject && (after_thought || before_thought)
    })
}

/// A present-tense novel tells its past in the past tense: "When I was a girl I thought…".
fn backstory(s: &Sentence) -> bool {
    s.tokens.iter().enumerate().any(|(i, t)| {
        BACKSTORY.contains(&t.lower.as_str())
            || (t.lower == "used" && s.tokens.get(i + 1).is_some_and(|n| n.lower == "to"))
    })
}

fn quote_examples(ctx: &Ctx<'_>, spans: &[(usize, usize)]) -> String {
    spans
        .iter()
        .take(3)
        .map(|(from, to)| format!("“{}”", &ctx.prose.original[*from..*to]))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn tense_drift(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut tensed = 0;
    let mut drifting: Vec<(&Sentence, (usize, usize))> = Vec::new();
    for s in ctx.prose.narration_sentences() {
        if thought_tagged(ctx, s) {
            continue;
        }
        let found = tenses(ctx, s);
        if found.present.is_empty() && found.past.is_empty() {
            continue;
        }
        tensed += 1;
        let (right, wrong) = match ctx.input.tense {
            Tense::Past => (&found.past, &found.present),
            Tense::Present => (&found.present, &found.past),
        };
        // A sentence with a verb in the novel's tense is anchored: "I close my fingers and
        // pretend I meant to" is present narration with a past clause, not drift.
        if !right.is_empty() || (ctx.input.tense == Tense::Present && backstory(s)) {
            continue;
        }
        if let Some(span) = wrong.first() {
            drifting.push((s, *span));
        }
    }
    let n = drifting.len();
    if n < MIN_DRIFT_SENTENCES || n * 100 < tensed * MIN_DRIFT_SHARE_PERCENT {
        return Vec::new();
    }
    let spans: Vec<(usize, usize)> = drifting.iter().map(|(_, span)| *span).collect();
    let examples = quote_examples(ctx, &spans);
    let (s, (at, _)) = drifting[0];
    let excerpt = ctx.prose.excerpt(s, at);
    let (novel, wrong, example_fix) = match ctx.input.tense {
        Tense::Past => ("past", "present", "“she walked”, not “she walks”"),
        Tense::Present => ("present", "past", "“she walks”, not “she walked”"),
    };
    vec![Finding::new(
        Check::TenseDrift,
        Severity::Violation,
        format!(
            "The novel is written in {novel} tense, but {n} of {tensed} narration sentences \
             here are in the {wrong} tense ({examples}). First: “{excerpt}”. Put all narration \
             into the {novel} tense ({example_fix}); dialogue and italic thoughts may stay as \
             they are."
        ),
        Some(excerpt),
    )]
}

pub(super) fn person_drift(ctx: &Ctx<'_>) -> Vec<Finding> {
    match ctx.input.pov {
        PointOfView::DeepThird => first_person_slips(ctx),
        PointOfView::First => narrator_by_name(ctx),
    }
}

fn is_first_person(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let t = &s.tokens[i];
    let written = ctx.prose.word(t);
    if matches!(t.lower.as_str(), "me" | "my" | "myself") {
        return true;
    }
    let is_i = written == "I" || (written.starts_with("I'") || written.starts_with("I’"));
    // "Henry I", "World War I": a numeral after a capitalised word mid-sentence.
    let numeral = i >= 2
        && ctx
            .prose
            .word(&s.tokens[i - 1])
            .starts_with(char::is_uppercase);
    is_i && !numeral
}

fn first_person_slips(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut slips: Vec<(&Sentence, usize, usize)> = Vec::new();
    for s in ctx.prose.narration_sentences() {
        if thought_tagged(ctx, s) {
            continue;
        }
        if let Some(i) = (0..s.tokens.len()).find(|i| is_first_person(ctx, s, *i)) {
            slips.push((s, s.tokens[i].start, s.tokens[i].end));
        }
    }
    if slips.len() < MIN_PERSON_SLIPS {
        return Vec::new();
    }
    let (s, at, _) = slips[0];
    let excerpt = ctx.prose.excerpt(s, at);
    let examples = slips
        .iter()
        .take(3)
        .map(|(s, at, _)| format!("“{}”", ctx.prose.excerpt(s, *at)))
        .collect::<Vec<_>>()
        .join("; ");
    let pov = ctx.pov_name();
    vec![Finding::new(
        Check::PersonDrift,
        Severity::Violation,
        format!(
            "The novel is told in deep third person, but {} narration sentences slip into the \
             first person: {examples}. In narration, refer to {pov} by name or as she/he/they; \
             keep “I”, “me” and “my” only inside dialogue or italic thoughts.",
            slips.len()
        ),
        Some(excerpt),
    )]
}

fn narrator_by_name(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut uses: Vec<(&Sentence, (usize, usize))> = Vec::new();
    for s in ctx.prose.narration_sentences() {
        for h in ctx.names.hits(&ctx.prose, s) {
            if h.who != ctx.pov || h.possessive {
                continue;
            }
            let Some(v) = verb_after(&s.tokens, h.last) else {
                continue;
            };
            let verb = s.tokens[v].lower.as_str();
            let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
            if is_action(verb, next) || is_past(verb) || is_present_third(verb) {
                uses.push((s, (s.tokens[h.first].start, s.tokens[v].end)));
            }
        }
    }
    if uses.len() < MIN_PERSON_SLIPS {
        return Vec::new();
    }
    let spans: Vec<(usize, usize)> = uses.iter().map(|(_, span)| *span).collect();
    let examples = quote_examples(ctx, &spans);
    let (s, (at, _)) = uses[0];
    let excerpt = ctx.prose.excerpt(s, at);
    let pov = ctx.pov_name();
    vec![Finding::new(
        Check::PersonDrift,
        Severity::Violation,
        format!(
            "The novel is told in the first person by {pov}, but the narration names {pov} as \
             the one acting {} times ({examples}). First: “{excerpt}”. In narration {pov} is \
             “I”: write “I walked”, not “{pov} walked”.",
            uses.len()
        ),
        Some(excerpt),
    )]
}
