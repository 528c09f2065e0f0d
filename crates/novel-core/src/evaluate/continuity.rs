//! Continuity against the story memory: a dead character acting or speaking in the present, a
//! character acting here while last known to be somewhere else (with no arrival on the page and
//! not travelling with the POV character), and a character with an item they have lost — used,
//! called "her knife", or named as recorded ("the silver knife"). A sentence framed as memory,
//! dream, wish or negation ("Bram used to laugh", "she had no knife now") is never a finding.

use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::input::LostItem;
use super::lexicon::{FRAMING, NOT_USING, USE_VERBS, is_action, is_in};
use super::people::{Referent, verb_chain};
use super::text::{Sentence, Token, match_words, name_words, normalise, verb_after};
use super::verbs::{is_ing, is_state, past_base, present_third_base};
use crate::config::PointOfView;

static ARRIVAL: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern, covered by the tests.
    super::pattern::compile(
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

#[rustfmt::skip]
const RECOVERY: &[&str] = &[
    "found", "finds", "recovered", "recovers", "retrieved", "retrieves", "unearthed",
    "fished", "returned", "reclaimed", "regained",
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

/// Memory, dream, image, death or time words anywhere in the sentence: "She remembered how
/// Orrin smiled", "In the photograph, Orrin grinned".
fn framed(s: &Sentence) -> bool {
    s.tokens.iter().enumerate().any(|(i, t)| {
        is_in(FRAMING, &t.lower)
            && !is_in(AUXILIARY_FRAMING, &t.lower)
            && (t.lower != "used" || followed_by(s, i, "to"))
    })
}

/// Framing words that frame only their own verb: "Orrin had said…", "Orrin would laugh",
/// "Orrin never came back" — but not "Orrin came in, the way he always had".
const AUXILIARY_FRAMING: &[&str] = &["had", "would", "could", "might", "should", "never", "used"];

fn followed_by(s: &Sentence, i: usize, word: &str) -> bool {
    s.tokens
        .get(i + 1)
        .is_some_and(|t| t.plain_gap && t.lower == word)
}

/// Verbs that a dead or absent character can be the subject of without acting: "Orrin died
/// in the fire", "Orrin lay in the churchyard", "Orrin left her the lighthouse".
#[rustfmt::skip]
const STILL: &[&str] = &[
    "die", "drown", "perish", "lie", "lay", "rest", "seem", "look", "be", "have", "do",
    "remain", "belong", "love", "hate", "know", "think", "remember", "want", "need", "like",
    "mean", "fear", "hope", "wish", "leave", "own", "deserve", "lose", "fall", "sleep",
    "appear",
];

#[rustfmt::skip]
const SPEECH: &[&str] = &[
    "said", "says", "told", "tells", "asked", "asks", "replied", "replies", "answered",
    "answers", "called", "calls", "whispered", "whispers", "muttered", "mutters", "murmured",
    "murmurs", "shouted", "shouts", "spoke", "speaks",
];

/// Whether the subject ending at token `last` acts in the scene's present: a visible action
/// ("Orrin smiled", "Orrin poured the tea", "Hester was sitting at her stall").
pub(super) fn acts_at(ctx: &Ctx<'_>, s: &Sentence, last: usize) -> bool {
    let chain = verb_chain(s, last);
    let Some(&v) = chain.first() else {
        return false;
    };
    let main = chain.last().copied().unwrap_or(v);
    if s.tokens[last + 1..=main]
        .iter()
        .any(|t| is_in(AUXILIARY_FRAMING, &t.lower) || t.lower == "'d")
    {
        return false;
    }
    let verb = s.tokens[v].lower.as_str();
    // Speech is presence only as the tag of words spoken here: "Marcus said a great many
    // things" or "Orrin said the lamp would last" may be hearsay from anywhere.
    if is_in(SPEECH, verb) {
        return ctx.prose.narration(s).contains(super::text::MASK);
    }
    let next = chain
        .get(1)
        .or(Some(&(v + 1)))
        .and_then(|&i| s.tokens.get(i))
        .map(|t| t.lower.as_str());
    if is_action(verb, next) {
        return true;
    }
    if matches!(verb, "was" | "were" | "is") {
        return next.is_some_and(|n| is_ing(n) && !matches!(n, "dying" | "lying" | "resting"));
    }
    // Presence rests on the listed verbs of fiction, not the general lexicon's rarer ones
    // ("The man saluted" is too thin to put a character in a second place).
    if super::verbs::only_in_lexicon(verb) {
        return false;
    }
    let base = past_base(verb).or_else(|| present_third_base(verb));
    base.is_some_and(|b| !STILL.contains(&b.as_str()) && !is_state(verb))
}

/// The first sentence in which `who` is the subject of a visible action, unframed.
fn acting<'s>(ctx: &'s Ctx<'_>, who: usize) -> Option<(usize, &'s Sentence, (usize, usize))> {
    ctx.prose
        .sentences
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.tokens.is_empty() && !framed(s))
        .find_map(|(si, s)| {
            ctx.hits(s)
                .into_iter()
                .filter(|h| h.who == who && !h.possessive)
                // "the nets of the late Silas Crane still hung": the name is not the subject.
                .filter(|h| {
                    h.first.checked_sub(1).is_none_or(|p| {
                        !matches!(s.tokens[p].lower.as_str(), "late" | "of")
                            || !s.tokens[h.first].plain_gap
                    })
                })
                .find_map(|h| {
                    let verb = verb_chain(s, h.last).first().copied()?;
                    acts_at(ctx, s, h.last).then_some((
                        si,
                        s,
                        (s.tokens[h.first].start, s.tokens[verb].end),
                    ))
                })
        })
}

