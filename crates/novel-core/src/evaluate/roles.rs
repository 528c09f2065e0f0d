//! A first-person narrator called by a role instead of "I": the roles their own description
//! gives them ("A young wife and mother…" → "John's wife lies very still"; "Holmes's friend
//! and chronicler, an army doctor" → "his friend, following the finger, made out") and other
//! words for them ("his companion"), "the narrator" for anyone, and the narrator named by the
//! writing ("the writer of these pages", "the man who chronicles his adventures"). Only as the
//! subject of a verb, and only a role no other character's description or alias claims ("the
//! doctor" in a book with two doctors is someone else), owned by someone the cast knows ("the
//! last tenant's wife" is a stranger's). `voice.rs` reports these with the narrator's other
//! third-person slips, as notes: a role is a guess at who is meant.

use super::ctx::Ctx;
use super::lexicon::{is_action, is_past};
use super::people::subject_verbs;
use super::text::Sentence;
use super::verbs::present_third_base;

/// Nouns for what a person is to others or does, as descriptions name them.
#[rustfmt::skip]
const ROLE_NOUNS: &[&str] = &[
    "wife", "husband", "mother", "father", "son", "daughter", "sister", "brother", "friend",
    "companion", "chronicler", "biographer", "doctor", "physician", "surgeon", "patient",
    "boy", "girl", "lad", "lass", "widow", "widower", "clerk", "nurse", "governess", "servant",
    "apprentice", "assistant", "partner", "secretary", "lodger", "tenant", "heir", "orphan",
    "narrator", "diarist", "hero", "heroine", "schoolmaster", "schoolteacher", "teacher",
    "student", "soldier",
];

/// Roles that name whoever tells the story, whatever their description: "Our hero, gentlemen,
/// has had toothache", "Holmes's chronicler put on his hat".
const ANYONE_TELLING: &[&str] = &["narrator", "hero", "heroine", "chronicler", "diarist"];

/// Other words for a role a description gives: "Holmes's friend" is also "his companion" and
/// "his colleague" (`(role, other words)`).
const ROLE_SYNONYMS: &[(&str, &[&str])] = &[
    ("friend", &["companion", "colleague", "comrade"]),
    ("doctor", &["physician"]),
];

/// Whoever writes the pages the reader holds: "the writer of these pages", "the author of
/// this journal".
const WRITING: &[&str] = &["writer", "author"];

/// The roles that name the narrator: from their description, less those another character
/// also has, and "narrator".
pub(super) fn narrator_roles(ctx: &Ctx<'_>) -> Vec<&'static str> {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect()
    };
    let own = words(&ctx.people[ctx.pov].description);
    let others: Vec<String> = ctx
        .people
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != ctx.pov)
        .flat_map(|(_, c)| {
            let mut w = words(&c.description);
            for alias in &c.aliases {
                w.extend(words(alias));
            }
            w
        })
        .collect();
    let described = |r: &str| {
        own.iter().any(|w| w == r)
            || ROLE_SYNONYMS
                .iter()
                .any(|(role, words)| words.contains(&r) && own.iter().any(|w| w == role))
    };
    ROLE_NOUNS
        .iter()
        .chain(ROLE_SYNONYMS.iter().flat_map(|(_, words)| words.iter()))
        .copied()
        .filter(|r| ANYONE_TELLING.contains(r) || described(r))
        .filter(|r| !others.iter().any(|w| w == r))
        .collect()
}

/// "the writer of these pages", "the author of this journal": the narrator named by the
/// writing itself. Also "the man who chronicles his adventures", "the woman who keeps this
/// journal": the narrator named by the telling.
fn writer_of_these(s: &Sentence, i: usize) -> bool {
    let word = |k: usize| s.tokens.get(k).map(|t| t.lower.as_str());
    let of_these = WRITING.contains(&s.tokens[i].lower.as_str())
        && word(i + 1) == Some("of")
        && matches!(word(i + 2), Some("these" | "this"));
    let who_tells = matches!(word(i), Some("man" | "woman" | "one" | "person"))
        && word(i + 1) == Some("who")
        && matches!(
            word(i + 2),
            Some("writes" | "keeps" | "chronicles" | "tells" | "records" | "narrates" | "wrote" | "kept")
        )
        && matches!(word(i + 3), Some("these" | "this" | "his" | "her" | "the"));
    of_these || who_tells
}

/// Where the words naming the narrator by the writing end: "pages" in "the writer of these
/// pages", "adventures" in "the man who chronicles his adventures".
fn writing_phrase_end(s: &Sentence, i: usize) -> usize {
    let last = if s.tokens[i + 1].lower == "who" { i + 4 } else { i + 3 };
    last.min(s.tokens.len() - 1)
}

