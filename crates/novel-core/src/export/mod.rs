//! Manuscript export: Markdown with chapters, EPUB 3 and a DOCX in standard manuscript
//! format, each rendered from one [`Book`] (chapters, parts, scenes) read in one pass. Titles
//! and prose are model output: each format escapes them its own way (HTML-looking text in
//! Markdown, XML in EPUB, text runs in DOCX), and only the writer's emphasis ever becomes
//! markup. Files are written atomically, to the path asked for or to `exports/` inside the
//! novel.

mod book;
mod docx;
mod epub;
mod error;
pub mod inline;
mod markdown;

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

pub use book::{Book, BookScene, Chapter, language_tag};
pub use docx::{ManuscriptFont, rounded_words};
pub use error::ExportError;

use crate::clock::Clock;
use crate::config::NovelConfig;
use crate::layout::EXPORTS_DIR;
use crate::novel::{Novel, NovelError};
use crate::store::StoreResult;

/// A format the manuscript can be exported in.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    Markdown,
    Epub,
    Docx,
}

impl ExportFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "md",
            ExportFormat::Epub => "epub",
            ExportFormat::Docx => "docx",
        }
    }

    /// The name a save dialog's filter shows.
    pub fn label(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "Markdown",
            ExportFormat::Epub => "EPUB e-book",
            ExportFormat::Docx => "Word manuscript (DOCX)",
        }
    }
}

/// Choices an export may make besides its format.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportOptions {
    /// The author's name, instead of the one in `novel.toml`.
    #[serde(default)]
    pub author: Option<String>,
    /// The DOCX manuscript's typeface.
    #[serde(default)]
    pub font: ManuscriptFont,
}

/// The manuscript in `format`, as bytes.
pub fn render(
    conn: &Connection,
    config: &NovelConfig,
    format: ExportFormat,
    options: &ExportOptions,
    clock: &dyn Clock,
) -> Result<Vec<u8>, ExportError> {
    let book = Book::load(conn, config, options.author.as_deref())?;
    Ok(match format {
        ExportFormat::Markdown => markdown::render(&book).into_bytes(),
        ExportFormat::Epub => epub::render(&book, clock.now())?,
        ExportFormat::Docx => docx::render(&book, options.font)?,
    })
}

/// The whole manuscript as Markdown.
pub fn manuscript_markdown(conn: &Connection, config: &NovelConfig) -> StoreResult<String> {
    Ok(markdown::render(&Book::load(conn, config, None)?))
}

/// A file-name-safe slug of the title, for the default export path.
pub fn slug(title: &str) -> String {
    let s: String = title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let s = s
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "manuscript".into()
    } else {
        s.chars().take(60).collect()
    }
}

/// The file name an export of `novel` in `format` is offered under: `<title>.<extension>`.
pub fn file_name(novel: &Novel, format: ExportFormat) -> String {
    format!(
        "{}.{}",
        slug(&novel.config().novel.title),
        format.extension()
    )
}

/// Writes the manuscript in `format` to `dest`, or to `exports/<title>.<extension>` inside
/// the novel; returns the path written.
pub fn write_export(
    novel: &Novel,
    format: ExportFormat,
    dest: Option<&Path>,
    options: &ExportOptions,
    clock: &dyn Clock,
) -> Result<PathBuf, ExportError> {
    let bytes = render(novel.store().conn(), novel.config(), format, options, clock)?;
    let path = match dest {
        Some(p) => p.to_path_buf(),
        None => novel.dir(EXPORTS_DIR).join(file_name(novel, format)),
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        // The novel's own `exports/` must be a real folder; a destination the writer chose is
        // theirs to make as they like.
        let made = if dest.is_none() {
            crate::fsutil::ensure_dir(parent)
        } else {
            std::fs::create_dir_all(parent)
        };
        made.map_err(|source| NovelError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    crate::fsutil::write_atomic(&path, &bytes).map_err(|source| NovelError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Writes the manuscript as Markdown to `dest`, or to `exports/<title>.md` inside the novel.
pub fn write_manuscript(novel: &Novel, dest: Option<&Path>) -> Result<PathBuf, ExportError> {
    write_export(
        novel,
        ExportFormat::Markdown,
        dest,
        &ExportOptions::default(),
        &crate::clock::SystemClock,
    )
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tool_tests;
