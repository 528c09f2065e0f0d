//! Plain text as a typewriter or Project Gutenberg leaves it, read back into paragraphs: the
//! Gutenberg header and licence cut off (their `Title:` and `Author:` kept), the text split
//! into blocks between blank lines, and each block's hard line wraps joined. A block of
//! indented lines (verse, a letter, a song) keeps its lines; a block whose lines each open
//! a speech or an indented paragraph is several paragraphs, not one run together.

/// The text between Gutenberg's `*** START OF …` and `*** END OF …` lines (all of it when
/// there are none), with what the header says of the book.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    pub text: String,
    pub title: Option<String>,
    pub author: Option<String>,
    /// The text came from Project Gutenberg (its `--` are dashes).
    pub gutenberg: bool,
}

fn gutenberg_mark(line: &str, which: &str) -> bool {
    let upper = line.trim().to_uppercase();
    upper.starts_with("***") && upper.contains(which) && upper.contains("PROJECT GUTENBERG")
}

/// Cuts the Gutenberg header and footer off `text` (line ends already `\n`).
pub fn gutenberg_body(text: &str) -> Body {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| gutenberg_mark(l, "START OF"));
    let Some(start) = start else {
        return Body {
            text: text.to_string(),
            ..Body::default()
        };
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| gutenberg_mark(l, "END OF"))
        .map_or(lines.len(), |i| start + 1 + i);
    let field = |name: &str| {
        lines[..start].iter().find_map(|l| {
            l.trim()
                .strip_prefix(name)
                .map(crate::text::clean_line)
                .filter(|v| !v.is_empty())
        })
    };
    Body {
        text: lines[start + 1..end].join("\n"),
        title: field("Title:"),
        author: field("Author:"),
        gutenberg: true,
    }
}

/// Lines between blank lines, with how many blank lines came before them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block<'a> {
    pub lines: Vec<&'a str>,
    pub gap: usize,
}

impl Block<'_> {
    /// The block's one line, trimmed, when it has only one.
    pub fn single(&self) -> Option<&str> {
        (self.lines.len() == 1).then(|| self.lines[0].trim())
    }
}

pub fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut gap = 0;
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(Block {
                    lines: std::mem::take(&mut current),
                    gap,
                });
                gap = 0;
            }
            gap += 1;
        } else {
            current.push(line.trim_end());
        }
    }
    if !current.is_empty() {
        out.push(Block {
            lines: current,
            gap,
        });
    }
    out
}

fn indent(line: &str) -> usize {
    line.chars().take_while(|c| *c == ' ').count()
        + 4 * line.chars().take_while(|c| *c == '\t').count()
}

fn opens_speech(line: &str) -> bool {
    line.trim_start()
        .starts_with(['"', '“', '‘', '\'', '—', '–'])
}

fn ends_sentence(line: &str) -> bool {
    line.trim_end()
        .trim_end_matches(['"', '”', '’', '\'', ')', '_', '*'])
        .ends_with(['.', '!', '?', ':', '—'])
}

/// The paragraphs of one block, each a single line, but verse: its lines kept, one per line.
pub fn paragraphs(block: &Block<'_>) -> Vec<String> {
    let lines = &block.lines;
    let least = lines.iter().map(|l| indent(l)).min().unwrap_or(0);
    // Verse, a letter, a song: every line indented (Gutenberg sets them in by 4 or more).
    if least >= 4
        || (lines.len() > 1 && lines.iter().all(|l| l.trim().chars().count() < 45) && least >= 2)
    {
        return vec![
            lines
                .iter()
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join("\n"),
        ];
    }
    // Where a new paragraph starts inside the block: a line set in further than the block's
    // others (first-line indents with no blank lines), or a speech after a line that ended a
    // sentence short of the margin (dialogue typed one speech a line).
    let width = lines
        .iter()
        .map(|l| l.trim_end().chars().count())
        .max()
        .unwrap_or(0);
    let body_indent = lines
        .iter()
        .skip(1)
        .map(|l| indent(l))
        .min()
        .unwrap_or(least);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, line) in lines.iter().enumerate() {
        let starts = i > 0 && {
            let prev = lines[i - 1];
            let short = prev.trim_end().chars().count() * 4 < width * 3;
            (indent(line) > body_indent && indent(line) >= 2)
                || (opens_speech(line) && ends_sentence(prev) && short)
        };
        if starts && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        join_line(&mut current, line.trim());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Appends a wrapped line: with a space, but for a word broken at a hyphen by the wrap
/// (`some-` + `thing`), which a hard-wrapped file does not do on its own, so the hyphen stays.
fn join_line(paragraph: &mut String, line: &str) {
    if !paragraph.is_empty() {
        paragraph.push(' ');
    }
    paragraph.push_str(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gutenberg_header_and_footer_are_cut_and_read() {
        let text = "The Project Gutenberg eBook of X\n\nTitle: Treasure Island\n\nAuthor: \
                    Robert Louis Stevenson\n\n*** START OF THE PROJECT GUTENBERG EBOOK \
                    TREASURE ISLAND ***\n\nStory.\n\n*** END OF THE PROJECT GUTENBERG EBOOK \
                    TREASURE ISLAND ***\n\nLicence.";
        let body = gutenberg_body(text);
        assert_eq!(body.text.trim(), "Story.");
        assert_eq!(body.title.as_deref(), Some("Treasure Island"));
        assert_eq!(body.author.as_deref(), Some("Robert Louis Stevenson"));
        assert!(body.gutenberg);
        assert!(!gutenberg_body("Just a story.").gutenberg);
    }

    #[test]
    fn wrapped_lines_join_and_verse_keeps_its_lines() {
        let text = "He came plodding to the\ninn door, his sea-chest\nfollowing behind.\n\n\n  \
                    \x20       “Fifteen men on the dead man’s chest--\n             Yo-ho-ho, and a bottle of rum!”\n\nin the high voice.";
        let b = blocks(text);
        assert_eq!(b.len(), 3);
        assert_eq!(b[1].gap, 2);
        assert_eq!(
            paragraphs(&b[0]),
            ["He came plodding to the inn door, his sea-chest following behind."]
        );
        assert_eq!(
            paragraphs(&b[1]),
            ["“Fifteen men on the dead man’s chest--\nYo-ho-ho, and a bottle of rum!”"]
        );
    }

    #[test]
    fn speeches_and_indented_paragraphs_without_blank_lines_stay_apart() {
        let dialogue = blocks(
            "\"Who goes there?\" asked the watch at the gate of the old\ntown, raising his lamp.\n\"A friend.\"\n\"Pass, friend.\"",
        );
        assert_eq!(
            paragraphs(&dialogue[0]),
            [
                "\"Who goes there?\" asked the watch at the gate of the old town, raising his lamp.",
                "\"A friend.\"",
                "\"Pass, friend.\""
            ]
        );
        let indented = blocks(
            "  It rained all day on the harbour and on\nthe roofs of the town below.\n  By night the\nwind had turned.",
        );
        assert_eq!(paragraphs(&indented[0]).len(), 2);
        // A wrapped line that happens to open with a quote is not a new paragraph.
        let wrapped = blocks(
            "He said I must keep my weather-eye open for a seafaring\n\"man with one leg\" and tell him.",
        );
        assert_eq!(paragraphs(&wrapped[0]).len(), 1);
    }
}
