//! The seeds of an imported novel proposed from its own text, so the writer corrects them
//! rather than typing them before the file is even chosen: the protagonist (the first-person
//! narrator, by the name others call them, or the capitalised name most often the subject of
//! a verb), the place (the capitalised name most often after `in`, `at`, `to`, …) and the
//! premise (the story's opening sentence, to be rewritten). Counting words only: deterministic,
//! no model call, so nothing leaves the machine before the writer confirms the import.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::parse::Manuscript;

/// What the text suggests for the new novel's seeds; empty when it suggests nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Proposals {
    pub premise: String,
    pub protagonist: String,
    pub place: String,
}

/// Words read for the proposals: enough to find who and where, bounded for a long book.
const WORDS_READ: usize = 60_000;
/// Narration with this many `I` per thousand words is told in the first person.
const FIRST_PERSON_PER_THOUSAND: usize = 8;

const TITLES: [&str; 14] = [
    "Mr",
    "Mrs",
    "Ms",
    "Miss",
    "Dr",
    "Doctor",
    "Captain",
    "Sir",
    "Lady",
    "Lord",
    "Mister",
    "Madam",
    "Squire",
    "Professor",
];
const NOT_NAMES: [&str; 48] = [
    "I",
    "The",
    "A",
    "An",
    "He",
    "She",
    "It",
    "We",
    "They",
    "You",
    "His",
    "Her",
    "My",
    "Our",
    "Your",
    "Their",
    "This",
    "That",
    "There",
    "Then",
    "But",
    "And",
    "Or",
    "If",
    "When",
    "What",
    "Who",
    "Why",
    "How",
    "Oh",
    "Yes",
    "No",
    "Well",
    "God",
    "Heaven",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Christmas",
    "English",
    "French",
    "O",
    "Ah",
    "Now",
];
const VERBS: [&str; 40] = [
    "said",
    "says",
    "asked",
    "cried",
    "replied",
    "answered",
    "was",
    "is",
    "had",
    "has",
    "looked",
    "turned",
    "went",
    "came",
    "felt",
    "thought",
    "knew",
    "saw",
    "took",
    "stood",
    "sat",
    "smiled",
    "laughed",
    "walked",
    "ran",
    "called",
    "whispered",
    "shouted",
    "began",
    "could",
    "would",
    "did",
    "made",
    "got",
    "put",
    "seemed",
    "told",
    "returned",
    "continued",
    "nodded",
];
const SPEECH: [&str; 8] = [
    "said",
    "says",
    "asked",
    "cried",
    "replied",
    "answered",
    "returned",
    "continued",
];
const PLACE_WORDS: [&str; 9] = [
    "in", "at", "to", "from", "into", "near", "towards", "toward", "reached",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A word of the story: its letters, whether it opens a sentence, sits inside quotes, and is
/// followed by a comma or a sentence's end.
struct Token<'a> {
    word: &'a str,
    sentence_start: bool,
    quoted: bool,
    pause_after: bool,
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut sentence_start = true;
    for raw in text.split_whitespace().take(WORDS_READ) {
        let opens = raw.starts_with(['“', '"']);
        if opens {
            quoted = true;
        }
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
        let word = word.trim_end_matches(['’', '\'']);
        let end = raw.trim_end_matches(['”', '"', '’', '\'', ')', '_', '*']);
        if !word.is_empty() {
            out.push(Token {
                word,
                sentence_start: sentence_start || opens,
                quoted,
                pause_after: end.ends_with([',', '!', '?', '.', ';']),
            });
        }
        sentence_start = end.ends_with(['.', '!', '?', ':']) || raw.ends_with(['”', '"']);
        if raw.ends_with(['”']) || (raw.ends_with('"') && !opens) {
            quoted = false;
        }
    }
    out
}

fn capitalised(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase)
        && word.chars().any(char::is_lowercase)
        && !word.contains(['\'', '’'])
}

fn name_like(word: &str) -> bool {
    capitalised(word)
        && !NOT_NAMES.contains(&word)
        && !TITLES.contains(&word)
        && !MONTHS.contains(&word)
}

/// The key with the highest count (the earliest seen on a tie, so the answer is stable).
fn best(counts: &HashMap<String, (usize, usize)>, min: usize) -> Option<String> {
    counts
        .iter()
        .filter(|(_, (n, _))| *n >= min)
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
        .map(|(k, _)| k.clone())
}

fn bump(counts: &mut HashMap<String, (usize, usize)>, key: String, order: usize) {
    counts.entry(key).or_insert((0, order)).0 += 1;
}

/// The proposals for `manuscript`'s story (front matter left out).
pub fn propose(manuscript: &Manuscript) -> Proposals {
    let text = manuscript
        .chapters
        .iter()
        .flat_map(|c| &c.scenes)
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    let tokens = tokens(&text);
    let protagonist = protagonist(&tokens);
    let place = place(&tokens, &protagonist);
    Proposals {
        premise: opening_sentence(&text),
        protagonist,
        place,
    }
}

