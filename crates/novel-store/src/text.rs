//! Text hygiene shared by every layer: making model output safe to show and store (control
//! characters and terminal escape sequences removed), one-line headings, and shortening text
//! for listings and prompts. Model output is untrusted input: a title holding `ESC]0;…BEL`
//! must not retitle the writer's terminal, and `ESC[2J` must not clear it; HTML and Markdown
//! images and links must not come alive in a Markdown viewer ([`escape_markup`]).

/// `text` without terminal escape sequences and control characters. Newlines and tabs stay
/// (prose has paragraphs); carriage returns become newlines when alone and vanish before `\n`.
pub fn strip_controls(text: &str) -> String {
    if !text.chars().any(is_unsafe) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_escape(&mut chars),
            // C1 "CSI" and "OSC" introduce the same sequences as ESC [ and ESC ].
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' => skip_string(&mut chars),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\n' | '\t' => out.push(c),
            c if c.is_control() || is_invisible_format(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Every string inside a JSON value (keys too) without control characters: model output that
/// becomes names, facts and titles.
pub fn strip_controls_in_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) if s.chars().any(is_unsafe) => *s = strip_controls(s),
        Value::Array(items) => items.iter_mut().for_each(strip_controls_in_json),
        Value::Object(map) if map.keys().any(|k| k.chars().any(is_unsafe)) => {
            let cleaned = std::mem::take(map)
                .into_iter()
                .map(|(k, mut v)| {
                    strip_controls_in_json(&mut v);
                    (strip_controls(&k), v)
                })
                .collect();
            *map = cleaned;
        }
        Value::Object(map) => map.values_mut().for_each(strip_controls_in_json),
        _ => {}
    }
}

fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_invisible_format(c)
}

/// Bidirectional overrides can make a line read differently from what it says.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After ESC: a CSI (`[`…final byte), an OSC/DCS/APC/PM string (ended by BEL or ESC \\), or a
/// two-character sequence.
fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | '_' | '^' | 'X') => skip_string(chars),
        _ => {}
    }
}

fn skip_csi(chars: &mut Chars<'_>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

/// Model text made inert for a Markdown viewer: `<` escaped wherever it could open an HTML
/// tag, comment or declaration (`a < b` stays), and every `[` escaped as `\[`, so that no
/// image (`![x](https://…)`, which a viewer fetches by itself), link (`[x](javascript:…)`) or
/// link definition can form. Backslashes just before a `[` are doubled first, so a `\[` in the
/// text cannot cancel the escape.
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' if chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                out.push_str("&lt;");
            }
            '[' => {
                let backslashes = out.len() - out.trim_end_matches('\\').len();
                out.push_str(&"\\".repeat(backslashes));
                out.push_str("\\[");
            }
            _ => out.push(c),
        }
    }
    out
}

/// One line of clean text: controls removed and runs of whitespace (newlines included) joined
/// by single spaces. For names, titles and bullets shown in a terminal or written to a file.
pub fn clean_line(text: &str) -> String {
    strip_controls(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A heading that stays one line and does not open with Markdown syntax of its own.
pub fn one_line(text: &str) -> String {
    let joined = clean_line(text);
    let trimmed = joined.trim_start_matches(['#', '>', '-', '*', ' ', '=', '+', '|']);
    if trimmed.is_empty() {
        "Untitled".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The first `n` words of `text` on one line, with an ellipsis when something was cut.
pub fn first_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        words.join(" ")
    } else {
        format!("{}…", words[..n].join(" "))
    }
}

/// `text` on one line and at most `max` characters, cut at a word boundary where there is one,
/// with an ellipsis when something was cut.
pub fn clip(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let limit = flat
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(flat.len(), |(i, _)| i);
    let head = &flat[..limit];
    let cut = match head.rfind(' ') {
        Some(i) if i > limit / 2 => i,
        _ => limit,
    };
    format!("{}…", head[..cut].trim_end())
}

/// `text` cut to at most `max_words` words, keeping whole paragraphs where possible: used
/// when a model runs far past its length and only the start of its answer is worth keeping.
pub fn truncate_words(text: &str, max_words: usize) -> String {
    let mut kept = Vec::new();
    let mut count = 0;
    for paragraph in text.split("\n\n") {
        let words = paragraph.split_whitespace().count();
        if count + words > max_words {
            if kept.is_empty() {
                kept.push(
                    paragraph
                        .split_whitespace()
                        .take(max_words)
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
            break;
        }
        count += words;
        kept.push(paragraph.to_string());
    }
    kept.join("\n\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_escapes_and_controls_are_removed() {
        let title = "Low\u{1b}]0;pwned\u{7} Tide\u{1b}[2J\u{1b}[31m!\u{0}\u{8}";
        assert_eq!(strip_controls(title), "Low Tide!");
        assert_eq!(strip_controls("a\u{1b}]8;;http://x\u{1b}\\link"), "alink");
        assert_eq!(strip_controls("a\u{9b}31mb"), "ab");
        assert_eq!(strip_controls("one\r\ntwo\rthree"), "one\ntwo\nthree");
        assert_eq!(strip_controls("keep\n\tthis"), "keep\n\tthis");
        assert_eq!(strip_controls("evil\u{202e}txt.exe"), "eviltxt.exe");
        assert_eq!(strip_controls("plain"), "plain");
    }

    #[test]
    fn json_strings_are_cleaned_in_place() {
        let mut v = serde_json::json!({"name\u{1b}[1m": ["Bram\u{1b}]0;x\u{7}"], "n": 1});
        strip_controls_in_json(&mut v);
        assert_eq!(v, serde_json::json!({"name": ["Bram"], "n": 1}));
    }

    #[test]
    fn html_in_prose_is_escaped_but_comparisons_survive() {
        assert_eq!(
            escape_markup("<script>alert(1)</script> a < b <img onerror=x>"),
            "&lt;script>alert(1)&lt;/script> a < b &lt;img onerror=x>"
        );
    }

    #[test]
    fn markdown_images_and_links_cannot_form() {
        assert_eq!(
            escape_markup("She saw ![x](https://t.example/p.png) and [go](javascript:alert(1))."),
            r"She saw !\[x](https://t.example/p.png) and \[go](javascript:alert(1))."
        );
        assert_eq!(
            escape_markup("[ref]: https://t.example"),
            r"\[ref]: https://t.example"
        );
        // A backslash of the text's own cannot undo the escape: it is escaped itself.
        assert_eq!(escape_markup(r"\![x](u)"), r"\!\[x](u)");
        assert_eq!(escape_markup(r"a\[x](u)"), r"a\\\[x](u)");
        assert_eq!(escape_markup("no brackets, a < b"), "no brackets, a < b");
    }

    #[test]
    fn one_line_headings() {
        assert_eq!(one_line("  # Low\n\nTide "), "Low Tide");
        assert_eq!(one_line("\u{1b}[2J"), "Untitled");
        assert_eq!(one_line("=== x"), "x");
    }

    #[test]
    fn shortening() {
        assert_eq!(first_words("a b c d", 2), "a b…");
        assert_eq!(first_words(" a  b ", 5), "a b");
        assert_eq!(clip("the quick brown fox", 12), "the quick…");
        assert_eq!(clip("short", 12), "short");
        assert_eq!(clip("abcdefghijklmnop", 6), "abcde…");
        let text = "one two three.\n\nfour five six.\n\nseven";
        assert_eq!(truncate_words(text, 6), "one two three.\n\nfour five six.");
        assert_eq!(truncate_words(text, 2), "one two");
    }
}
