//! Compiling the checks' constant patterns.
//!
//! Every check pattern goes through [`compile`], which makes each `\b` an ASCII word boundary.
//! A Unicode word boundary stops the regex engine's fast lazy DFA at the first non-ASCII byte,
//! and published prose is full of them (curly quotes and apostrophes, dashes), so every such
//! sentence fell back to the slow NFA engines: about a tenth of a 300-scene check. The checks'
//! words are English, and a curly apostrophe or a dash is not a word character either way, so
//! the boundaries fall in the same places on the prose the checks read (the labelled corpus's
//! output is byte-identical).

use regex::Regex;

/// A constant check pattern, compiled with ASCII word boundaries.
pub(crate) fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    Regex::new(&ascii_word_boundaries(pattern))
}

/// `pattern` with every unescaped `\b` written as `(?-u:\b)`; an escaped backslash (`\\b`) is
/// a backslash and a letter, and stays as it is.
fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push_str(r"(?-u:\b)"),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries_become_ascii_and_escaped_backslashes_stay() {
        assert_eq!(ascii_word_boundaries(r"\bhe\b"), r"(?-u:\b)he(?-u:\b)");
        assert_eq!(ascii_word_boundaries(r"a\\b\B\w"), r"a\\b\B\w");
    }

    #[test]
    fn boundaries_still_fall_beside_curly_quotes_and_dashes() {
        let he = compile(r"(?i)\bhe\b").expect("pattern");
        assert!(he.is_match("“He knew,” she said."));
        assert!(he.is_match("—he knew—"));
        assert!(he.is_match("Holmes’ he"));
        assert!(!he.is_match("“Then,” she said."));
        assert!(!he.is_match("the heath"));
    }
}