fn protagonist(tokens: &[Token<'_>]) -> String {
    let narrated_i = tokens.iter().filter(|t| t.word == "I" && !t.quoted).count();
    let narration = tokens.iter().filter(|t| !t.quoted).count().max(1);
    let mut subjects: HashMap<String, (usize, usize)> = HashMap::new();
    let mut addressed: HashMap<String, (usize, usize)> = HashMap::new();
    let mut pairs: HashMap<String, (usize, usize)> = HashMap::new();
    for (i, t) in tokens.iter().enumerate() {
        if !name_like(t.word) {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| &tokens[p]);
        let next = tokens.get(i + 1);
        let titled = prev.is_some_and(|p| TITLES.contains(&p.word));
        let said_before = prev.is_some_and(|p| SPEECH.contains(&p.word));
        let verb_after = next.is_some_and(|n| VERBS.contains(&n.word)) && !t.pause_after;
        if !t.quoted && (verb_after || said_before || (titled && !t.sentence_start)) {
            bump(&mut subjects, t.word.to_string(), i);
        }
        // Spoken to: `"Jim, …"`, `"… , Jim!"`.
        if t.quoted && t.pause_after && (t.sentence_start || prev.is_some_and(|p| p.pause_after)) {
            bump(&mut addressed, t.word.to_string(), i);
        }
        if let Some(p) = prev
            && name_like(p.word)
            && !p.pause_after
        {
            bump(&mut pairs, format!("{} {}", p.word, t.word), i);
        }
    }
    let first_person = narrated_i * 1000 >= narration * FIRST_PERSON_PER_THOUSAND;
    let name = if first_person {
        best(&addressed, 2)
    } else {
        best(&subjects, 2)
    };
    let Some(name) = name else {
        return if first_person {
            "The narrator".to_string()
        } else {
            String::new()
        };
    };
    // The full name when the book uses it: `Sherlock Holmes` rather than `Holmes`.
    let full = pairs
        .iter()
        .filter(|(pair, (n, _))| *n >= 2 && pair.split(' ').any(|w| w == name))
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
        .map(|(pair, _)| pair.clone());
    full.unwrap_or(name)
}

fn place(tokens: &[Token<'_>], protagonist: &str) -> String {
    let mut places: HashMap<String, (usize, usize)> = HashMap::new();
    for (i, t) in tokens.iter().enumerate() {
        if !PLACE_WORDS.contains(&t.word.to_lowercase().as_str()) || t.pause_after {
            continue;
        }
        let mut j = i + 1;
        let mut words: Vec<&str> = Vec::new();
        if tokens.get(j).is_some_and(|n| n.word == "the") {
            words.push("the");
            j += 1;
        }
        while let Some(n) = tokens.get(j)
            && words.len() < 4
            && (capitalised(n.word) && !NOT_NAMES.contains(&n.word) && !MONTHS.contains(&n.word)
                || (n.word == "of" && !words.is_empty() && words.last() != Some(&"the")))
        {
            words.push(n.word);
            j += 1;
            if n.pause_after {
                break;
            }
        }
        while words.last().is_some_and(|w| *w == "of") {
            words.pop();
        }
        let named: Vec<&&str> = words.iter().filter(|w| capitalised(w)).collect();
        let Some(first) = named.first() else {
            continue;
        };
        // A person is not a place: `to Dr. Livesey`, `at Jim`.
        if TITLES.contains(first)
            || protagonist
                .split(' ')
                .any(|p| named.iter().any(|w| **w == p))
        {
            continue;
        }
        bump(&mut places, words.join(" "), i);
    }
    best(&places, 1).unwrap_or_default()
}

/// The story's first sentence, at most about forty words: a premise to rewrite.
fn opening_sentence(text: &str) -> String {
    let first = text
        .split("\n\n")
        .find(|p| p.split_whitespace().count() > 3)
        .unwrap_or("");
    let mut out: Vec<&str> = Vec::new();
    for word in first.split_whitespace() {
        out.push(word);
        let end = word.trim_end_matches(['”', '"', '’', '\'', ')']);
        if end.ends_with(['.', '!', '?']) && !TITLES.iter().any(|t| end == format!("{t}.")) {
            break;
        }
        if out.len() >= 40 {
            out.push("…");
            break;
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::parse_text;

    #[test]
    fn a_third_person_book_proposes_its_most_active_name_and_place() {
        let text = "Mara Quill walked into Rainmarket at dusk. Mara looked at the harbour.\n\n\
                    \"Who goes?\" asked the watch. Mara said nothing. Tobin was asleep in \
                    Rainmarket. Mara Quill turned back to the Lantern House.\n\n\
                    In Rainmarket the bells rang. Mara went home.";
        let p = propose(&parse_text(text));
        assert_eq!(p.protagonist, "Mara Quill");
        assert_eq!(p.place, "Rainmarket");
        assert_eq!(p.premise, "Mara Quill walked into Rainmarket at dusk.");
    }

    #[test]
    fn a_first_person_narrator_is_named_as_others_call_them() {
        let text = "I came to the inn at night. I was cold and I was tired, and I sat by the \
                    fire in Bristol.\n\n“Jim, fetch the rum,” said the captain. I went.\n\n\
                    “Quick, Jim!” I ran. I knew the road to Bristol.";
        let p = propose(&parse_text(text));
        assert_eq!(p.protagonist, "Jim");
        assert_eq!(p.place, "Bristol");
        let alone = propose(&parse_text(
            "I woke. I was alone. I walked to the sea and I swam.",
        ));
        assert_eq!(alone.protagonist, "The narrator");
    }
}
