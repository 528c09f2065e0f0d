//! A committed scene: the prose of one tick with its title, POV, place and summary bullets.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    pub id: String,
    pub tick: u32,
    pub title: String,
    pub pov_character: Option<String>,
    pub location: Option<String>,
    pub prose: String,
    pub word_count: u32,
    /// 3–5 bullets, most important first.
    pub summary: Vec<String>,
    pub tension: Option<u8>,
    pub created_at: String,
}

/// Counts words the way writers do: runs of letters/digits, apostrophes and hyphens inside.
pub fn count_words(text: &str) -> u32 {
    let count = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::count_words;

    #[test]
    fn counts_words_like_a_writer() {
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words("She didn't look back — not once."), 6);
        assert_eq!(count_words("well-worn  boots\n\nand rain"), 4);
    }
}
