//! A manuscript's text split into chapters and scenes, before anything is stored.
//!
//! Markdown: when `##` headings exist, a first `#` heading is the book's title (a following
//! `by …` line its author), later `#` headings open parts, `##` headings are chapters and
//! `###` headings start scenes; without `##`, `#` headings are chapters. This reads back the
//! layout `export` writes (its escaped `&lt;` included). Plain text is read by the structure
//! finder ([`super::structure`]: hard wraps joined, parts, chapters and scene breaks found);
//! this module's [`Builder`] collects what either finds. In both, a scene-break line (`* * *`,
//! `#`, `---`, …) starts a new scene. A manuscript without chapter headings leaves its chapters to the engine's
//! proposals. A scene far longer than the engine writes is cut between paragraphs, so each
//! extraction reads a scene-sized text.

use crate::export::inline::is_break_line;
use crate::text::{clean_line, strip_controls};

/// Words above which a scene is cut in parts.
const LONGEST_SCENE_WORDS: usize = 4000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manuscript {
    pub title: Option<String>,
    pub author: Option<String>,
    pub chapters: Vec<ManuscriptChapter>,
    /// What came before the first heading of a plain-text book that has headings (a title
    /// page, a dedication, the contents): left out unless the writer brings it in.
    pub front_matter: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManuscriptChapter {
    /// `None` when the manuscript has no chapter headings.
    pub title: Option<String>,
    /// The part this chapter opens.
    pub part: Option<String>,
    pub scenes: Vec<ManuscriptScene>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManuscriptScene {
    pub heading: Option<String>,
    pub text: String,
}

impl Manuscript {
    pub fn scene_count(&self) -> usize {
        self.chapters.iter().map(|c| c.scenes.len()).sum()
    }
}

/// Collects lines into chapters and scenes.
#[derive(Default)]
pub(super) struct Builder {
    title: Option<String>,
    author: Option<String>,
    chapters: Vec<ManuscriptChapter>,
    pending_part: Option<String>,
    heading: Option<String>,
    lines: Vec<String>,
}

impl Builder {
    fn flush_scene(&mut self) {
        let text = self.lines.join("\n").trim().to_string();
        self.lines.clear();
        let heading = self.heading.take();
        if text.is_empty() {
            // A heading with nothing under it carries over to the next scene.
            self.heading = heading;
            return;
        }
        if self.chapters.is_empty() {
            self.chapters.push(ManuscriptChapter {
                title: None,
                part: self.pending_part.take(),
                scenes: Vec::new(),
            });
        }
        let chapter = self
            .chapters
            .last_mut()
            .expect("a chapter was just ensured");
        for (i, text) in cut_long(&text).into_iter().enumerate() {
            chapter.scenes.push(ManuscriptScene {
                heading: if i == 0 { heading.clone() } else { None },
                text,
            });
        }
    }

    /// One unwrapped paragraph (blank-line separated from the next).
    pub(super) fn paragraph(&mut self, text: &str) {
        self.lines.push(text.to_string());
        self.lines.push(String::new());
    }

    pub(super) fn chapter(&mut self, title: String) {
        self.flush_scene();
        self.heading = None;
        self.chapters
            .retain(|c| !c.scenes.is_empty() || c.title.is_some());
        self.chapters.push(ManuscriptChapter {
            title: Some(title),
            part: self.pending_part.take(),
            scenes: Vec::new(),
        });
    }

    pub(super) fn part(&mut self, title: String) {
        self.flush_scene();
        self.pending_part = Some(title);
    }

    pub(super) fn scene_break(&mut self) {
        self.flush_scene();
    }

    pub(super) fn finish(mut self) -> Manuscript {
        self.flush_scene();
        self.chapters.retain(|c| !c.scenes.is_empty());
        Manuscript {
            title: self.title,
            author: self.author,
            chapters: self.chapters,
            front_matter: None,
        }
    }
}

/// A heading's `#` level and text, for a line like `## Chapter 1: Salt`.
fn heading(line: &str) -> Option<(usize, String)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let rest = &line[level..];
    if !(1..=6).contains(&level) || !rest.starts_with(' ') {
        return None;
    }
    let text = unescape(rest.trim().trim_end_matches('#').trim());
    (!text.is_empty())
        .then(|| clean_line(&text))
        .map(|t| (level, t))
}

/// Undoes `export`'s escaping ([`crate::text::escape_markup`]): `&lt;` of tag-like text, and
/// a `[` escaped with a backslash (the backslashes before it halved, as Markdown reads them).
fn unescape(text: &str) -> String {
    let text = text.replace("&lt;", "<");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '[' {
            let run = out.len() - out.trim_end_matches('\\').len();
            if run % 2 == 1 {
                out.truncate(out.len() - run);
                out.push_str(&"\\".repeat(run / 2));
            }
        }
        out.push(c);
    }
    out
}

/// `Chapter 3: The Docks` → `The Docks`; a bare `Chapter 3` stays as it is.
fn chapter_title(text: &str) -> String {
    let lower = text.to_lowercase();
    if let Some(rest) = lower.strip_prefix("chapter ") {
        let number_len = rest.find([':', '.', '—', '-']).unwrap_or(rest.len());
        let after = text["chapter ".len() + number_len..]
            .trim_start_matches([':', '.', '—', '-'])
            .trim();
        if !after.is_empty() && rest[..number_len].split_whitespace().count() <= 3 {
            return after.to_string();
        }
    }
    text.to_string()
}

pub fn parse_markdown(source: &str) -> Manuscript {
    let source = strip_controls(source);
    let has_chapters = source.lines().any(|l| matches!(heading(l), Some((2, _))));
    let mut b = Builder::default();
    let mut lines = source.lines().peekable();
    let mut seen_title = false;
    while let Some(line) = lines.next() {
        if is_break_line(line) {
            b.scene_break();
            continue;
        }
        match heading(line) {
            Some((1, text)) if has_chapters && !seen_title && b.chapters.is_empty() => {
                seen_title = true;
                b.title = Some(text);
                while lines.peek().is_some_and(|l| l.trim().is_empty()) {
                    lines.next();
                }
                if let Some(author) = lines.peek().and_then(|l| l.trim().strip_prefix("by ")) {
                    b.author = Some(clean_line(&unescape(author)));
                    lines.next();
                }
            }
            Some((1, text)) if has_chapters => b.part(text),
            Some((1, text)) | Some((2, text)) => b.chapter(chapter_title(&text)),
            Some((_, text)) => {
                b.flush_scene();
                b.heading = Some(text);
            }
            None => b.lines.push(unescape(line)),
        }
    }
    b.finish()
}

/// A scene cut between paragraphs into parts of at most [`LONGEST_SCENE_WORDS`] (roughly
/// equal, so no sliver is left at the end).
fn cut_long(text: &str) -> Vec<String> {
    let words = text.split_whitespace().count();
    if words <= LONGEST_SCENE_WORDS {
        return vec![text.to_string()];
    }
    let parts = words.div_ceil(LONGEST_SCENE_WORDS);
    let target = words.div_ceil(parts);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for paragraph in text.split("\n\n") {
        if !current.is_empty() && current.split_whitespace().count() >= target {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push_str("\n\n");
        }
        current.push_str(paragraph);
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}
