//! The location web as the checks read it: every known place's names (longest first) and the
//! connections between places, to find a place named in a sentence and whether one place can be
//! reached from another; and a journey the web does not allow.

use std::collections::{HashMap, HashSet, VecDeque};

use super::text::{Sentence, normalise};
use crate::model::Location;

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
    pub(super) fn named_at(&self, s: &Sentence, i: usize) -> Option<(usize, usize)> {
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

/// A move to a place that cannot be reached.
pub(super) struct Journey {
    pub sentence: usize,
    /// Byte range of the words naming the destination.
    pub from: usize,
    pub to: usize,
    pub origin: usize,
    pub destination: usize,
}
