//! Where the scene is, sentence by sentence, and whether the POV character's journeys on the
//! page are possible. The scene starts at its location; a sentence in which the POV character
//! (or the narrator, "I"/"we") walks, runs, sails… to a known place moves it there. A move to
//! a place the location web (the `location_connections` table) does not connect, by any
//! path, to where the character was is a finding. A place with no recorded connections is
//! unknown ground, not unreachable; talk of going ("wanted to sail to…") moves nobody.

use std::collections::{HashMap, HashSet, VecDeque};

use super::people::Referent;
use super::text::{Sentence, normalise};
use super::verbs::{is_known_base, past_base, present_third_base};
use super::{Check, Ctx, Finding, Severity};
use crate::model::Location;

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

/// A known place's name as lowercase words, without a leading "the".
fn name_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = name
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(normalise)
        .collect();
    if words.first().is_some_and(|w| w == "the") {
        words.remove(0);
    }
    words
}

pub(super) struct Map {
    /// Name variants (longest first) and the location index they name.
    names: Vec<(Vec<String>, usize)>,
    /// Neighbours by location index.
    links: Vec<Vec<usize>>,
}

impl Map {
    pub fn new(locations: &[Location]) -> Map {
        let mut names: Vec<(Vec<String>, usize)> = Vec::new();
        for (i, l) in locations.iter().enumerate() {
            for n in std::iter::once(&l.name).chain(&l.aliases) {
                let words = name_words(n);
                if !words.is_empty() {
                    names.push((words, i));
                }
            }
        }
        names.sort_by_key(|n| std::cmp::Reverse(n.0.len()));
        let index: HashMap<&str, usize> = locations
            .iter()
            .enumerate()
            .map(|(i, l)| (l.id.as_str(), i))
            .collect();
        let mut links = vec![Vec::new(); locations.len()];
        for (i, l) in locations.iter().enumerate() {
            for other in &l.connections {
                if let Some(&j) = index.get(other.as_str()) {
                    links[i].push(j);
                    links[j].push(i);
                }
            }
        }
        Map { names, links }
    }

    /// The words of every known place's name, for telling names of people from names of places.
    pub fn words(&self) -> Vec<String> {
        let set: HashSet<&String> = self.names.iter().flat_map(|(w, _)| w).collect();
        set.into_iter().cloned().collect()
    }

    /// A place named at token `i`: (location index, last token).
    fn named_at(&self, s: &Sentence, i: usize) -> Option<(usize, usize)> {
        self.names.iter().find_map(|(words, loc)| {
            let fits = words.iter().enumerate().all(|(k, w)| {
                s.tokens.get(i + k).is_some_and(|t| {
                    (t.lower == *w || t.lower.trim_end_matches("'s") == w)
                        && (k == 0 || t.plain_gap)
                })
            });
            fits.then(|| (*loc, i + words.len() - 1))
        })
    }

    /// Every known place named in the sentence.
    pub fn places_named(&self, s: &Sentence) -> Vec<usize> {
        (0..s.tokens.len())
            .filter_map(|i| self.named_at(s, i).map(|(place, _)| place))
            .collect()
    }

    /// Whether some path of connections leads from `a` to `b`; a place with no recorded
    /// connections is unknown ground and counts as reachable.
    pub fn reachable(&self, a: usize, b: usize) -> bool {
        if a == b || self.links[a].is_empty() || self.links[b].is_empty() {
            return true;
        }
        let mut seen = vec![false; self.links.len()];
        let mut queue = VecDeque::from([a]);
        seen[a] = true;
        while let Some(x) = queue.pop_front() {
            for &y in &self.links[x] {
                if y == b {
                    return true;
                }
                if !seen[y] {
                    seen[y] = true;
                    queue.push_back(y);
                }
            }
        }
        false
    }
}

fn is_motion(word: &str) -> bool {
    let base = past_base(word)
        .or_else(|| present_third_base(word))
        .or_else(|| is_known_base(word).then(|| word.to_string()))
        .or_else(|| word.strip_suffix("ing").map(|s| s.to_string()));
    base.is_some_and(|b| MOTION.contains(&b.as_str()) || MOTION.contains(&format!("{b}e").as_str()))
}

/// A move to a place that cannot be reached.
pub(super) struct Journey {
    pub sentence: usize,
    /// Byte range of the words naming the destination.
    pub from: usize,
    pub to: usize,
    pub origin: usize,
    pub destination: usize,
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
