//! Style warnings that never force a revision: stock phrasing that marks prose as machine-written
//! ("a testament to", "shivers down her spine"), and phrases the scene repeats from the scenes
//! just before it. The stock list is also what the writer prompt is told to avoid
//! ([`stock_phrases`]).

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::finding::{Check, Finding, MAX_PER_CHECK, Severity};
use super::text::{Prose, excerpt_of};

struct Stock {
    /// How the phrase is named to the writer.
    phrase: &'static str,
    pattern: Regex,
}

fn stock(phrase: &'static str, pattern: &str) -> Stock {
    Stock {
        phrase,
        // Constant patterns, compiled by the tests: a bad one is a programming error.
        pattern: super::pattern::compile(&format!("(?i){pattern}")).expect("constant stock-phrase pattern"),
    }
}

const PERSON: &str = "(?:her|his|my|their|your|one's)";
const OBJECT: &str = "(?:her|him|me|them|us|you)";

static STOCK: LazyLock<Vec<Stock>> = LazyLock::new(|| {
    vec![
        stock("a testament to", r"\ba (?:true |living )?testament to\b"),
        stock(
            "shivers down her spine",
            &format!(
                r"\bshivers?\s+(?:\w+\s+){{0,2}}(?:up\s+and\s+)?down\s+(?:{PERSON}|the)\s+spine"
            ),
        ),
        stock(
            "the weight of the world (and other abstract weights)",
            r"\bthe (?:full |crushing |sheer )?weight of (?:the world|it all|(?:his|her|their|my|your) (?:words|gaze|stare|decision|choices?|past|grief|guilt)|the (?:moment|silence|truth|decision|past|words)|what|everything|years|history|expectations?|responsibility|grief|guilt|memory|memories|regret)\b",
        ),
        stock(
            "palpable tension",
            r"\b(?:palpable|thick|crackling) tension\b|\btension (?:was|hung|grew) (?:palpable|thick)\b",
        ),
        stock(
            "little did she know",
            r"\blittle did (?:she|he|they|i|we) know\b",
        ),
        stock(
            "the air was thick with",
            r"\bthe air (?:was|hung|grew|felt) (?:thick|heavy) with\b",
        ),
        stock(
            "a tapestry of",
            r"\b(?:a|the) (?:rich |intricate |vibrant |complex )?tapestry of\b",
        ),
        stock("a symphony of", r"\ba (?:\w+ )?symphony of\b"),
        stock(
            "a dance of",
            r"\ba (?:delicate |intricate |careful )?dance of\b",
        ),
        stock(
            "the breath she didn't know she was holding",
            r"\bbreath (?:she|he|i|they) (?:didn't|did not|hadn't|had not) (?:know|realize|realise) (?:she|he|i|they) (?:was|were|had been) holding\b",
        ),
        stock("barely above a whisper", r"\bbarely above a whisper\b"),
        stock(
            "a mix of fear and determination",
            r"\ba (?:mix|mixture|blend) of (?:fear|determination|anger|sadness|hope|relief|excitement|anticipation|dread|awe|curiosity|confusion|concern|resignation|amusement|nervousness|anxiety|guilt)\b",
        ),
        stock("couldn't help but", r"\bcould(?:n't|n’t| not) help but\b"),
        stock(
            "every fiber of her being",
            &format!(r"\bevery (?:fiber|fibre) of {PERSON} being\b"),
        ),
        stock(
            "hung in the air",
            r"\b(?:hung|hanging|hangs|lingered|lingering|lingers) (?:heavy |heavily |thick )?in the air\b",
        ),
        stock(
            "a wave of relief washed over her",
            &format!(r"\b(?:washed|washes|washing|crashed|swept) over {OBJECT}\b"),
        ),
        stock(
            "time stood still",
            r"\btime (?:seemed to |itself )?(?:stood|stand|stands|standing) still\b",
        ),
        stock("only time will tell", r"\bonly time (?:will|would) tell\b"),
        stock("the calm before the storm", r"\bcalm before the storm\b"),
        stock(
            "in the grand scheme of things",
            r"\bgrand scheme of things\b",
        ),
        stock(
            "steeled herself",
            r"\bsteel(?:ed|s|ing) (?:herself|himself|myself|themselves|ourselves|yourself)\b",
        ),
        stock(
            "a flicker of hope",
            r"\ba (?:flicker|glimmer|spark) of (?:hope|fear|doubt|recognition|understanding|amusement|emotion|something)\b",
        ),
        stock(
            "deafening silence",
            r"\bdeafening silence\b|\bsilence was deafening\b",
        ),
        stock(
            "an unspoken understanding",
            r"\bunspoken (?:understanding|promise|agreement|bond|question|tension)\b",
        ),
        stock("delved into", r"\bdelv(?:e|ed|es|ing) (?:into|deeper)\b"),
        stock(
            "the complexities of",
            r"\b(?:navigate|navigating|navigated) the (?:complexities|intricacies)\b|\bthe (?:complexities|intricacies) of\b",
        ),
        stock(
            "a newfound sense of",
            r"\bnewfound (?:sense|determination|resolve|confidence|strength|respect|hope)\b",
        ),
        stock(
            "with renewed determination",
            r"\brenewed (?:determination|vigou?r|resolve|sense of purpose)\b",
        ),
        stock(
            "determination etched on her face",
            &format!(r"\betched (?:on|across|into|upon) {PERSON} (?:face|features|brow)\b"),
        ),
        stock(
            "a sense of foreboding",
            r"\ba (?:growing |deep |sudden )?sense of (?:foreboding|unease|dread|purpose|belonging)\b",
        ),
        stock(
            "her heart pounded in her chest",
            &format!(
                r"\b(?:heart|pulse) (?:pounded|pounding|hammered|hammering|raced|racing) in {PERSON} (?:chest|ears)\b"
            ),
        ),
        stock(
            "a stark reminder",
            r"\ba (?:stark|grim|painful|bitter|sobering) reminder\b",
        ),
        stock(
            "eyes sparkling with mischief",
            r"\b(?:sparkl|twinkl|gleam)(?:ed|ing) with mischief\b",
        ),
    ]
});

