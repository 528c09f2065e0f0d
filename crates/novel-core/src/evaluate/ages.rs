//! Narration that contradicts a person's recorded age: "age": "40" in their facts (or "a
//! widow of forty", "a forty-year-old", "in her sixties" in their description) and the scene
//! says "Maud was twelve", "the twelve-year-old Maud", "she was in her sixties". Only plain
//! statements count — the person by name or a pronoun the checks can resolve, "is/was" and
//! the age with nothing after it but "years old" or the end of the clause ("was forty minutes
//! late" is no age). Ages are compared with two years' grace (and more for "nearly", "about"),
//! since a book's time passes; a memory, a guess or a look ("when she was twelve", "looked
//! sixty") states nothing, and the narrator's "I was twelve" in the first person is a memory
//! told from later.

use super::ctx::Ctx;
use super::finding::Finding;
use super::lexicon::is_in;
use super::text::{Sentence, normalise};
use super::whose::{Whose, subject};
use crate::config::PointOfView;
use crate::model::Character;

/// An age or a span of ages, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Age {
    lo: u32,
    hi: u32,
}

impl Age {
    fn widened(self, by: u32) -> Age {
        Age {
            lo: self.lo.saturating_sub(by),
            hi: self.hi + by,
        }
    }

    fn apart(self, other: Age) -> bool {
        self.hi < other.lo || other.hi < self.lo
    }
}

/// Years of grace between a recorded and a stated age: time passes in a book.
const GRACE: u32 = 2;

#[rustfmt::skip]
const UNITS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
];
#[rustfmt::skip]
const TENS: &[&str] = &["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/// "forty", "forty-two", "42" → the number (below 130).
fn number(word: &str) -> Option<u32> {
    if let Ok(n) = word.parse::<u32>() {
        return (n < 130).then_some(n);
    }
    if let Some(n) = UNITS.iter().position(|u| *u == word) {
        return Some(n as u32);
    }
    if let Some(t) = TENS.iter().position(|t| *t == word) {
        return Some(20 + 10 * t as u32);
    }
    let (tens, unit) = word.split_once('-')?;
    let t = TENS.iter().position(|x| *x == tens)?;
    let u = UNITS[1..10].iter().position(|x| *x == unit)?;
    Some(20 + 10 * t as u32 + u as u32 + 1)
}

/// "forties", "40s", "teens" → the decade's span.
fn decade(word: &str) -> Option<Age> {
    if word == "teens" {
        return Some(Age { lo: 13, hi: 19 });
    }
    let d = if let Some(digits) = word.strip_suffix('s') {
        digits
            .parse::<u32>()
            .ok()
            .filter(|d| d % 10 == 0 && *d >= 20)
    } else {
        None
    }
    .or_else(|| {
        let t = TENS
            .iter()
            .position(|t| word.strip_suffix("ies") == t.strip_suffix('y'))?;
        Some(20 + 10 * t as u32)
    })?;
    Some(Age { lo: d, hi: d + 9 })
}

/// "early"/"mid"/"late" before a decade narrows it.
fn narrowed(decade: Age, by: Option<&str>) -> Age {
    match by {
        Some("early") => Age {
            lo: decade.lo,
            hi: decade.lo + 4,
        },
        Some("mid" | "middle") => Age {
            lo: decade.lo + 3,
            hi: decade.lo + 7,
        },
        Some("late") => Age {
            lo: decade.lo + 5,
            hi: decade.hi,
        },
        _ => decade,
    }
}

/// Words that make an age approximate.
const ROUGHLY: &[&str] = &[
    "nearly",
    "almost",
    "about",
    "around",
    "over",
    "past",
    "some",
    "roughly",
    "perhaps",
    "maybe",
    "barely",
    "under",
    "nigh",
    "going",
    "near",
    "close",
    "approximately",
];

fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(normalise)
        .collect()
}

/// A recorded age: the `age` fact ("40", "about forty", "late thirties"), else the
/// description's "forty-year-old", "aged forty", "of forty", "in her forties".
fn recorded(c: &Character) -> Option<(Age, String, String)> {
    for (key, value) in &c.facts {
        let k = key.trim().to_lowercase();
        if k != "age" && !k.starts_with("age ") && !k.starts_with("age_") {
            continue;
        }
        let words = words_of(value);
        let rough = words.iter().any(|w| ROUGHLY.contains(&w.as_str()));
        let found = words.iter().enumerate().find_map(|(i, w)| {
            let before = i.checked_sub(1).map(|p| words[p].as_str());
            decade(w)
                .map(|d| narrowed(d, before))
                .or_else(|| number(w).map(|n| Age { lo: n, hi: n }))
        });
        if let Some(age) = found {
            let age = if rough { age.widened(3) } else { age };
            return Some((age, value.trim().to_string(), format!("the fact “{key}”")));
        }
    }
    for clause in c.description.split([',', ';', '.', '(', ')']) {
        let words = words_of(clause);
        for (i, w) in words.iter().enumerate() {
            let before = i.checked_sub(1).map(|p| words[p].as_str());
            let after = words.get(i + 1).map(String::as_str);
            let age = if let Some(n) = w.strip_suffix("-year-old").and_then(number) {
                Some(Age { lo: n, hi: n })
            } else if let Some(d) =
                decade(w).filter(|_| words[..i].iter().rev().take(3).any(|x| x == "in"))
            {
                Some(narrowed(d, before))
            } else if matches!(before, Some("aged" | "of"))
                && matches!(
                    after,
                    None | Some("years" | "who" | "whose" | "with" | "and" | "that")
                )
            {
                number(w).filter(|n| *n >= 10).map(|n| Age { lo: n, hi: n })
            } else {
                None
            };
            if let Some(age) = age {
                return Some((age, clause.trim().to_string(), "the description".into()));
            }
        }
    }
    None
}

