//! A DOCX manuscript read as the Markdown layout `parse` knows: a `Title` paragraph is the
//! book's title, a `Heading 1` starting "Chapter" (or followed by prose) is a chapter, one
//! followed straight by another heading opens a part, a `Heading 2` starts a scene, and a
//! paragraph of `#` or `* * *` is a scene break. Paragraphs between the title and the first
//! heading are front matter (a manuscript's title page) and are left out, but for a `by …`
//! line after the title, which names the author. Only text is read:
//! emphasis, images and comments are not. Nothing is parsed before the archive passed
//! [`super::bounds`].

use docx_rs::{DocumentChild, read_docx};

use super::parse::{Manuscript, parse_markdown};
use crate::text::clean_line;

/// The manuscript in the DOCX `bytes`, or what is wrong with it. The archive is checked
/// against [`super::bounds`] first, and a panic of the DOCX reader on a malformed file is
/// caught and reported like any unreadable file.
pub fn parse_docx(bytes: &[u8]) -> Result<Manuscript, String> {
    super::bounds::check_archive(bytes)?;
    let read = std::panic::catch_unwind(|| read_docx(bytes))
        .map_err(|_| "a DOCX the reader could not make sense of (it stopped on it)".to_string())?;
    let docx = read.map_err(|e| format!("not a readable DOCX ({e})"))?;
    let paragraphs: Vec<(String, String)> = docx
        .document
        .children
        .iter()
        .filter_map(|c| match c {
            DocumentChild::Paragraph(p) => Some((
                p.property
                    .style
                    .as_ref()
                    .map(|s| s.val.to_lowercase().replace(' ', ""))
                    .unwrap_or_default(),
                p.raw_text(),
            )),
            _ => None,
        })
        .collect();
    let is_heading = |style: &str| style.starts_with("heading") || style == "title";
    let mut md = String::new();
    // Before the first heading (when there is one) is a title page, not the book.
    let mut front_matter = paragraphs.iter().any(|(s, _)| is_heading(s));
    for (i, (style, text)) in paragraphs.iter().enumerate() {
        let line = clean_line(&text.replace('\n', ": "));
        if line.is_empty() {
            continue;
        }
        match style.as_str() {
            "title" => {
                md.push_str(&format!("# {line}\n\n"));
                front_matter = true;
            }
            "heading1" => {
                front_matter = false;
                let next_is_heading = paragraphs[i + 1..]
                    .iter()
                    .find(|(_, t)| !t.trim().is_empty())
                    .is_some_and(|(s, _)| is_heading(s));
                let chapter = line.to_lowercase().starts_with("chapter") || !next_is_heading;
                md.push_str(&format!("{} {line}\n\n", if chapter { "##" } else { "#" }));
            }
            s if s.starts_with("heading") => {
                front_matter = false;
                md.push_str(&format!("### {line}\n\n"));
            }
            _ if front_matter => {
                if let Some(author) = line.strip_prefix("by ")
                    && md.starts_with("# ")
                    && !md.contains("\nby ")
                {
                    md.push_str(&format!("by {author}\n\n"));
                }
            }
            _ => {
                // Prose is kept as written, one paragraph per DOCX paragraph.
                md.push_str(text.trim());
                md.push_str("\n\n");
            }
        }
    }
    Ok(parse_markdown(&md))
}
