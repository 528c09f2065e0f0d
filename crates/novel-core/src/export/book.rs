//! The book every export format is rendered from, read in one pass: title, author, language,
//! word count, and the chapters (stored or proposed, see `store::chapters`) with their parts
//! and scenes. Titles are one clean line here; each format escapes them its own way.

use rusqlite::Connection;

use crate::config::NovelConfig;
use crate::store::{self, StoreResult};
use crate::text::clean_line;

/// A whole book, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Book {
    pub title: String,
    /// May be empty.
    pub author: String,
    /// A BCP 47 language tag (`en`, `fr`, …), from the foundation's language.
    pub language: String,
    pub words: u32,
    pub chapters: Vec<Chapter>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    pub number: u32,
    pub title: String,
    /// The heading of the part this chapter opens.
    pub part: Option<String>,
    pub scenes: Vec<BookScene>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BookScene {
    pub tick: u32,
    pub title: String,
    /// As stored: control characters and markup are the renderer's to deal with.
    pub prose: String,
}

impl Book {
    /// Reads the book of the novel in `conn`; `author` overrides the foundation's author.
    pub fn load(
        conn: &Connection,
        config: &NovelConfig,
        author: Option<&str>,
    ) -> StoreResult<Book> {
        let scenes = store::list_scenes(conn)?;
        let spans = store::book_chapters(conn, &scenes)?;
        let words = scenes
            .iter()
            .fold(0u32, |n, s| n.saturating_add(s.word_count));
        let mut scenes = scenes.into_iter().peekable();
        let mut chapters = Vec::with_capacity(spans.len());
        for span in spans {
            let mut members = Vec::new();
            while let Some(scene) = scenes.next_if(|s| s.tick <= span.last_tick) {
                members.push(BookScene {
                    tick: scene.tick,
                    title: heading(&scene.title),
                    prose: scene.prose,
                });
            }
            chapters.push(Chapter {
                number: span.number,
                title: heading(&span.title),
                part: span.part_title.as_deref().map(heading),
                scenes: members,
            });
        }
        let foundation = &config.novel;
        Ok(Book {
            title: heading(&foundation.title),
            author: clean_line(author.unwrap_or(&foundation.author)),
            language: language_tag(&foundation.language),
            words,
            chapters,
        })
    }

    /// The author's surname for a manuscript's running header: the last word of the name.
    pub fn surname(&self) -> Option<&str> {
        self.author.split_whitespace().last()
    }
}

/// A title on one clean line, never empty.
fn heading(text: &str) -> String {
    let line = clean_line(text);
    if line.is_empty() {
        "Untitled".into()
    } else {
        line
    }
}

/// A BCP 47 tag for the foundation's language, given by name ("English", "Français") or
/// already as a tag ("en", "pt-BR"); `und` (undetermined) when it is neither.
pub fn language_tag(language: &str) -> String {
    let l = language.trim();
    let is_tag = !l.is_empty()
        && l.split('-').enumerate().all(|(i, part)| {
            let n = part.len();
            part.chars().all(|c| c.is_ascii_alphanumeric())
                && if i == 0 {
                    (2..=3).contains(&n) && part.chars().all(|c| c.is_ascii_alphabetic())
                } else {
                    (2..=8).contains(&n)
                }
        });
    if is_tag {
        return l.to_string();
    }
    let known: &[(&[&str], &str)] = &[
        (&["english"], "en"),
        (&["french", "français", "francais"], "fr"),
        (&["german", "deutsch"], "de"),
        (&["spanish", "español", "espanol", "castellano"], "es"),
        (&["italian", "italiano"], "it"),
        (&["portuguese", "português", "portugues"], "pt"),
        (&["dutch", "nederlands"], "nl"),
        (&["swedish", "svenska"], "sv"),
        (&["norwegian", "norsk"], "no"),
        (&["danish", "dansk"], "da"),
        (&["finnish", "suomi"], "fi"),
        (&["polish", "polski"], "pl"),
        (&["czech", "čeština", "cestina"], "cs"),
        (&["russian", "русский"], "ru"),
        (&["ukrainian", "українська"], "uk"),
        (&["greek", "ελληνικά"], "el"),
        (&["turkish", "türkçe", "turkce"], "tr"),
        (&["japanese", "日本語"], "ja"),
        (&["chinese", "中文"], "zh"),
        (&["korean", "한국어"], "ko"),
        (&["arabic", "العربية"], "ar"),
        (&["hebrew", "עברית"], "he"),
        (&["hindi", "हिन्दी"], "hi"),
    ];
    let lower = l.to_lowercase();
    known
        .iter()
        .find(|(names, _)| names.contains(&lower.as_str()))
        .map_or_else(|| "und".to_string(), |(_, tag)| tag.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_become_tags() {
        assert_eq!(language_tag("English"), "en");
        assert_eq!(language_tag(" Français "), "fr");
        assert_eq!(language_tag("pt-BR"), "pt-BR");
        assert_eq!(language_tag("de"), "de");
        assert_eq!(language_tag("Klingon"), "und");
        assert_eq!(language_tag(""), "und");
        assert_eq!(language_tag("<en>"), "und");
    }
}
