//! Prose as a book prints it: paragraphs, scene breaks, and runs of plain, italic and bold
//! text, with typographic quotes, dashes and ellipses. Scenes are plain text with the light
//! emphasis a writer types (`*italics*`, `_italics_`, `**bold**`); only that is read as markup.
//! A full Markdown parser would also turn an indented paragraph into a code block and a line
//! starting `1.` into a list, which prose must never become, and model output never gets to
//! say more than "emphasise this". Every text that leaves here is clean of control
//! characters; escaping it is each format's own job.

use crate::text::strip_controls;

/// A stretch of text with one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub text: String,
    pub italic: bool,
    pub bold: bool,
}

/// What a scene is made of, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Run>),
    /// A break between scenes (or inside one, where the prose marks it).
    SceneBreak,
}

/// A scene's prose as blocks: blank-line paragraphs (one per line when it has no blank
/// lines), a line of `#`, `***`, `* * *`, `---` or `~~~` as a scene break.
pub fn blocks(prose: &str) -> Vec<Block> {
    let clean = strip_controls(prose);
    paragraphs(&clean)
        .into_iter()
        .map(|p| {
            if is_break_line(p) {
                Block::SceneBreak
            } else {
                let joined = p.split_whitespace().collect::<Vec<_>>().join(" ");
                Block::Paragraph(runs(&typographic(&joined)))
            }
        })
        .collect()
}

/// Blank-line paragraphs; text without blank lines falls back to one paragraph per line.
fn paragraphs(text: &str) -> Vec<&str> {
    let normalized: Vec<&str> = text
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if normalized.len() > 1 || !text.trim().contains('\n') {
        return normalized;
    }
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// Whether a line only marks a scene break: `#` (or `# # #`), three or more of `*`, `-`,
/// `_`, `~` (spaces between allowed), or `§`.
pub fn is_break_line(line: &str) -> bool {
    let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed == "§" || (!squeezed.is_empty() && squeezed.chars().all(|c| c == '#')) {
        return true;
    }
    let mut chars = squeezed.chars();
    match chars.next() {
        Some(first @ ('*' | '-' | '_' | '~')) => {
            squeezed.chars().count() >= 3 && chars.all(|c| c == first)
        }
        _ => false,
    }
}

/// Straight quotes made curly, `--` an em dash, `...` an ellipsis. A quote opens at the start
/// or after a space, an opening bracket or a dash; anywhere else it closes (so `it's` gets
/// an apostrophe).
pub fn typographic(text: &str) -> String {
    let text = text.replace("...", "…").replace("--", "—");
    let mut out = String::with_capacity(text.len());
    let mut prev: Option<char> = None;
    for c in text.chars() {
        let opens = prev.is_none_or(|p| {
            p.is_whitespace() || matches!(p, '(' | '[' | '{' | '—' | '–' | '“' | '‘' | '*' | '_')
        });
        let curly = match c {
            '"' if opens => '“',
            '"' => '”',
            '\'' if opens => '‘',
            '\'' => '’',
            other => other,
        };
        out.push(curly);
        prev = Some(c);
    }
    out
}

/// Which emphasis a delimiter run stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Italic,
    Bold,
}

/// A delimiter that found its partner: byte range, mark, and whether it opens.
struct Delim {
    start: usize,
    len: usize,
    mark: Mark,
    opens: bool,
}

/// `text` as runs: `*x*` and `_x_` italic, `**x**` and `__x__` bold. A delimiter opens before
/// a non-space and closes after one; `_` never works inside a word (`snake_case` stays as it
/// is); a delimiter with no partner is plain text, and `\*` is a literal star.
pub fn runs(text: &str) -> Vec<Run> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut candidates: Vec<(usize, usize, char, bool, bool)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        if c == '\\' && matches!(at(i + 1), Some('*' | '_')) {
            i += 2;
            continue;
        }
        if c != '*' && c != '_' {
            i += 1;
            continue;
        }
        let mut n = 1;
        while at(i + n) == Some(c) {
            n += 1;
        }
        let before = i.checked_sub(1).and_then(at);
        let after = at(i + n);
        let mut opens = after.is_some_and(|a| !a.is_whitespace());
        let mut closes = before.is_some_and(|b| !b.is_whitespace());
        if c == '_' {
            opens &= !before.is_some_and(char::is_alphanumeric);
            closes &= !after.is_some_and(char::is_alphanumeric);
        }
        if n <= 2 && (opens || closes) {
            candidates.push((pos, n, c, opens, closes));
        }
        i += n;
    }
    let delims = pair(&candidates);
    let mut out: Vec<Run> = Vec::new();
    let (mut italic, mut bold) = (false, false);
    let mut cursor = 0;
    for d in &delims {
        push_text(&mut out, &text[cursor..d.start], italic, bold);
        match (d.mark, d.opens) {
            (Mark::Italic, o) => italic = o,
            (Mark::Bold, o) => bold = o,
        }
        cursor = d.start + d.len;
    }
    push_text(&mut out, &text[cursor..], italic, bold);
    out
}

