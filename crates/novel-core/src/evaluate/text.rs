//! The reading of a scene that every check shares: which parts are dialogue or italic
//! thought (masked out, so narration-only checks never fire on what a character says or
//! thinks in their own voice), where the sentences are, the words of each sentence's
//! narration, which known characters each sentence names, and short excerpts to quote back.
//!
//! The masked copy keeps the original's byte offsets (each masked byte becomes [`MASK`]), so a
//! position found in narration is also a position in the prose the writer produced.

use std::collections::{BTreeSet, HashMap};

use super::span::Span;
use crate::model::Character;

/// Stands in for every byte of dialogue or thought: neither a word nor whitespace, so no
/// pattern can join the words on either side of a quotation.
pub(super) const MASK: char = '\u{1F}';

/// Longest excerpt quoted back to the writer, in characters.
pub(super) const EXCERPT_MAX: usize = 120;

/// Words that precede a name without being one ("Captain Elena Voss" is "Elena" for short).
#[rustfmt::skip]
const HONORIFICS: &[&str] = &[
    "mr", "mrs", "ms", "miss", "mx", "dr", "doctor", "lady", "lord", "sir", "dame", "captain",
    "commander", "sister", "brother", "father", "mother", "master", "mistress", "king", "queen",
    "prince", "princess", "professor", "detective", "inspector", "sergeant", "lieutenant",
    "general", "colonel", "major", "old", "young", "the", "aunt", "uncle", "saint", "st",
];

/// Common nouns that make up descriptive names ("the Underground Man", "the Old Woman of the
/// Hill"): never a name on their own.
#[rustfmt::skip]
const COMMON_NAME_WORDS: &[&str] = &[
    "man", "woman", "men", "women", "boy", "girl", "child", "lady", "gentleman", "king",
    "queen", "prince", "princess", "stranger", "doctor", "captain", "narrator", "hill", "house",
    "of", "in", "on", "at", "with", "and", "one", "who", "from",
];

/// Words that never head a noun phrase or a verb: "the guard at the door" stops at "at".
#[rustfmt::skip]
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "up", "down", "out", "off", "over", "as", "that", "this", "it",
    "she", "he", "i", "we", "they", "you", "him", "them", "me", "us", "was", "were", "is",
    "are", "had", "has", "have", "not", "no", "so", "then", "than", "there", "what", "who",
    "which", "when", "if", "would", "could", "should", "will", "can", "must", "might",
    "through", "across", "behind", "under", "above", "below", "near", "beside", "between",
];

pub(super) fn is_function_word(word: &str) -> bool {
    FUNCTION_WORDS.contains(&word)
}

/// Words ending in a full stop that do not end a sentence.
#[rustfmt::skip]
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "mx", "dr", "st", "mt", "jr", "sr", "prof", "capt", "lt", "sgt", "gen",
    "col", "vs", "etc", "no",
];

pub(super) struct Prose<'a> {
    pub original: &'a str,
    pub masked: String,
    pub sentences: Vec<Sentence>,
}

pub(super) struct Sentence {
    /// Byte range in the prose, trimmed of surrounding whitespace.
    pub start: usize,
    pub end: usize,
    /// The narration words only; empty for a sentence that is all dialogue.
    pub tokens: Vec<Token>,
}

pub(super) struct Token {
    pub start: usize,
    pub end: usize,
    /// Lowercase, with typographic apostrophes made straight.
    pub lower: String,
    /// Nothing but whitespace separates this word from the previous one.
    pub plain_gap: bool,
    /// Dialogue or thought lies between this word and the previous one.
    pub barrier: bool,
}