pub(super) fn dead_characters(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for who in (0..ctx.people.len()).filter(|w| *w != ctx.pov && ctx.is_dead(*w)) {
        let Some((_, s, (at, to))) = acting(ctx, who) else {
            continue;
        };
        let excerpt = ctx.prose.excerpt(s, at);
        let name = ctx.name(who);
        let pov = ctx.pov_name();
        out.push(
            Finding::new(
                Check::DeadCharacter,
                Severity::Violation,
                format!(
                    "{name} is dead in the story so far, but acts in the present here: \
                     “{excerpt}”. Remove {name} from the action, or make the moment clearly \
                     {pov}'s memory, dream or imagining (for example \"{pov} remembered how \
                     {name}…\")."
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, s, at, to)
            .about(&ctx.people[who].id),
        );
    }
    out
}

pub(super) fn two_places(ctx: &Ctx<'_>) -> Vec<Finding> {
    if ctx.input.scene_location.is_none() {
        return Vec::new();
    }
    // An arrival anywhere in the narration is enough: the extractor will move the character,
    // so only a scene that never brings them in is worth a word. Dialogue does not count:
    // "You came back," says nothing about who walked in.
    if has_arrival(&ctx.prose.masked) {
        return Vec::new();
    }
    let pov_last = ctx.people[ctx.pov].last_location.as_deref();
    let mut out = Vec::new();
    for who in (0..ctx.people.len()).filter(|w| *w != ctx.pov && !ctx.is_dead(*w)) {
        let Some(last) = ctx.people[who]
            .last_location
            .as_deref()
            .and_then(|l| ctx.location(l))
        else {
            continue;
        };
        let Some((si, s, (at, to))) = acting(ctx, who) else {
            continue;
        };
        let Some(here_index) = ctx.place_after[si] else {
            continue;
        };
        let here = &ctx.input.locations[here_index];
        // Someone last seen with the POV character, in a scene away from there, came along.
        let companion = pov_last
            .and_then(|p| ctx.location(p))
            .is_some_and(|p| p.id == last.id)
            && last.id != here.id;
        // "Meanwhile, at the harbour, Maud…": the sentence says where the action is.
        let elsewhere_named = ctx.map.places_named(s).iter().any(|&p| p != here_index);
        if last.id == here.id
            || companion
            || elsewhere_named
            || s.tokens.iter().any(|t| is_in(REMOTE, &t.lower))
        {
            continue;
        }
        let excerpt = ctx.prose.excerpt(s, at);
        let name = ctx.name(who);
        out.push(
            Finding::new(
                Check::TwoPlaces,
                Severity::Warning,
                format!(
                    "{name} was last at {} but acts here at {} with no arrival on the page: \
                     “{excerpt}”. Add a line showing {name} arriving, or keep {name} out of the \
                     scene.",
                    last.name, here.name
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, s, at, to)
            .about(&ctx.people[who].id),
        );
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
    let recorded = recorded_name(&lost.item);
    // Found again on the page ("she found the knife in the straw"): the extractor will
    // record it; from there on it is in hand.
    let recovered_at = ctx.prose.sentences.iter().position(|s| {
        s.tokens.iter().any(|t| is_in(RECOVERY, &t.lower))
            && s.tokens.iter().any(|t| {
                t.lower == "it"
                    || item_head(&lost.item).is_some_and(|h| singular(&t.lower) == singular(&h))
            })
    });
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty()
            || recovered_at.is_some_and(|r| r <= si)
            || s.tokens.iter().enumerate().any(|(i, t)| not_using(s, i, t))
        {
            continue;
        }
        let mut found = None;
        for subject_last in subjects(ctx, s, who, lost) {
            let Some(v) = verb_after(&s.tokens, subject_last) else {
                continue;
            };
            if is_in(USE_VERBS, &s.tokens[v].lower)
                && let Some(object) = object_is_item(s, v, &head, &item_words)
            {
                found = Some((subject_last, object));
                break;
            }
        }
        let found = found
            .or_else(|| who.and_then(|w| owned_mention(ctx, si, s, w, &head, &item_words)))
            .or_else(|| named_mention(s, &recorded, &item_words));
        let Some((first, last)) = found else {
            continue;
        };
        let (at, to) = (s.tokens[first].start, s.tokens[last].end);
        let excerpt = ctx.prose.excerpt(s, at);
        let name = lost.character_name.trim();
        let item = item_phrase(&lost.item);
        return Some(
            Finding::new(
                Check::LostItem,
                Severity::Violation,
                format!(
                    "{name} lost {item} earlier in the story (tick {}), but has it here: \
                     “{excerpt}”. Either show on the page how {name} got it back, or change \
                     the action so it does not need {item}.",
                    lost.tick
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, s, at, to)
            .about(&lost.character_id),
        );
    }
    None
}

/// The words an item is named by, as recorded, without determiners and the owner's
/// possessive: "her father's silver knife" → ["silver", "knife"]; a one-word item has none (a
/// bare "the compass" may be any compass).
fn recorded_name(item: &str) -> Vec<String> {
    let words: Vec<String> = item
        .split_whitespace()
        .map(|w| normalise(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')))
        .filter(|w| !w.is_empty())
        .collect();
    let core: Vec<String> = words
        .into_iter()
        .skip_while(|w| DETERMINERS.contains(&w.as_str()))
        .filter(|w| !w.ends_with("'s"))
        .collect();
    if core.len() < 2 {
        return Vec::new();
    }
    core[core.len() - 2..].to_vec()
}

/// "her knife", "my compass", "Bram's key": the owner's possessive, then the item's noun
/// within three words.
fn owned_mention(
    ctx: &Ctx<'_>,
    si: usize,
    s: &Sentence,
    owner: usize,
    head: &str,
    item_words: &[String],
) -> Option<(usize, usize)> {
    let hits = ctx.hits(s);
    (0..s.tokens.len()).find_map(|i| {
        let t = &s.tokens[i];
        let owners = if hits
            .iter()
            .any(|h| h.last == i && h.possessive && h.who == owner)
        {
            true
        } else if t.lower == "my" {
            owner == ctx.pov && ctx.input.pov == PointOfView::First
        } else if matches!(t.lower.as_str(), "her" | "his") {
            match ctx.resolve(si, i, &t.lower) {
                Referent::Pov => owner == ctx.pov,
                Referent::Person(w) => w == owner,
                _ => false,
            }
        } else {
            false
        };
        if !owners {
            return None;
        }
        (i + 1..(i + 4).min(s.tokens.len()))
            .take_while(|&j| {
                let t = &s.tokens[j];
                t.plain_gap && (!t.lower.ends_with("'s") || item_words.contains(&t.lower))
            })
            .find(|&j| singular(&s.tokens[j].lower) == singular(head))
            // "her shawls": others of the kind, not the one that was lost.
            .filter(|&j| s.tokens[j].lower == head || singular(head) != head)
            .map(|j| (i, j))
    })
}

/// The item named as recorded ("the silver knife"), not another of its kind ("a silver
/// knife", "Bram's silver knife").
fn named_mention(
    s: &Sentence,
    recorded: &[String],
    item_words: &[String],
) -> Option<(usize, usize)> {
    if recorded.is_empty() {
        return None;
    }
    (0..s.tokens.len()).find_map(|i| {
        let fits = recorded.iter().enumerate().all(|(k, w)| {
            s.tokens
                .get(i + k)
                .is_some_and(|t| (k == 0 || t.plain_gap) && singular(&t.lower) == singular(w))
        });
        let before = i.checked_sub(1).map(|p| s.tokens[p].lower.as_str());
        let other = before.is_some_and(|b| {
            is_in(OTHER_ONE, b) || (b.ends_with("'s") && !item_words.iter().any(|w| w == b))
        });
        (fits && !other).then(|| {
            (
                i.saturating_sub(usize::from(before.is_some())),
                i + recorded.len() - 1,
            )
        })
    })
}

fn not_using(s: &Sentence, i: usize, t: &Token) -> bool {
    (is_in(NOT_USING, &t.lower) || t.lower.ends_with("n't"))
        || (t.lower == "used" && followed_by(s, i, "to"))
}

/// Token indexes ending a subject that refers to the item's owner: their name, or — when
/// they are the POV character — "I" in first person, or their pronoun opening a sentence.
fn subjects(ctx: &Ctx<'_>, s: &Sentence, who: Option<usize>, lost: &LostItem) -> Vec<usize> {
    let mut out: Vec<usize> = match who {
        Some(w) => ctx.hits(s)
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

/// The item's noun, when the item is the verb's object within the next eight words ("drew her
/// father's silver knife"), and not a different one ("drew a spare knife").
fn object_is_item(s: &Sentence, v: usize, head: &str, item_words: &[String]) -> Option<usize> {
    for (i, t) in s.tokens.iter().enumerate().skip(v + 1).take(8) {
        if t.barrier {
            return None;
        }
        if singular(&t.lower) == singular(head) {
            return Some(i);
        }
        let foreign_possessive = t.lower.ends_with("'s") && !item_words.contains(&t.lower);
        if is_in(OTHER_ONE, &t.lower) || foreign_possessive {
            return None;
        }
    }
    None
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
