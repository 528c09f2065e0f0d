//! Keyword-triggered lore (a writer's lorebook, "world info"): a world fact enters
//! the context only when one of its keywords or aliases appears in what the next scene is
//! about — the recent scenes, the place, the POV character, the plan, the writer's note — or
//! when it is always on (or critical). Importance is its priority: when the triggered facts
//! exceed the lore budget, the least important go first. The rest of the world stays in
//! memory, reachable through `memory.search`, instead of costing tokens.

use crate::model::{Importance, LoreFact};

/// The facts `text` triggers, most important first, then oldest first.
pub(crate) fn triggered<'a>(facts: &'a [LoreFact], text: &str) -> Vec<&'a LoreFact> {
    let haystack = text.to_lowercase();
    let mut hits: Vec<&LoreFact> = facts
        .iter()
        .filter(|f| {
            f.always_on
                || f.importance == Importance::Critical
                || f.keywords
                    .iter()
                    .chain(&f.aliases)
                    .any(|k| contains_word(&haystack, &k.to_lowercase()))
        })
        .collect();
    // Stable sort: within one importance the store's order (oldest first) stays.
    hits.sort_by_key(|f| std::cmp::Reverse(f.importance));
    hits
}

/// Whether `needle` occurs in `haystack` as whole words ("ash" must not fire on "washed").
fn contains_word(haystack: &str, needle: &str) -> bool {
    let needle = needle.trim();
    if needle.is_empty() {
        return false;
    }
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(id: &str, importance: Importance, keywords: &[&str]) -> LoreFact {
        LoreFact {
            id: id.into(),
            fact: format!("fact {id}"),
            category: "world".into(),
            importance,
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            aliases: Vec::new(),
            always_on: false,
            source_tick: None,
            created_tick: 0,
        }
    }

    #[test]
    fn keywords_trigger_as_whole_words_and_critical_facts_always_come() {
        let facts = vec![
            fact("W0", Importance::Low, &["ash"]),
            fact("W1", Importance::High, &["Salt Tide"]),
            fact("W2", Importance::Critical, &["never-mentioned"]),
            fact("W3", Importance::Medium, &["lantern"]),
        ];
        let ids = |text: &str| -> Vec<String> {
            triggered(&facts, text)
                .iter()
                .map(|f| f.id.clone())
                .collect()
        };
        assert_eq!(ids("She washed her hands."), vec!["W2"]);
        assert_eq!(
            ids("Ash fell before the salt tide; no lantern."),
            vec!["W2", "W1", "W3", "W0"]
        );
    }
}
