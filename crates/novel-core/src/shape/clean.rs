//! What the writer typed, made fit for the book: a title cut to one line of at most
//! [`MAX_TITLE_CHARS`], prose without control characters, and a scene's first sentence as its
//! gist until it is re-read.

use super::error::ShapeError;
use crate::text::clean_line;

/// The longest scene title kept, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

pub(super) fn clean_title(title: &str) -> Option<String> {
    let line = clean_line(title);
    let line = line.trim();
    (!line.is_empty()).then(|| line.chars().take(MAX_TITLE_CHARS).collect())
}

pub(super) fn clean_prose(prose: &str) -> Result<String, ShapeError> {
    let prose = crate::text::strip_controls(prose.trim());
    if prose.trim().is_empty() {
        return Err(ShapeError::EmptyProse);
    }
    Ok(prose.trim().to_string())
}

/// A scene's gist until it is re-read: its first sentence, cut to a line.
pub(super) fn first_sentence(prose: &str) -> String {
    let end = prose
        .char_indices()
        .find(|(_, c)| matches!(c, '.' | '!' | '?' | '\n'))
        .map_or(prose.len(), |(i, c)| i + c.len_utf8());
    let gist: String = prose[..end].trim().chars().take(160).collect();
    clean_line(&gist)
}