impl<'a> Prose<'a> {
    pub fn new(original: &'a str) -> Prose<'a> {
        let masked = mask_dialogue(original);
        let sentences = split_sentences(original, &masked)
            .into_iter()
            .map(|(start, end)| Sentence {
                start,
                end,
                tokens: tokenize(&masked, start, end),
            })
            .collect();
        Prose {
            original,
            masked,
            sentences,
        }
    }

    /// The sentence with dialogue masked out.
    pub fn narration(&self, s: &Sentence) -> &str {
        &self.masked[s.start..s.end]
    }

    /// A word as written (case kept, apostrophes as typed).
    pub fn word(&self, t: &Token) -> &str {
        &self.original[t.start..t.end]
    }

    /// Sentences that contain at least one word of narration.
    pub fn narration_sentences(&self) -> impl Iterator<Item = &Sentence> {
        self.sentences.iter().filter(|s| !s.tokens.is_empty())
    }

    /// The sentence holding the byte offset `at`.
    pub fn sentence_at(&self, at: usize) -> Option<&Sentence> {
        self.sentences.iter().find(|s| s.start <= at && at < s.end)
    }

    /// The byte range `from..to` as character offsets.
    pub fn span(&self, from: usize, to: usize) -> Span {
        let chars = |b: usize| {
            let b = b.min(self.original.len());
            u32::try_from(self.original[..b].chars().count()).unwrap_or(u32::MAX)
        };
        let start = chars(from);
        Span {
            start,
            end: chars(to.max(from)),
        }
    }

    /// The sentence around `focus` (a byte offset inside it), cut to [`EXCERPT_MAX`]
    /// characters around the focus when it is longer.
    pub fn excerpt(&self, s: &Sentence, focus: usize) -> String {
        excerpt_of(
            &self.original[s.start..s.end],
            focus.saturating_sub(s.start),
        )
    }
}

/// `text` cut to [`EXCERPT_MAX`] characters around the byte offset `focus`, with an ellipsis
/// where it was cut.
pub(super) fn excerpt_of(text: &str, focus: usize) -> String {
    let text = text.trim();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= EXCERPT_MAX {
        return text.to_string();
    }
    let focus_char = text.char_indices().take_while(|(i, _)| *i < focus).count();
    let budget = EXCERPT_MAX - 2;
    let mut begin = focus_char.saturating_sub(30).min(chars.len() - budget);
    let mut end = (begin + budget).min(chars.len());
    // Cut at spaces, not inside words, when one is near.
    if begin > 0
        && let Some(space) = chars[begin..focus_char.max(begin)]
            .iter()
            .take(20)
            .position(|c| c.is_whitespace())
    {
        begin += space + 1;
    }
    if end < chars.len()
        && let Some(space) = chars[begin..end]
            .iter()
            .rev()
            .take(20)
            .position(|c| c.is_whitespace())
    {
        end -= space + 1;
    }
    let mut out = String::new();
    if begin > 0 {
        out.push('…');
    }
    out.extend(&chars[begin..end]);
    if end < chars.len() {
        out.push('…');
    }
    out
}

pub(super) fn normalise(word: &str) -> String {
    word.to_lowercase().replace('’', "'")
}

#[derive(Clone, Copy, PartialEq)]
enum Open {
    Nothing,
    Straight,
    Curly,
    Single,
    Emphasis(char),
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(char::is_alphanumeric)
}

/// Masks dialogue and italics line by line: a quotation left open at the end of a paragraph
/// closes there (the next paragraph of a long speech reopens it).
fn mask_dialogue(original: &str) -> String {
    let mut out = String::with_capacity(original.len());
    for line in original.split_inclusive('\n') {
        mask_line(line, &mut out);
    }
    out
}

/// A line of nothing but `* * *`, `***`, `---` and the like separates scenes: its asterisks
/// open no italics.
fn is_scene_break(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.chars().all(|c| {
            c.is_whitespace() || matches!(c, '*' | '-' | '_' | '~' | '=' | '#' | '•' | '·')
        })
}

fn run_end(chars: &[char], from: usize) -> usize {
    let mut end = from;
    while end < chars.len() && chars[end] == chars[from] {
        end += 1;
    }
    end
}

fn mask_line(line: &str, out: &mut String) {
    if is_scene_break(line) {
        out.push_str(line);
        return;
    }
    let chars: Vec<char> = line.chars().collect();
    let mut masked = vec![false; chars.len()];
    let mut open = Open::Nothing;
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        // A paragraph that opens inside a speech begun in the paragraph before ("…nothing
        // else." Wilson started up): its first quotation mark closes, so what comes before
        // it is speech.
        let closes_first = !quoted
            && open == Open::Nothing
            && prev.is_some_and(|p| !p.is_whitespace())
            && (c == '”'
                || (c == '"'
                    && next
                        .is_none_or(|n| n.is_whitespace() || matches!(n, ',' | ';' | ')' | '—'))));
        if matches!(c, '“' | '”' | '"') {
            quoted = true;
        }
        if closes_first {
            masked[..=i].fill(true);
            i += 1;
            continue;
        }
        match open {
            Open::Nothing => match c {
                '“' => open = Open::Curly,
                '"' => open = Open::Straight,
                '‘' if !is_word(prev) => open = Open::Single,
                '*' | '_' => {
                    let end = run_end(&chars, i);
                    let after = chars.get(end).copied();
                    // `*word*` and `_word_` open italics; `snake_case` and a lone `*` do not.
                    if after.is_some_and(|a| !a.is_whitespace()) && (c == '*' || !is_word(prev)) {
                        open = Open::Emphasis(c);
                        masked[i..end].fill(true);
                    }
                    i = end;
                    continue;
                }
                _ => {}
            },
            Open::Curly if c == '”' => open = Open::Nothing,
            Open::Straight if c == '"' => open = Open::Nothing,
            // An apostrophe inside a word ("don’t") does not close a single quotation.
            Open::Single if c == '’' && !is_word(next) => open = Open::Nothing,
            Open::Emphasis(mark) if c == mark => {
                let end = run_end(&chars, i);
                let after = chars.get(end).copied();
                masked[i..end].fill(true);
                if prev.is_some_and(|p| !p.is_whitespace()) && (mark == '*' || !is_word(after)) {
                    open = Open::Nothing;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        if open != Open::Nothing || matches!(c, '”' | '"' | '’') && masked_before(&masked, i) {
            masked[i] = true;
        }
        i += 1;
    }
    for (c, m) in chars.iter().zip(masked) {
        if m && *c != '\n' && *c != '\r' {
            out.extend(std::iter::repeat_n(MASK, c.len_utf8()));
        } else {
            out.push(*c);
        }
    }
}

/// A closing quotation mark belongs to the quotation it closes.
fn masked_before(masked: &[bool], i: usize) -> bool {
    i > 0 && masked[i - 1]
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…')
}

fn is_closing_mark(c: char) -> bool {
    matches!(c, '”' | '"' | '’' | '*' | '_')
}

fn is_abbreviation(original: &str, start: usize, dot: usize) -> bool {
    let before = &original[start..dot];
    let word: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let single_initial = word.chars().count() == 1 && word.chars().all(char::is_uppercase);
    single_initial || ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

/// Sentence ranges: a line break ends one, so does a terminator in narration followed by a
/// space, and so does a quotation ending in a terminator when the next word starts a new
/// sentence (“Stop.” Bram turned.) — but not before a lowercase tag (“Stop!” she said.).
fn split_sentences(original: &str, masked: &str) -> Vec<(usize, usize)> {
    let bytes = masked.as_bytes();
    let is_masked = |i: usize| bytes[i] == MASK as u8;
    let chars: Vec<(usize, char)> = original.char_indices().collect();
    let mut out = Vec::new();
    let mut push = |from: usize, to: usize| {
        let piece = &original[from..to];
        let lead = piece.len() - piece.trim_start().len();
        let trail = piece.len() - piece.trim_end().len();
        if lead + trail < piece.len() {
            out.push((from + lead, to - trail));
        }
    };
    let byte_at = |k: usize| chars.get(k).map_or(original.len(), |x| x.0);
    let mut start = 0;
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        if c == '\n' {
            push(start, i);
            start = i + 1;
            k += 1;
            continue;
        }
        if !is_masked(i) && is_terminator(c) {
            let mut e = k + 1;
            while e < chars.len()
                && !is_masked(chars[e].0)
                && (is_terminator(chars[e].1) || chars[e].1 == ')')
            {
                e += 1;
            }
            let spaced = chars.get(e).is_none_or(|x| x.1.is_whitespace());
            if spaced && !(c == '.' && is_abbreviation(original, start, i)) {
                push(start, byte_at(e));
                start = byte_at(e);
            }
            k = e;
            continue;
        }
        let span_ends = is_masked(i) && chars.get(k + 1).is_none_or(|x| !is_masked(x.0));
        if span_ends {
            let mut j = k;
            while j > 0 && is_closing_mark(chars[j].1) && is_masked(chars[j - 1].0) {
                j -= 1;
            }
            if j < k && is_terminator(chars[j].1) {
                let mut e = k + 1;
                while e < chars.len() && matches!(chars[e].1, ' ' | '\t') {
                    e += 1;
                }
                let starts_new = chars
                    .get(e)
                    .is_some_and(|x| x.1.is_uppercase() || is_masked(x.0));
                if e > k + 1 && starts_new {
                    push(start, byte_at(k + 1));
                    start = byte_at(k + 1);
                }
            }
        }
        k += 1;
    }
    push(start, original.len());
    out
}

fn tokenize(masked: &str, start: usize, end: usize) -> Vec<Token> {
    let slice = &masked[start..end];
    let chars: Vec<(usize, char)> = slice.char_indices().collect();
    let mut tokens = Vec::new();
    let mut gap_start = 0;
    let mut k = 0;
    while k < chars.len() {
        if !chars[k].1.is_alphanumeric() {
            k += 1;
            continue;
        }
        let word_start = chars[k].0;
        let mut e = k + 1;
        while e < chars.len() {
            let c = chars[e].1;
            let joins = matches!(c, '\'' | '’' | '-')
                && chars.get(e + 1).is_some_and(|n| n.1.is_alphanumeric());
            if c.is_alphanumeric() || joins {
                e += 1;
            } else {
                break;
            }
        }
        let word_end = chars.get(e).map_or(slice.len(), |x| x.0);
        let gap = &slice[gap_start..word_start];
        tokens.push(Token {
            start: start + word_start,
            end: start + word_end,
            lower: normalise(&slice[word_start..word_end]),
            plain_gap: gap.chars().all(char::is_whitespace),
            barrier: gap.contains(MASK),
        });
        gap_start = word_end;
        k = e;
    }
    tokens
}

/// The words of a name as written, without surrounding punctuation.
pub(super) fn name_words(name: &str) -> Vec<String> {
    name.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .replace('’', "'")
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Every way the prose may name a character: full name, aliases, and — for names of two or
/// more words — the first and last names without honorifics.
pub(super) fn name_variants(c: &Character) -> Vec<Vec<String>> {
    let full = name_words(&c.name);
    let mut out = vec![full.clone()];
    out.extend(c.aliases.iter().map(|a| name_words(a)));
    if full.len() >= 2 {
        let core: Vec<&String> = full
            .iter()
            .filter(|w| !HONORIFICS.contains(&w.to_lowercase().as_str()))
            .collect();
        // "the Underground Man" is not "Man": a derived one-word name that is a common noun
        // would name the character wherever the noun is used.
        let proper = |w: &&&String| !COMMON_NAME_WORDS.contains(&w.to_lowercase().as_str());
        if let Some(first) = core.first().filter(proper) {
            out.push(vec![(*first).clone()]);
        }
        if core.len() >= 2
            && let Some(last) = core.last().filter(proper)
        {
            out.push(vec![(*last).clone()]);
        }
    }
    // An honorific alone is a name only where the record gives it as an alias ("Doctor" for
    // the doctor everyone calls that), never derived from a longer name.
    let written = given_names(c);
    out.retain(|v| {
        !v.is_empty()
            && !(v.len() == 1
                && (v[0].chars().count() < 2
                    || (HONORIFICS.contains(&v[0].to_lowercase().as_str()) && !written.contains(v))))
    });
    out
}

/// The names a character's record gives as written: the full name and the aliases.
fn given_names(c: &Character) -> Vec<Vec<String>> {
    std::iter::once(&c.name)
        .chain(&c.aliases)
        .map(|n| name_words(n))
        .collect()
}

/// A character named in a sentence: token range (inclusive) and whether the last word is a
/// possessive ("Bram's").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NameHit {
    pub first: usize,
    pub last: usize,
    pub who: usize,
    pub possessive: bool,
}

/// The names of the known characters; a variant two characters share ("Hale" for two
/// siblings) names neither, rather than guessing — unless only one of them has it as their
/// name or an alias.
pub(super) struct NameIndex {
    variants: Vec<(Vec<String>, usize)>,
    /// The variants (their positions in `variants`, longest first) by their first word: a
    /// sentence is scanned once, trying at each word only the names that can start there,
    /// so the cost does not grow with the cast.
    by_first: HashMap<String, Vec<usize>>,
}

impl NameIndex {
    pub fn new(people: &[&Character]) -> NameIndex {
        let mut owners: HashMap<Vec<String>, BTreeSet<usize>> = HashMap::new();
        // Who wrote a variant as their name or an alias, rather than having it derived from a
        // longer name: "Bucket", the detective's alias, is his even though "Mrs. Bucket" ends
        // in it.
        let mut given: HashMap<Vec<String>, BTreeSet<usize>> = HashMap::new();
        for (who, c) in people.iter().enumerate() {
            let written = given_names(c);
            for v in name_variants(c) {
                if written.contains(&v) {
                    given.entry(v.clone()).or_default().insert(who);
                }
                owners.entry(v).or_default().insert(who);
            }
        }
        let mut variants: Vec<(Vec<String>, usize)> = owners
            .into_iter()
            .filter_map(|(v, who)| {
                let owner = if who.len() == 1 {
                    who.first().copied()
                } else {
                    given
                        .get(&v)
                        .filter(|g| g.len() == 1)
                        .and_then(|g| g.first().copied())
                };
                owner.map(|w| (v, w))
            })
            .collect();
        // Longest first, so "Bram Hale" wins over "Bram"; then by text for a stable order.
        variants.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        let mut by_first: HashMap<String, Vec<usize>> = HashMap::new();
        for (at, (words, _)) in variants.iter().enumerate() {
            if let Some(first) = words.first() {
                by_first.entry(first.clone()).or_default().push(at);
            }
        }
        NameIndex { variants, by_first }
    }

    /// The variants that could start at a word written as `written`, in priority order: those
    /// whose first word is the word as written, lowercased (a name's lowercase word opening a
    /// sentence), or either without a possessive `'s` (a one-word name).
    fn starting_with(&self, written: &str) -> Vec<usize> {
        let written = written.replace('’', "'");
        let lower = written.to_lowercase();
        let mut keys = vec![written.as_str(), lower.as_str()];
        keys.extend(written.strip_suffix("'s"));
        keys.extend(lower.strip_suffix("'s"));
        let mut found: Vec<usize> = keys
            .into_iter()
            .filter_map(|k| self.by_first.get(k))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Every name in the sentence's narration, left to right, not overlapping.
    pub fn hits(&self, prose: &Prose<'_>, s: &Sentence) -> Vec<NameHit> {
        let mut out = Vec::new();
        let mut i = 0;
        'scan: while i < s.tokens.len() {
            for at in self.starting_with(prose.word(&s.tokens[i])) {
                let (words, who) = &self.variants[at];
                if let Some((last, possessive)) = match_words(prose, &s.tokens, i, words) {
                    out.push(NameHit {
                        first: i,
                        last,
                        who: *who,
                        possessive,
                    });
                    i = last + 1;
                    continue 'scan;
                }
            }
            i += 1;
        }
        out
    }
}

/// Whether `words` (case-sensitive) are written at token `i`; returns the last token and
/// whether it carries a possessive `'s`.
pub(super) fn match_words(
    prose: &Prose<'_>,
    tokens: &[Token],
    i: usize,
    words: &[String],
) -> Option<(usize, bool)> {
    let mut possessive = false;
    for (j, w) in words.iter().enumerate() {
        let t = tokens.get(i + j)?;
        // "Mrs. Bucket": an abbreviation's full stop may stand between the words of a name.
        let abbreviated = j > 0 && {
            let before = &prose.original[tokens[i + j - 1].end..t.start];
            before.trim_end() == "."
                && ABBREVIATIONS.contains(&words[j - 1].to_lowercase().as_str())
        };
        if j > 0 && !t.plain_gap && !abbreviated {
            return None;
        }
        let mut written = prose.word(t).replace('’', "'");
        // A lowercase word of a name ("the Harbourmistress", "van") may open a sentence.
        if w.starts_with(char::is_lowercase) {
            written = written.to_lowercase();
        }
        if written == *w {
            continue;
        }
        let is_last = j + 1 == words.len();
        if is_last && written.strip_suffix("'s") == Some(w.as_str()) {
            possessive = true;
            continue;
        }
        return None;
    }
    Some((i + words.len() - 1, possessive))
}

/// The verb after a subject whose last word is token `subject_last`: the next word, past up to
/// two adverbs ("she slowly turns"), all joined by plain whitespace. Auxiliaries such as "had"
/// or "would" come back as the verb, so a caller sees the framing and does not match.
pub(super) fn verb_after(tokens: &[Token], subject_last: usize) -> Option<usize> {
    for i in subject_last + 1..subject_last + 4 {
        let t = tokens.get(i)?;
        if !t.plain_gap {
            return None;
        }
        if !super::lexicon::is_between(&t.lower) {
            return Some(i);
        }
    }
    None
}

/// Token `i` follows a clause boundary: a comma, semicolon, colon, dash or a conjunction.
pub(super) fn opens_after(prose: &Prose<'_>, s: &Sentence, i: usize) -> bool {
    if i == 0 || s.tokens[i].barrier {
        return true;
    }
    let prev = &s.tokens[i - 1];
    matches!(
        prev.lower.as_str(),
        "and"
            | "but"
            | "then"
            | "when"
            | "while"
            | "as"
            | "because"
            | "so"
            | "until"
            | "before"
            | "after"
            | "where"
            | "though"
            | "although"
            | "once"
            | "since"
            | "now"
            | "if"
            | "that"
    ) || prose.original[prev.end..s.tokens[i].start].contains([',', ';', ':', '—', '–'])
}