/// Words that make a statement of age a memory, a plan, a guess or a look.
#[rustfmt::skip]
const NOT_NOW: &[&str] = &[
    "when", "once", "ago", "since", "until", "used", "remembered", "remember", "would", "will",
    "shall", "if", "birthday", "looked", "seemed", "appeared", "felt", "acted", "pretended",
    "claimed", "said", "told", "lied", "passed", "might", "could", "must", "thought",
    "believed", "guessed", "supposed", "then", "still", "before", "after", "older", "younger",
    "not", "never", "like",
];

pub(super) fn contradictions(ctx: &Ctx<'_>) -> Vec<Finding> {
    let ages: Vec<Option<(Age, String, String)>> = ctx.people.iter().map(|c| recorded(c)).collect();
    if ages.iter().all(Option::is_none) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || s.tokens.iter().any(|t| is_in(NOT_NOW, &t.lower)) {
            continue;
        }
        let rough = s.tokens.iter().any(|t| is_in(ROUGHLY, &t.lower));
        let Some((owner, stated, (from, to))) = stated(ctx, si, s) else {
            continue;
        };
        let Some((age, words, place)) = &ages[owner.who] else {
            continue;
        };
        let stated = if rough { stated.widened(3) } else { stated };
        if !stated.apart(age.widened(GRACE)) {
            continue;
        }
        let name = ctx.name(owner.who);
        let (at, end) = (s.tokens[from].start, s.tokens[to].end);
        let excerpt = ctx.prose.excerpt(s, at);
        let message = format!(
            "The story memory records {name}'s age as “{words}” ({place}, record {id}), but the \
             narration gives another age here: “{excerpt}”. Keep to the record, or make it \
             clearly a memory or a guess.",
            id = ctx.people[owner.who].id,
        );
        out.push(owner.contradiction(
            ctx,
            s,
            (at, end),
            &ctx.people[owner.who].id,
            message,
            excerpt,
        ));
    }
    out
}

/// An age the sentence states of a person: "Maud was twelve", "she is forty years old", "he
/// was in his sixties", "the twelve-year-old Maud". The person, the age, and the tokens.
fn stated(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Option<(Whose, Age, (usize, usize))> {
    let t = &s.tokens;
    for i in 0..t.len() {
        // "the twelve-year-old Maud"
        if let Some(n) = t[i].lower.strip_suffix("-year-old").and_then(number)
            && let Some(h) = ctx
                .hits(s)
                .into_iter()
                .find(|h| h.first == i + 1 && !h.possessive && t[i + 1].plain_gap)
        {
            let owner = Whose {
                who: h.who,
                sure: true,
            };
            return Some((owner, Age { lo: n, hi: n }, (i, h.last)));
        }
        let Some((owner, last)) = subject(ctx, si, s, i) else {
            continue;
        };
        let be = last + 1;
        let present = matches!(
            t.get(be).map(|x| x.lower.as_str()),
            Some("is" | "am" | "'m")
        );
        let past = t.get(be).is_some_and(|x| x.lower == "was");
        if !(present || past) || !t[be].plain_gap {
            continue;
        }
        // The narrator's "I was twelve" is told from later.
        let narrator = ctx.input.pov == PointOfView::First && owner.who == ctx.pov;
        if narrator && !present {
            continue;
        }
        let Some(n) = t.get(be + 1).filter(|x| x.plain_gap) else {
            continue;
        };
        if let Some(age) = number(&n.lower) {
            // Nothing after but "years old" or the clause's end: "was forty minutes late" is
            // no age.
            let next = t
                .get(be + 2)
                .filter(|x| x.plain_gap)
                .map(|x| x.lower.as_str());
            let end = match next {
                None => be + 1,
                Some("years" | "year")
                    if t.get(be + 3)
                        .is_some_and(|x| x.lower == "old" && x.plain_gap) =>
                {
                    be + 3
                }
                Some(_) => continue,
            };
            return Some((owner, Age { lo: age, hi: age }, (i, end)));
        }
        // "was in her sixties", "is in his late forties"
        if n.lower == "in"
            && let Some(p) = t.get(be + 2).filter(|x| x.plain_gap)
            && matches!(p.lower.as_str(), "her" | "his" | "my" | "their")
        {
            let mut k = be + 3;
            let by = t
                .get(k)
                .map(|x| x.lower.as_str())
                .filter(|w| matches!(*w, "early" | "mid" | "middle" | "late"));
            if by.is_some() {
                k += 1;
            }
            if let Some(d) = t
                .get(k)
                .filter(|x| x.plain_gap)
                .and_then(|x| decade(&x.lower))
            {
                return Some((owner, narrowed(d, by), (i, k)));
            }
        }
    }
    None
}