/// The stock phrases the writer should avoid, as they are shown to it.
pub fn stock_phrases() -> Vec<&'static str> {
    STOCK.iter().map(|s| s.phrase).collect()
}

/// How many stock phrases `prose` uses (every occurrence counts): the book audit's slop rate.
pub fn stock_phrase_count(prose: &str) -> usize {
    STOCK
        .iter()
        .map(|s| s.pattern.find_iter(prose).count())
        .sum()
}

pub(super) fn stock_phrasing(ctx: &Ctx<'_>) -> Vec<Finding> {
    let narration = &ctx.prose.masked;
    let mut out = Vec::new();
    for s in STOCK.iter() {
        let Some(m) = s.pattern.find(narration) else {
            continue;
        };
        let Some(sentence) = ctx.prose.sentence_at(m.start()) else {
            continue;
        };
        let words = &ctx.prose.original[m.start()..m.end()];
        let excerpt = ctx.prose.excerpt(sentence, m.start());
        out.push(
            Finding::new(
                Check::StockPhrase,
                Severity::Warning,
                format!(
                    "“{words}” is stock phrasing (like “{}”) that readers notice as \
                     machine-written. In: “{excerpt}”. Say it in this story's own concrete \
                     terms, or cut it.",
                    s.phrase
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, sentence, m.start(), m.end()),
        );
    }
    out
}

/// Shortest run of words shared with a recent scene that counts as repetition.
const REPEAT_WORDS: usize = 5;
/// Shared runs need this many words that are not function words: "went up to the top of the"
/// is not repetition, "the salt wind came off the cliffs" is.
const REPEAT_CONTENT_WORDS: usize = 3;

#[rustfmt::skip]
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "up", "down", "out", "off", "over", "as", "that", "this", "it",
    "its", "she", "he", "her", "him", "his", "i", "me", "my", "we", "us", "our", "they", "them",
    "their", "you", "your", "was", "were", "is", "are", "be", "been", "had", "has", "have",
    "did", "do", "not", "no", "so", "then", "than", "there", "what", "who", "which", "when",
    "if", "would", "could", "should", "will", "can", "just", "all", "one", "back", "again",
    "said", "s", "t", "d", "ll",
];

struct Word {
    lower: String,
    start: usize,
    end: usize,
    /// A sentence boundary lies between this word and the previous one.
    breaks: bool,
}

fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut breaks = true;
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let in_word = c.is_alphanumeric() || (start.is_some() && matches!(c, '\'' | '’'));
        match (start, in_word) {
            (None, true) => start = Some(i),
            (Some(from), false) => {
                out.push(Word {
                    lower: text[from..i].to_lowercase().replace('’', "'"),
                    start: from,
                    end: i,
                    breaks,
                });
                breaks = false;
                start = None;
            }
            _ => {}
        }
        if start.is_none()
            && matches!(
                c,
                '.' | '!' | '?' | '…' | '\n' | '“' | '”' | '"' | super::text::MASK
            )
        {
            breaks = true;
        }
    }
    out
}

