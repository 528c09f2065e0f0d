//! Where the scene is, sentence by sentence, and whether the POV character's journeys on the
//! page are possible. The scene starts at its location; a sentence in which the POV character
//! (or the narrator, "I"/"we") walks, runs, sails… to a known place moves it there. A move to
//! a place the location web (the `location_connections` table) does not connect, by any
//! path, to where the character was is a finding. A place with no recorded connections is
//! unknown ground, not unreachable; talk of going ("wanted to sail to…") moves nobody.

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::map::Journey;
use super::people::Referent;
use super::verbs::{is_known_base, past_base, present_third_base};

#[rustfmt::skip]
const MOTION: &[&str] = &[
    "walk", "go", "run", "hurry", "stroll", "drive", "ride", "sail", "row", "cross", "reach",
    "arrive", "enter", "climb", "step", "head", "return", "come", "get", "slip", "stride",
    "wander", "march", "race", "travel", "move", "creep", "hike", "trudge", "limp", "flee",
    "dash", "duck", "swim", "fly", "descend", "continue", "hasten", "stumble", "make", "set",
    "leave", "push", "edge", "scramble", "ferry", "journey", "escape", "retreat", "pace",
];

/// Words before a place that make it the destination of a move.
#[rustfmt::skip]
const TOWARD: &[&str] = &[
    "to", "into", "onto", "toward", "towards", "at", "for", "reach", "reached", "reaches",
    "entered", "enters", "crossed", "crosses", "reaching", "entering",
];

/// Words in a sentence that make a move talk, wish, plan or negation.
#[rustfmt::skip]
const NOT_MOVING: &[&str] = &[
    "would", "could", "might", "should", "wanted", "wants", "meant", "means", "planned",
    "plans", "hoped", "hopes", "intended", "tried", "if", "unless", "whether", "dreamed",
    "dreamt", "imagined", "wished", "wishes", "not", "never", "no", "remembered", "once",
    "used", "thought", "about", "ago", "years", "will", "shall", "must",
];

fn is_motion(word: &str) -> bool {
    let base = past_base(word)
        .or_else(|| present_third_base(word))
        .or_else(|| is_known_base(word).then(|| word.to_string()))
        .or_else(|| word.strip_suffix("ing").map(|s| s.to_string()));
    base.is_some_and(|b| MOTION.contains(&b.as_str()) || MOTION.contains(&format!("{b}e").as_str()))
}

/// Where the scene is after each sentence (an index into the locations, when known), and the
/// impossible journeys.
pub(super) fn track(ctx: &Ctx<'_>) -> (Vec<Option<usize>>, Vec<Journey>) {
    let locations = ctx.input.locations;
    let mut here = ctx
        .input
        .scene_location
        .and_then(|scene| locations.iter().position(|l| l.id == scene.id));
    let mut after = Vec::with_capacity(ctx.prose.sentences.len());
    let mut impossible = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if !s.tokens.is_empty()
            && !s
                .tokens
                .iter()
                .any(|t| NOT_MOVING.contains(&t.lower.as_str()))
        {
            for (place, first, last, toward) in moves(ctx, si) {
                if !toward {
                    here = Some(place);
                    continue;
                }
                if let Some(origin) = here
                    && !ctx.map.reachable(origin, place)
                {
                    impossible.push(Journey {
                        sentence: si,
                        from: s.tokens[first].start,
                        to: s.tokens[last].end,
                        origin,
                        destination: place,
                    });
                }
                here = Some(place);
            }
        }
        after.push(here);
    }
    (after, impossible)
}

/// The POV character's moves in sentence `si`: (place, first token, last token, whether it
/// is the destination rather than the origin).
fn moves(ctx: &Ctx<'_>, si: usize) -> Vec<(usize, usize, usize, bool)> {
    let s = &ctx.prose.sentences[si];
    let subjects = ctx.subjects(si);
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.tokens.len() {
        if !is_motion(&s.tokens[i].lower) {
            i += 1;
            continue;
        }
        let mover = subjects.iter().rev().find(|x| x.last < i);
        let pov_moves = mover.is_some_and(|x| {
            x.referent == Referent::Pov
                || (x.first_person && ctx.input.pov == crate::config::PointOfView::First)
        });
        if !pov_moves {
            i += 1;
            continue;
        }
        let leaving = past_base(&s.tokens[i].lower).as_deref() == Some("leave")
            || matches!(s.tokens[i].lower.as_str(), "leaves" | "leave" | "leaving");
        let mut j = i + 1;
        while j < s.tokens.len() && j <= i + 8 {
            let t = &s.tokens[j];
            if t.barrier || (j > i + 1 && is_motion(&t.lower)) {
                break;
            }
            let start = if t.lower == "the" { j + 1 } else { j };
            if let Some((place, last)) = ctx.map.named_at(s, start) {
                let before: Vec<&str> = s.tokens[i..j].iter().map(|t| t.lower.as_str()).collect();
                let from_here = before.last().is_some_and(|w| *w == "from" || *w == "of");
                let toward = !(from_here || leaving && j == i + 1)
                    && (before.iter().any(|w| TOWARD.contains(w)) || j == i + 1);
                let origin = from_here || (leaving && j == i + 1);
                if toward || origin {
                    out.push((place, j, last, toward));
                }
                j = last + 1;
                continue;
            }
            j += 1;
        }
        i = j.max(i + 1);
    }
    out
}

pub(super) fn unreachable(ctx: &Ctx<'_>) -> Vec<Finding> {
    let locations = ctx.input.locations;
    ctx.journeys
        .iter()
        .map(|j| {
            let s = &ctx.prose.sentences[j.sentence];
            let excerpt = ctx.prose.excerpt(s, j.from);
            let (origin, destination) = (&locations[j.origin], &locations[j.destination]);
            let pov = ctx.pov_name();
            Finding::new(
                Check::Unreachable,
                Severity::Violation,
                format!(
                    "{pov} goes from {} to {} here, but the story's map has no way between \
                     them: “{excerpt}”. Show how {pov} gets there (a boat, a hidden road — and \
                     the story will record the new connection), or keep {pov} where the map \
                     allows.",
                    origin.name, destination.name
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, s, j.from, j.to)
            .about(&destination.id)
        })
        .collect()
}