/// Where the verb of a role's phrase stands once a place after it is passed over ("The young
/// wife in the nursery has been", "his friend up in the attic is"): the token after the place.
fn after_place(s: &Sentence, i: usize) -> Option<usize> {
    let mut k = i + 1;
    if s.tokens.get(k).is_some_and(|t| matches!(t.lower.as_str(), "up" | "down" | "out" | "over")) {
        k += 1;
    }
    let preposition = s.tokens.get(k).is_some_and(|t| {
        matches!(t.lower.as_str(), "in" | "at" | "by" | "on" | "upstairs" | "downstairs" | "beside" | "behind")
    });
    if !preposition {
        return None;
    }
    // The place: an article or possessive and up to three words ("in the nursery", "at the
    // window", "by the old stove").
    let det = k + 1;
    if !s.tokens.get(det).is_some_and(|t| matches!(t.lower.as_str(), "the" | "her" | "his" | "their" | "my")) {
        return None;
    }
    (det + 2..=det + 4)
        .find(|&v| {
            s.tokens.get(v).is_some_and(|t| {
                t.plain_gap
                    && (is_past(&t.lower)
                        || present_third_base(&t.lower).is_some()
                        || matches!(t.lower.as_str(), "is" | "was" | "has" | "had" | "lies" | "lay"))
            })
        })
        .filter(|&v| s.tokens[i + 1..=v].iter().all(|t| !t.barrier))
}

/// Where sentence `s` calls the narrator by one of `roles` as the subject of a verb ("John's
/// wife lies", "His companion nodded", "The narrator folds"): the first token of the phrase
/// and the verb's token.
pub(super) fn role_subject(ctx: &Ctx<'_>, s: &Sentence, roles: &[&str]) -> Option<(usize, usize)> {
    (0..s.tokens.len()).find_map(|i| {
        let role = s.tokens[i].lower.as_str();
        if !(roles.contains(&role) || writer_of_these(s, i)) || i == 0 {
            return None;
        }
        // "the", "his", "her", "their", "our" or a name's possessive, with up to two words
        // between.
        let owner = (i.saturating_sub(3)..i).find(|&k| {
            let w = s.tokens[k].lower.as_str();
            matches!(w, "the" | "his" | "her" | "their" | "our") || w.ends_with("'s") || w.ends_with("’s")
        })?;
        if s.tokens[owner + 1..=i].iter().any(|t| t.barrier) {
            return None;
        }
        // "Holmes's friend" and "the notary's daughter" (her record says "a notary's
        // daughter") are the narrator; "the last tenant's wife" is a stranger's.
        // "the physician's wife" too, when the cast has a physician.
        let hits = ctx.hits(s);
        let own = ctx.people[ctx.pov].description.to_lowercase().replace('’', "'");
        let known = |w: &str| {
            let noun = w.trim_end_matches("'s");
            ctx.people.iter().any(|c| {
                c.description
                    .to_lowercase()
                    .split(|ch: char| !ch.is_alphanumeric())
                    .any(|x| x == noun)
            })
        };
        let strangers = (owner..i).any(|k| {
            let w = s.tokens[k].lower.replace('’', "'");
            w.ends_with("'s")
                && !hits.iter().any(|h| h.last == k && h.possessive)
                && !own.contains(&w)
                && !known(&w)
        });
        if strangers {
            return None;
        }
        // A subject opens its clause.
        // "…, while his friend stood by the door": after a conjunction too.
        let opens = owner == 0
            || s.tokens[owner].barrier
            || ctx.prose.original[s.tokens[owner - 1].end..s.tokens[owner].start].contains(',')
            || matches!(
                s.tokens[owner - 1].lower.as_str(),
                "and" | "but" | "then" | "so" | "while" | "whilst" | "when" | "as" | "until"
                    | "though" | "although" | "because"
            );
        if !opens {
            return None;
        }
        // "the writer of these pages does not sleep": the verb after the pages.
        let head = if writer_of_these(s, i) { writing_phrase_end(s, i) } else { i };
        // "His wife lay there for hours": a verb the chain reader does not know, right after.
        let chain = subject_verbs(ctx, s, head);
        let v = after_place(s, head)
            .or_else(|| chain.first().copied())
            .or_else(|| (head + 1 < s.tokens.len() && s.tokens[head + 1].plain_gap).then_some(head + 1))?;
        let verb = s.tokens[v].lower.as_str();
        let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
        let acts = is_action(verb, next)
            || is_past(verb)
            || present_third_base(verb).is_some()
            || super::verbs::is_same_in_past(verb)
            || matches!(
                verb,
                "would" | "could" | "had" | "was" | "is" | "has" | "lay" | "lies" | "does" | "did"
            );
        acts.then_some((owner, v))
    })
}
