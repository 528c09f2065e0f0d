//! The split the writer confirms before anything is imported: the manuscript's chapters (and
//! its front matter, left out unless brought in) with their parts, scenes, word counts and
//! first words, and the seeds proposed from the text ([`super::proposals`]). The writer's
//! answer is an [`ImportShape`] — per chapter: its title and part, whether its heading starts
//! a chapter (off: it joins the one before), whether it is brought in — and [`apply_shape`]
//! makes the manuscript that is imported. No model is called before that.

use serde::{Deserialize, Serialize};

use super::error::ImportError;
use super::parse::{Manuscript, ManuscriptChapter, ManuscriptScene};
use super::proposals::{Proposals, propose};

/// How many words of a scene the preview shows.
const FIRST_WORDS: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportPreview {
    /// The file's name.
    pub source: String,
    pub title: Option<String>,
    pub author: Option<String>,
    pub chapters: Vec<PreviewChapter>,
    pub proposals: Proposals,
    /// Words and paragraphs of what would be imported as the preview stands.
    pub words: u32,
    pub paragraphs: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewChapter {
    /// Its heading's title; empty when the manuscript has no chapter headings.
    pub title: String,
    /// The part this chapter opens.
    pub part: Option<String>,
    /// The pages before the first heading (title page, dedication, contents): not brought in
    /// unless the writer says so.
    pub front_matter: bool,
    pub words: u32,
    pub scenes: Vec<PreviewScene>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PreviewScene {
    pub first_words: String,
    pub words: u32,
}

/// The writer's confirmed split: one entry per chapter of the preview, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportShape {
    pub chapters: Vec<ShapedChapter>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShapedChapter {
    pub title: String,
    pub part: Option<String>,
    /// Its heading starts a chapter; off, its scenes join the chapter before.
    pub starts_chapter: bool,
    /// Brought into the novel; off, left out.
    pub included: bool,
}

fn count_words(text: &str) -> u32 {
    u32::try_from(text.split_whitespace().count()).unwrap_or(u32::MAX)
}

fn first_words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(FIRST_WORDS + 1).collect();
    if words.len() > FIRST_WORDS {
        format!("{}…", words[..FIRST_WORDS].join(" "))
    } else {
        words.join(" ")
    }
}

/// The manuscript's chapters as the preview lists them: the front matter first, if any.
fn listed(m: &Manuscript) -> Vec<(ManuscriptChapter, bool)> {
    let front = m.front_matter.as_ref().map(|text| {
        (
            ManuscriptChapter {
                title: Some("Opening pages".into()),
                part: None,
                scenes: vec![ManuscriptScene {
                    heading: None,
                    text: text.clone(),
                }],
            },
            true,
        )
    });
    front
        .into_iter()
        .chain(m.chapters.iter().cloned().map(|c| (c, false)))
        .collect()
}

/// What the writer is shown for `manuscript`, read from the file named `source`.
pub fn preview(manuscript: &Manuscript, source: &str) -> ImportPreview {
    let chapters: Vec<PreviewChapter> = listed(manuscript)
        .into_iter()
        .map(|(c, front_matter)| {
            let scenes: Vec<PreviewScene> = c
                .scenes
                .iter()
                .map(|s| PreviewScene {
                    first_words: first_words(&s.text),
                    words: count_words(&s.text),
                })
                .collect();
            PreviewChapter {
                title: c.title.unwrap_or_default(),
                part: c.part,
                front_matter,
                words: scenes.iter().map(|s| s.words).sum(),
                scenes,
            }
        })
        .collect();
    let story = manuscript.chapters.iter().flat_map(|c| &c.scenes);
    ImportPreview {
        source: source.to_string(),
        title: manuscript.title.clone(),
        author: manuscript.author.clone(),
        words: chapters
            .iter()
            .filter(|c| !c.front_matter)
            .map(|c| c.words)
            .sum(),
        paragraphs: story.map(|s| s.text.split("\n\n").count() as u32).sum(),
        chapters,
        proposals: propose(manuscript),
    }
}

impl ImportShape {
    /// The split as found: every chapter as it is, the front matter left out.
    pub fn as_found(preview: &ImportPreview) -> ImportShape {
        ImportShape {
            chapters: preview
                .chapters
                .iter()
                .map(|c| ShapedChapter {
                    title: c.title.clone(),
                    part: c.part.clone(),
                    starts_chapter: true,
                    included: !c.front_matter,
                })
                .collect(),
        }
    }
}

/// The manuscript to import: `manuscript` split as the writer confirmed in `shape`.
pub fn apply_shape(
    manuscript: &Manuscript,
    shape: &ImportShape,
) -> Result<Manuscript, ImportError> {
    let listed = listed(manuscript);
    if shape.chapters.len() != listed.len() {
        return Err(ImportError::Refused(format!(
            "the confirmed split has {} chapters but the manuscript has {}; preview it again",
            shape.chapters.len(),
            listed.len()
        )));
    }
    let mut chapters: Vec<ManuscriptChapter> = Vec::new();
    for ((chapter, _), shaped) in listed.into_iter().zip(&shape.chapters) {
        if !shaped.included {
            continue;
        }
        let part = shaped
            .part
            .as_deref()
            .map(crate::text::clean_line)
            .filter(|p| !p.is_empty());
        match chapters.last_mut() {
            Some(previous) if !shaped.starts_chapter => {
                previous.scenes.extend(chapter.scenes);
                if previous.part.is_none() {
                    previous.part = part;
                }
            }
            _ => {
                let title = crate::text::clean_line(&shaped.title);
                chapters.push(ManuscriptChapter {
                    // A manuscript without headings stays without: proposals name them.
                    title: (!title.is_empty()).then_some(title),
                    part,
                    scenes: chapter.scenes,
                });
            }
        }
    }
    if chapters.iter().all(|c| c.scenes.is_empty()) {
        return Err(ImportError::Refused(
            "every chapter was left out; bring at least one in to import".into(),
        ));
    }
    Ok(Manuscript {
        title: manuscript.title.clone(),
        author: manuscript.author.clone(),
        chapters,
        front_matter: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::parse_text;

    const TEXT: &str = "MY BOOK\n\nby Ann Writer\n\n\nChapter 1\n\nShe ran to the \
                        harbour.\n\n* * *\n\nShe hid.\n\nChapter 2\n\nHe waited.\n\nChapter 3\n\nThey left.";

    #[test]
    fn the_preview_lists_front_matter_chapters_scenes_and_counts() {
        let m = parse_text(TEXT);
        let p = preview(&m, "book.txt");
        assert_eq!(p.title.as_deref(), Some("My Book"));
        assert_eq!(p.author.as_deref(), Some("Ann Writer"));
        let titles: Vec<&str> = p.chapters.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Opening pages", "Chapter 1", "Chapter 2", "Chapter 3"]
        );
        assert!(p.chapters[0].front_matter);
        assert_eq!(p.chapters[1].scenes.len(), 2);
        assert_eq!(
            p.chapters[1].scenes[0].first_words,
            "She ran to the harbour."
        );
        assert_eq!(p.words, 11);
        assert_eq!(p.paragraphs, 4);
    }

    #[test]
    fn the_confirmed_shape_renames_joins_and_leaves_out() {
        let m = parse_text(TEXT);
        let p = preview(&m, "book.txt");
        let mut shape = ImportShape::as_found(&p);
        let found = apply_shape(&m, &shape).unwrap();
        assert_eq!(
            found,
            Manuscript {
                front_matter: None,
                ..m.clone()
            }
        );
        shape.chapters[1].title = "  The Harbour ".into();
        shape.chapters[1].part = Some("Part One".into());
        shape.chapters[2].starts_chapter = false;
        shape.chapters[0].included = true;
        shape.chapters[3].included = false;
        let shaped = apply_shape(&m, &shape).unwrap();
        let titles: Vec<Option<&str>> =
            shaped.chapters.iter().map(|c| c.title.as_deref()).collect();
        assert_eq!(titles, [Some("Opening pages"), Some("The Harbour")]);
        assert_eq!(shaped.chapters[1].part.as_deref(), Some("Part One"));
        assert_eq!(
            shaped.chapters[1].scenes.len(),
            3,
            "chapter 2 joined chapter 1"
        );
        assert_eq!(shaped.scene_count(), 4);
        shape.chapters.pop();
        assert!(apply_shape(&m, &shape).is_err(), "a shape of another split");
        let none = ImportShape {
            chapters: p
                .chapters
                .iter()
                .map(|c| ShapedChapter {
                    title: c.title.clone(),
                    part: None,
                    starts_chapter: true,
                    included: false,
                })
                .collect(),
        };
        assert!(apply_shape(&m, &none).is_err());
    }
}