/// Pairs each closing delimiter with the nearest open one of the same character and length.
fn pair(candidates: &[(usize, usize, char, bool, bool)]) -> Vec<Delim> {
    let mut open: Vec<usize> = Vec::new();
    let mut paired: Vec<Delim> = Vec::new();
    for (index, &(start, len, c, opens, closes)) in candidates.iter().enumerate() {
        let partner = closes
            .then(|| {
                open.iter()
                    .rposition(|&o| candidates[o].1 == len && candidates[o].2 == c)
            })
            .flatten();
        match partner {
            Some(p) => {
                let o = open.remove(p);
                // Whatever opened after the partner and is still open stays plain text.
                open.truncate(p);
                let mark = if len == 2 { Mark::Bold } else { Mark::Italic };
                let (os, ol) = (candidates[o].0, candidates[o].1);
                paired.push(Delim {
                    start: os,
                    len: ol,
                    mark,
                    opens: true,
                });
                paired.push(Delim {
                    start,
                    len,
                    mark,
                    opens: false,
                });
            }
            None if opens => open.push(index),
            None => {}
        }
    }
    paired.sort_by_key(|d| d.start);
    paired
}

fn push_text(out: &mut Vec<Run>, text: &str, italic: bool, bold: bool) {
    let text = text.replace("\\*", "*").replace("\\_", "_");
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if last.italic == italic && last.bold == bold => last.text.push_str(&text),
        _ => out.push(Run { text, italic, bold }),
    }
}

/// Text fit for XML: `&`, `<`, `>` and quotes escaped, and the characters XML 1.0 cannot
/// hold (controls, U+FFFE, U+FFFF) dropped.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in strip_controls(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\u{fffe}' | '\u{ffff}' => {}
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Run {
        Run {
            text: text.into(),
            italic: false,
            bold: false,
        }
    }

    fn it(text: &str) -> Run {
        Run {
            text: text.into(),
            italic: true,
            bold: false,
        }
    }

    fn bold(text: &str) -> Run {
        Run {
            text: text.into(),
            italic: false,
            bold: true,
        }
    }

    #[test]
    fn emphasis_is_read_and_everything_else_stays_text() {
        assert_eq!(
            runs("She *knew* it was **over**."),
            vec![
                plain("She "),
                it("knew"),
                plain(" it was "),
                bold("over"),
                plain(".")
            ]
        );
        assert_eq!(
            runs("_Salt_ and snake_case_name"),
            vec![it("Salt"), plain(" and snake_case_name")]
        );
        // Unpaired, spaced or escaped stars are text.
        assert_eq!(runs("2 * 3 = 6"), vec![plain("2 * 3 = 6")]);
        assert_eq!(runs("a *lonely star"), vec![plain("a *lonely star")]);
        assert_eq!(runs(r"\*not\* this"), vec![plain("*not* this")]);
        assert_eq!(runs("<b>x</b>"), vec![plain("<b>x</b>")]);
        assert_eq!(
            runs("**bold with *italic* inside**"),
            vec![
                bold("bold with "),
                Run {
                    text: "italic".into(),
                    italic: true,
                    bold: true
                },
                bold(" inside")
            ]
        );
    }

    #[test]
    fn quotes_dashes_and_ellipses_become_typographic() {
        assert_eq!(
            typographic(r#""It's late," she said -- and 'twas... 'quiet'."#),
            "“It’s late,” she said — and ‘twas… ‘quiet’."
        );
        assert_eq!(typographic(r#"("Run")"#), "(“Run”)");
        assert_eq!(typographic(r#""*Run*," he said"#), "“*Run*,” he said");
    }

    #[test]
    fn paragraphs_and_breaks() {
        let prose = "One line\nstill one.\n\n* * *\n\nTwo.\n\n#\n\nThree.";
        assert_eq!(
            blocks(prose),
            vec![
                Block::Paragraph(vec![plain("One line still one.")]),
                Block::SceneBreak,
                Block::Paragraph(vec![plain("Two.")]),
                Block::SceneBreak,
                Block::Paragraph(vec![plain("Three.")]),
            ]
        );
        // Without blank lines, each line is a paragraph.
        assert_eq!(blocks("A.\nB.").len(), 2);
        for line in ["***", "---", "___", "~~~", "* * *", "#", "# # #", "§"] {
            assert!(is_break_line(line), "{line}");
        }
        for line in ["**", "# Heading", "*a*", "-- x"] {
            assert!(!is_break_line(line), "{line}");
        }
    }

    #[test]
    fn xml_text_is_escaped_and_cleaned() {
        assert_eq!(
            xml_escape("<script>&\"'\u{1b}[2J\u{7}\u{fffe}ok"),
            "&lt;script&gt;&amp;&quot;&#39;ok"
        );
    }
}
