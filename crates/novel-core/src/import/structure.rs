//! The structure finder for plain text: finds the book in a manuscript as a writer or Project
//! Gutenberg left it. The Gutenberg header and licence are cut off ([`super::unwrap`]); each
//! block between blank lines is read as a part heading, a chapter heading, a chapter's title
//! under a bare number, a scene break (`* * *`, `***`, `#`, `~~~`), the contents list, or
//! prose, whose hard wraps are joined into paragraphs. What comes before the first heading of a
//! book that has headings (title page, dedication, contents) is its front matter, kept aside
//! for the writer to bring in or leave out.
//!
//! A false heading costs a writer a chapter cut mid-scene, so a line counts as a heading only
//! alone between blank lines, and a bare number (`12`, `XII.`) only when it carries on the
//! chapters' sequence or stands well apart (three blank lines before it): "I." said in
//! dialogue in chapter 5 stays prose, and a shout in capitals is never a heading. Pure: no
//! file, no store, no model.

use super::headings::{
    ChapterLine, chapter_line, dashes, markdown_line, part_line, scene_break, title_like,
};
use super::parse::{Builder, Manuscript};
use super::unwrap::{Block, blocks, gutenberg_body, paragraphs};
use crate::text::{clean_line, strip_controls};

/// What one block of the text is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Part(String),
    Chapter(String),
    Break,
    Prose(Vec<String>),
}

/// The book in `source`: its parts, chapters and scenes, paragraphs unwrapped. Plain text is
/// read this way (`import::parse_text`).
pub fn find_structure(source: &str) -> Manuscript {
    let source = strip_controls(source);
    let body = gutenberg_body(&source);
    let text = if body.gutenberg {
        dashes(&body.text)
    } else {
        body.text.clone()
    };
    let items = classify(&blocks(&text));
    let first_heading = items
        .iter()
        .position(|i| matches!(i, Item::Part(_) | Item::Chapter(_)));
    let mut b = Builder::default();
    let mut front: Vec<String> = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Item::Prose(paragraphs) if first_heading.is_some_and(|f| i < f) => {
                front.extend(paragraphs)
            }
            Item::Break if first_heading.is_some_and(|f| i < f) => {}
            Item::Part(title) => b.part(title),
            Item::Chapter(title) => b.chapter(title),
            Item::Break => b.scene_break(),
            Item::Prose(paragraphs) => {
                for p in paragraphs {
                    b.paragraph(&p);
                }
            }
        }
    }
    let mut manuscript = b.finish();
    manuscript.title = body.title.or_else(|| front_title(&front));
    manuscript.author = body.author.or_else(|| {
        front
            .iter()
            .find_map(|p| p.strip_prefix("by ").map(clean_line))
    });
    manuscript.front_matter = (!front.is_empty()).then(|| front.join("\n\n"));
    manuscript
}

/// A title page's title: its first line when that reads as one.
fn front_title(front: &[String]) -> Option<String> {
    let first = front.first()?;
    (first.lines().count() == 1 && title_like(first))
        .then(|| super::headings::title_case(&clean_line(first)))
}

/// Where the chapters have got to, for telling a bare number heading from a number said.
#[derive(Default)]
struct Sequence {
    last: Option<u32>,
    /// A part opened and no chapter yet: its first chapter may start anywhere.
    part_open: bool,
    /// A heading with no title of its own was just read: a title line may follow.
    awaiting_title: Option<usize>,
    in_contents: bool,
}

impl Sequence {
    fn fits(&self, n: u32, gap: usize) -> bool {
        match self.last {
            None => n == 1 || gap >= 2,
            Some(last) => n == last + 1 || (self.part_open && (n == 1 || gap >= 2)) || gap >= 3,
        }
    }
}

fn classify(blocks: &[Block<'_>]) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut seq = Sequence::default();
    for block in blocks {
        let awaiting = seq.awaiting_title.take();
        let single = block.single();
        if seq.in_contents {
            // The contents list runs until the text stands well apart from it.
            if block.gap < 3 {
                items.push(Item::Prose(paragraphs(block)));
                continue;
            }
            seq.in_contents = false;
        }
        if let Some(line) = single {
            let lower = line.to_lowercase();
            if matches!(
                lower.trim_end_matches('.'),
                "contents" | "table of contents"
            ) {
                seq.in_contents = true;
                items.push(Item::Prose(vec![line.to_string()]));
                continue;
            }
            if scene_break(line) {
                items.push(Item::Break);
                continue;
            }
            // The title under a heading that had none: `1` then `The Old Sea-dog …`.
            if let Some(at) = awaiting
                && title_like(line)
                && chapter_line(line).is_none()
                && part_line(line).is_none()
            {
                let title = super::headings::title_case(line);
                match &mut items[at] {
                    Item::Chapter(t) => *t = title,
                    Item::Part(t) => *t = format!("{t} — {title}"),
                    _ => {}
                }
                continue;
            }
            if let Some(part) = part_line(line) {
                seq.part_open = true;
                if !part.contains('—') {
                    seq.awaiting_title = Some(items.len());
                }
                items.push(Item::Part(part));
                continue;
            }
            if let Some((level, text)) = markdown_line(line)
                && level <= 2
            {
                items.push(match part_line(text) {
                    Some(part) => Item::Part(part),
                    None => Item::Chapter(chapter_title(chapter_line(text), text)),
                });
                seq.part_open = false;
                continue;
            }
            if let Some(heading) = chapter_line(line)
                && (!heading.bare || heading.number.is_some_and(|n| seq.fits(n, block.gap)))
            {
                if let Some(n) = heading.number {
                    seq.last = Some(n);
                }
                seq.part_open = false;
                if heading.title.is_none() {
                    seq.awaiting_title = Some(items.len());
                }
                items.push(Item::Chapter(chapter_title(Some(heading), line)));
                continue;
            }
        }
        // `CHAPTER I.` with its title on the next line of the same block.
        if block.lines.len() == 2
            && let Some(heading) = chapter_line(block.lines[0])
            && !heading.bare
            && heading.title.is_none()
            && title_like(block.lines[1])
        {
            if let Some(n) = heading.number {
                seq.last = Some(n);
            }
            seq.part_open = false;
            items.push(Item::Chapter(super::headings::title_case(
                block.lines[1].trim(),
            )));
            continue;
        }
        items.push(Item::Prose(paragraphs(block)));
    }
    items
}

/// What a chapter is called: its own title, else its label (`Chapter 12`).
fn chapter_title(heading: Option<ChapterLine>, line: &str) -> String {
    match heading {
        Some(h) => h.title.unwrap_or(h.label),
        None => clean_line(line),
    }
}

#[cfg(test)]
#[path = "tests_structure.rs"]
mod tests;
