//! The names the reader links to codex pages: every character and place by its name and
//! aliases, and every lore entry by its aliases (its keywords are triggers for the context, often
//! common words, so they are not names). Longest names first, so "Tamsin Vale" wins over
//! "Tamsin" where both would match.

use rusqlite::Connection;
use serde::Serialize;

use crate::store::{self, StoreError};

/// One codex page and the names that open it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CodexName {
    /// The page's id (for opening it; never shown).
    pub id: String,
    /// What the page is called: a character's or place's name, a lore entry's first alias.
    pub title: String,
    /// Every name of it the reader links, longest first, none shorter than two characters.
    pub names: Vec<String>,
}

pub fn codex_names(conn: &Connection) -> Result<Vec<CodexName>, StoreError> {
    let mut out = Vec::new();
    for c in store::list_characters(conn)? {
        let names = names_of(std::iter::once(&c.name).chain(&c.aliases));
        out.push(CodexName {
            id: c.id,
            title: c.name,
            names,
        });
    }
    for l in store::list_locations(conn)? {
        let names = names_of(std::iter::once(&l.name).chain(&l.aliases));
        out.push(CodexName {
            id: l.id,
            title: l.name,
            names,
        });
    }
    for f in store::list_lore(conn)? {
        let names = names_of(&f.aliases);
        if let Some(first) = names.first().cloned() {
            out.push(CodexName {
                id: f.id,
                title: first,
                names,
            });
        }
    }
    out.retain(|n| !n.names.is_empty());
    Ok(out)
}

/// Trimmed, unique (case aside), at least two characters, longest first.
fn names_of<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let n = n.trim();
        if n.chars().count() >= 2 && !out.iter().any(|o| o.eq_ignore_ascii_case(n)) {
            out.push(n.to_string());
        }
    }
    out.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::fixed_book;
    use crate::memory::{self, NewCharacter, NewLore};

    #[test]
    fn characters_places_and_named_lore_come_with_their_aliases_longest_first() {
        let (_tmp, mut novel) = fixed_book();
        {
            let store = novel.store_mut().unwrap();
            let tx = store.transaction().unwrap();
            let bram = NewCharacter {
                name: "Bram Hollis".into(),
                aliases: vec!["Bram".into(), " bram ".into(), "B".into()],
                ..Default::default()
            };
            memory::create_character(&tx, bram, 2, "extraction").unwrap();
            let lore = |fact: &str, keywords: &[&str], aliases: &[&str]| NewLore {
                fact: fact.into(),
                category: "custom".into(),
                importance: Default::default(),
                keywords: keywords.iter().map(|s| s.to_string()).collect(),
                aliases: aliases.iter().map(|s| s.to_string()).collect(),
                always_on: false,
            };
            let bells = lore(
                "The tide bells ring when the sea wall leaks.",
                &["sea"],
                &["tide bells"],
            );
            memory::add_lore(&tx, bells, 2, None, "extraction").unwrap();
            let unnamed = lore("Salt is taxed at the gate.", &["salt"], &[]);
            memory::add_lore(&tx, unnamed, 2, None, "extraction").unwrap();
            tx.commit().unwrap();
        }
        let names = codex_names(novel.store().conn()).unwrap();
        let of = |title: &str| {
            names
                .iter()
                .find(|n| n.title == title)
                .map(|n| n.names.clone())
        };
        assert_eq!(
            of("Bram Hollis"),
            Some(vec!["Bram Hollis".to_string(), "Bram".to_string()]),
            "repeats and one-letter names are left out"
        );
        assert_eq!(of("tide bells"), Some(vec!["tide bells".to_string()]));
        assert!(
            !names
                .iter()
                .any(|n| n.names.iter().any(|x| x == "salt" || x == "sea")),
            "a lore entry's keywords are not names"
        );
        let places = store::list_locations(novel.store().conn()).unwrap();
        assert!(
            names
                .iter()
                .any(|n| n.id == places[0].id && n.title == places[0].name)
        );
    }
}
