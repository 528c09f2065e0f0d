//! Entities pulled in by name, the way lore is pulled in by keyword: a character or place that
//! the recent scenes, the previous scene's last lines, the plan or the writer's note mention —
//! by full name, an alias, or a character's first name — gets a one-line reminder of who or
//! what it is, most-mentioned first. The POV character and the scene's place have sections of
//! their own and are left out.

use super::render::{self, Names};
use crate::model::{Character, Location};

/// Words that open names without being names ("Captain Ilse", "The Grey Wharf").
const NOT_A_NAME: &[&str] = &[
    "the", "old", "young", "mr", "mrs", "ms", "miss", "sir", "lady", "lord", "dr", "doctor",
    "captain", "father", "mother", "brother", "sister", "master", "mistress", "saint", "st",
];

/// An entity that may be mentioned: the names it answers to and its reminder line.
#[derive(Debug, Clone)]
pub(crate) struct Mentionable {
    id: String,
    names: Vec<String>,
    item: String,
    last_update_tick: u32,
}

/// Every character and place except those in `excluded` (ids).
pub(crate) fn pool(
    characters: &[Character],
    locations: &[Location],
    names: &Names,
    excluded: &[&str],
) -> Vec<Mentionable> {
    let keep = |id: &str| !excluded.contains(&id);
    let people = characters.iter().filter(|c| keep(&c.id)).map(|c| {
        let mut answers_to = vec![c.name.clone()];
        answers_to.extend(c.aliases.iter().cloned());
        let words: Vec<&str> = c.name.split_whitespace().collect();
        if let Some(first) = words.first().filter(|_| words.len() > 1)
            && first.chars().count() >= 3
            && !NOT_A_NAME.contains(&first.to_lowercase().as_str())
        {
            answers_to.push(first.to_string());
        }
        Mentionable {
            id: c.id.clone(),
            names: lowered(answers_to),
            item: render::mentioned_character(c, names),
            last_update_tick: c.last_update_tick,
        }
    });
    let places = locations.iter().filter(|l| keep(&l.id)).map(|l| {
        let mut answers_to = vec![l.name.clone()];
        answers_to.extend(l.aliases.iter().cloned());
        Mentionable {
            id: l.id.clone(),
            names: lowered(answers_to),
            item: render::mentioned_location(l),
            last_update_tick: l.last_update_tick,
        }
    });
    people.chain(places).collect()
}

fn lowered(names: Vec<String>) -> Vec<String> {
    names
        .into_iter()
        .map(|n| n.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect()
}

/// The entities `text` mentions with their reminder lines: most mentions first, then the most
/// recently active.
pub(crate) fn mentioned<'p>(pool: &'p [Mentionable], text: &str) -> Vec<(&'p str, String)> {
    let haystack = text.to_lowercase();
    let mut hits: Vec<(usize, &Mentionable)> = pool
        .iter()
        .filter_map(|m| {
            let count: usize = m
                .names
                .iter()
                .map(|n| count_words(&haystack, n))
                .max()
                .unwrap_or(0);
            (count > 0).then_some((count, m))
        })
        .collect();
    hits.sort_by_key(|(count, m)| {
        (
            std::cmp::Reverse(*count),
            std::cmp::Reverse(m.last_update_tick),
        )
    });
    hits.into_iter()
        .map(|(_, m)| (m.id.as_str(), m.item.clone()))
        .collect()
}

/// How often `needle` occurs in `haystack` as whole words ("Bram" is not in "Bramble").
fn count_words(haystack: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    haystack
        .match_indices(needle)
        .filter(|(at, _)| {
            let before = haystack[..*at].chars().next_back();
            let after = haystack[at + needle.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Character;

    fn person(id: &str, name: &str, aliases: &[&str], tick: u32) -> Character {
        Character {
            id: id.into(),
            name: name.into(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            role: "dock hand".into(),
            last_update_tick: tick,
            ..Character::default()
        }
    }

    #[test]
    fn names_aliases_and_first_names_pull_entities_in_most_mentioned_first() {
        let people = vec![
            person("C0", "Tamsin Vale", &[], 9),
            person("C1", "Bram Holt", &["the Ox"], 3),
            person("C2", "Captain Ilse Marrow", &[], 5),
            person("C3", "Wren", &[], 7),
        ];
        let names = Names::new();
        let pool = pool(&people, &[], &names, &["C0"]);
        let ids = |text: &str| -> Vec<String> {
            mentioned(&pool, text)
                .iter()
                .map(|(id, line)| {
                    assert!(line.contains(&format!("({id})")), "{line}");
                    id.to_string()
                })
                .collect()
        };
        // The POV is excluded even when named; "Captain" alone names nobody; "Bramble" is not Bram.
        assert!(ids("Tamsin waited. The captain smiled. Bramble grew.").is_empty());
        assert_eq!(ids("The Ox lifted the crate."), vec!["C1"]);
        assert_eq!(
            ids("Wren ran. Bram followed Wren. Ilse Marrow watched Wren."),
            vec!["C3", "C1"]
        );
        assert_eq!(ids("Bram nodded to Captain Ilse Marrow."), vec!["C2", "C1"]);
    }
}