/// The runs of [`REPEAT_WORDS`] or more words `prose` shares with any of `recent` (the last
/// scenes' prose), as warnings: the writer is told to say it differently. Narration only: a
/// character's turn of phrase ("not to put too fine a point upon it") is theirs to repeat;
/// and names are not content ("Aunt Kate, Aunt Julia and Mary Jane" is the same three people,
/// not a repeated phrase).
pub fn repetition(prose: &str, recent: &[String]) -> Vec<Finding> {
    let mut seen: HashSet<Vec<&str>> = HashSet::new();
    let recent_narration: Vec<String> = recent.iter().map(|r| Prose::new(r).masked).collect();
    let recent_words: Vec<Vec<Word>> = recent_narration.iter().map(|r| words(r)).collect();
    for ws in &recent_words {
        for window in ws.windows(REPEAT_WORDS) {
            if window[1..].iter().all(|w| !w.breaks) {
                seen.insert(window.iter().map(|w| w.lower.as_str()).collect());
            }
        }
    }
    if seen.is_empty() {
        return Vec::new();
    }
    let parsed = Prose::new(prose);
    let own = words(&parsed.masked);
    let shared = |i: usize| {
        let window = &own[i..i + REPEAT_WORDS];
        window[1..].iter().all(|w| !w.breaks)
            && seen.contains(&window.iter().map(|w| w.lower.as_str()).collect::<Vec<_>>())
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i + REPEAT_WORDS <= own.len() && out.len() < MAX_PER_CHECK {
        if !shared(i) {
            i += 1;
            continue;
        }
        let mut last = i + REPEAT_WORDS - 1;
        while last + 1 < own.len() && !own[last + 1].breaks && shared(last + 2 - REPEAT_WORDS) {
            last += 1;
        }
        let run = &own[i..=last];
        let content = run
            .iter()
            .filter(|w| {
                !FUNCTION_WORDS.contains(&w.lower.as_str())
                    && !prose[w.start..w.end].starts_with(char::is_uppercase)
            })
            .count();
        if content >= REPEAT_CONTENT_WORDS {
            let (from, to) = (run[0].start, run[run.len() - 1].end);
            let phrase = &prose[from..to];
            let mut f = Finding::new(
                Check::Repetition,
                Severity::Warning,
                format!(
                    "“{phrase}” repeats words from a recent scene. Say it differently, or \
                     leave it out if the reader already has it."
                ),
                Some(excerpt_of(phrase, 0)),
            );
            if let Some(s) = parsed.sentence_at(from) {
                f = f.at(&parsed, s, from, to);
            }
            out.push(f);
        }
        i = last + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stock_phrase_is_caught_by_its_own_pattern() {
        let phrases = stock_phrases();
        assert!(phrases.len() >= 25, "{phrases:?}");
        for s in STOCK.iter() {
            let shown = s.phrase.split(" (").next().unwrap_or(s.phrase);
            assert!(
                s.pattern.is_match(shown),
                "{:?} misses its own phrase",
                s.phrase
            );
        }
    }

    #[test]
    fn scenes_sharing_a_run_of_words_repeat_and_common_words_do_not() {
        let recent = vec![
            "The salt wind came off the cliffs like a blade. She went up to the lamp.".to_string(),
        ];
        let prose = "At dusk the salt wind came off the cliffs like a blade again.";
        let found = repetition(prose, &recent);
        assert_eq!(found.len(), 1, "{found:#?}");
        let f = &found[0];
        assert_eq!(f.check, Check::Repetition);
        assert_eq!(f.severity, Severity::Warning);
        assert!(
            f.message
                .contains("the salt wind came off the cliffs like a blade"),
            "{}",
            f.message
        );
        let span = f.span.unwrap();
        let words: String = prose
            .chars()
            .skip(span.start as usize)
            .take((span.end - span.start) as usize)
            .collect();
        assert_eq!(words, "the salt wind came off the cliffs like a blade");

        // Function words only, a run broken by a sentence end, and no recent scenes.
        let common = vec!["She went up to the top of the stair and out.".to_string()];
        assert!(repetition("He went up to the top of the hill.", &common).is_empty());
        let split = vec!["The cold wind rose. Old lamps smoked badly.".to_string()];
        assert!(repetition("The cold wind rose old lamps smoked.", &split).is_empty());
        assert!(repetition(prose, &[]).is_empty());
    }
}
