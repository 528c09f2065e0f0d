//! Scene titles: a title must be words. A model's title can come back as punctuation (","),
//! empty quotes, a label ("Title:", "Scene 3", "Untitled") or markup; [`clean_title`] recovers
//! the words when there are some ("Title: The Drowned Bell" → "The Drowned Bell") and says
//! `None` when there are none, so the caller can fall back to a title of its own.

use super::finding::{Check, Finding, Severity};

/// Words that name the slot for a title instead of filling it.
#[rustfmt::skip]
const PLACEHOLDERS: &[&str] = &[
    "title", "untitled", "no title", "scene title", "chapter title", "scene", "chapter", "part",
    "tbd", "tba", "n/a", "na", "none", "null", "nil", "placeholder", "your title", "title here",
    "insert title", "new scene", "next scene",
];

/// Words that label a title ("Title: …", "Scene 3: …", "Chapter Two – …").
const LABELS: &[&str] = &["title", "scene", "chapter", "part", "episode", "tick"];

#[rustfmt::skip]
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "twenty",
];

/// Longer than this is a sentence, not a title.
const MAX_WORDS: usize = 15;

const QUOTES: &[char] = &['"', '\'', '“', '”', '‘', '’', '«', '»', '`'];

/// Whether `title` can be shown as it is: words, not punctuation, a label or markup.
/// Surrounding quotation marks are allowed.
pub fn title_is_words(title: &str) -> bool {
    let bare = title.trim().trim_matches(QUOTES).trim();
    clean_title(title).is_some_and(|clean| clean == bare)
}

/// The words of a title, without markup, surrounding quotes and labels; `None` when nothing
/// that reads as a title is left.
pub fn clean_title(raw: &str) -> Option<String> {
    let mut t = without_bracketed_ids(raw)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    loop {
        let before = t.clone();
        t = t
            .trim_start_matches('#')
            .trim_matches(|c: char| c.is_whitespace() || QUOTES.contains(&c))
            .trim_matches(|c: char| {
                matches!(c, '*' | '_' | '~' | '[' | ']' | '(' | ')' | '<' | '>')
            })
            .to_string();
        t = strip_label(&t).to_string();
        if t == before {
            break;
        }
    }
    let t = t.trim_end_matches([':', ',', ';', '-', '–', '—']).trim();
    reads_as_title(t).then(|| t.to_string())
}

/// The title without the engine's ids a model echoed from its prompt in brackets: "Tamsin Vale
/// (C0) The Realm" → "Tamsin Vale  The Realm". An id means nothing to a reader.
fn without_bracketed_ids(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(open) = rest.find(['(', '[']) {
        let close = if rest[open..].starts_with('(') {
            ')'
        } else {
            ']'
        };
        let inner_end = rest[open + 1..].find(close).map(|i| open + 1 + i);
        match inner_end {
            Some(end) if crate::ids::looks_like_id(rest[open + 1..end].trim()) => {
                out.push_str(&rest[..open]);
                rest = &rest[end + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// "Title: X" → "X"; "Scene 3: X" → "X"; "Chapter Two" → "" (a label and nothing else).
fn strip_label(t: &str) -> &str {
    let lower = t.to_lowercase();
    for label in LABELS {
        let Some(rest) = lower.strip_prefix(label) else {
            continue;
        };
        // A whole word: "Scenes from a Harbour" is a title.
        if rest.starts_with(char::is_alphanumeric) {
            continue;
        }
        let mut cut = label.len();
        let after = rest.trim_start();
        let number = after
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default();
        let is_number = !number.is_empty()
            && (number.chars().all(|c| c.is_ascii_digit())
                || NUMBER_WORDS.contains(&number)
                || number.chars().all(|c| "ivxlc".contains(c)));
        let mut tail = after;
        if is_number {
            tail = &after[number.len()..];
        }
        let tail_trimmed = tail.trim_start();
        let separated = tail_trimmed.starts_with([':', '-', '–', '—', '.', '|']);
        if is_number || separated || tail_trimmed.is_empty() {
            cut += rest.len() - tail_trimmed.len();
            let rest_of_t = &t[cut.min(t.len())..];
            return rest_of_t.trim_start_matches([':', '-', '–', '—', '.', '|', ' ']);
        }
    }
    t
}

fn reads_as_title(t: &str) -> bool {
    if t.is_empty() || PLACEHOLDERS.contains(&t.to_lowercase().as_str()) {
        return false;
    }
    if t.contains(['<', '>', '{', '}', '#', '*', '|', '\\']) {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    let visible = t.chars().filter(|c| !c.is_whitespace()).count();
    let has_word = words
        .iter()
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2);
    has_word && words.len() <= MAX_WORDS && letters * 2 >= visible
}

/// A finding for a title that is not words, for a caller that records one.
pub fn check_title(title: &str) -> Option<Finding> {
    if title_is_words(title) {
        return None;
    }
    let suggestion = clean_title(title)
        .map(|t| format!(" Use “{t}”."))
        .unwrap_or_default();
    Some(Finding::new(
        Check::Title,
        Severity::Warning,
        format!(
            "The scene's title “{}” is not a title: a title is a few words that name the \
             scene, without labels, numbers alone or markup.{suggestion}",
            title.trim()
        ),
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_that_are_not_words_are_refused_and_their_words_recovered() {
        for bad in [
            ",",
            "",
            "  ",
            "\"\"",
            "“”",
            "...",
            "#",
            "**",
            "Title:",
            "Scene 3",
            "Chapter 12",
            "Chapter Two",
            "Untitled",
            "[Title]",
            "N/A",
            "12",
            "<title>",
            "Scene Title",
            "-",
        ] {
            assert!(!title_is_words(bad), "{bad:?}");
            assert_eq!(clean_title(bad), None, "{bad:?}");
        }
        for (raw, clean) in [
            ("Title: The Drowned Bell", "The Drowned Bell"),
            ("# Salt", "Salt"),
            ("**Ashes on the Water**", "Ashes on the Water"),
            ("Scene 3: What the Tide Keeps", "What the Tide Keeps"),
            ("Chapter Two – Home, Almost", "Home, Almost"),
            // The engine's ids, echoed from the prompt, mean nothing to a reader.
            ("Tamsin Vale (C0) The Realm", "Tamsin Vale The Realm"),
            ("The Docks [L3]", "The Docks"),
        ] {
            assert!(!title_is_words(raw), "{raw:?}");
            assert_eq!(clean_title(raw).as_deref(), Some(clean), "{raw:?}");
        }
    }

    #[test]
    fn real_titles_pass_unchanged() {
        for good in [
            "The Drowned Bell",
            "Salt",
            "I Am Not Afraid",
            "The 3 O'Clock Ferry",
            "Scenes from a Harbour",
            "Chapter and Verse",
            "Part of the Tide",
            "“The Last Lamp”",
            "A (Very) Long Night",
            "The [Lost] Page",
        ] {
            assert!(title_is_words(good), "{good:?}");
        }
        let sentence = "Tamsin climbs the stair and finds the lamp room empty and the glass \
                        cracked from top to bottom in the cold";
        assert!(!title_is_words(sentence));
    }

    #[test]
    fn a_bad_title_is_a_warning_that_names_the_fix() {
        assert!(check_title("The Drowned Bell").is_none());
        let f = check_title("Title: The Drowned Bell").unwrap();
        assert_eq!(f.check, Check::Title);
        assert_eq!(f.severity, Severity::Warning);
        assert!(
            f.message.contains("Use “The Drowned Bell”"),
            "{}",
            f.message
        );
    }
}
