//! What changed between two texts, word by word (the `similar` crate's diff), in runs a reader
//! can show side by side: the old text with its removals marked, the new with its additions.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};

/// Whether a run of words is in both texts or only one.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffKind {
    Same,
    Removed,
    Added,
}

/// A run of text (words and the whitespace after them) of one kind.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffRun {
    pub kind: DiffKind,
    pub text: String,
}

/// The word-level difference from `old` to `new`, adjacent runs of a kind merged.
pub fn word_diff(old: &str, new: &str) -> Vec<DiffRun> {
    let diff = TextDiff::from_words(old, new);
    let mut runs: Vec<DiffRun> = Vec::new();
    for change in diff.iter_all_changes() {
        let kind = match change.tag() {
            ChangeTag::Equal => DiffKind::Same,
            ChangeTag::Delete => DiffKind::Removed,
            ChangeTag::Insert => DiffKind::Added,
        };
        match runs.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(change.value()),
            _ => runs.push(DiffRun {
                kind,
                text: change.value().to_string(),
            }),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_mark_what_each_side_lacks() {
        let runs = word_diff("She ran to the docks.", "She walked to the old docks.");
        let shown: Vec<(DiffKind, &str)> = runs.iter().map(|r| (r.kind, r.text.as_str())).collect();
        assert_eq!(
            shown,
            [
                (DiffKind::Same, "She "),
                (DiffKind::Removed, "ran"),
                (DiffKind::Added, "walked"),
                (DiffKind::Same, " to the "),
                (DiffKind::Added, "old "),
                (DiffKind::Same, "docks."),
            ]
        );
        assert_eq!(word_diff("same", "same").len(), 1);
    }
}
