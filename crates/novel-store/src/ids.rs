//! Stable short entity ids (`C0`, `L3`, `R12`, …). The store is the only place that mints them;
//! anything that arrives from outside (LLM output, CLI arguments, file names) is parsed here
//! before it may touch a query or a path, so a hostile id can never escape into SQL or the disk.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kinds of things that carry an id, each with its one-letter prefix.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    Character,
    Location,
    Relationship,
    Loop,
    Lore,
    Scene,
}

impl EntityKind {
    pub const ALL: [EntityKind; 6] = [
        EntityKind::Character,
        EntityKind::Location,
        EntityKind::Relationship,
        EntityKind::Loop,
        EntityKind::Lore,
        EntityKind::Scene,
    ];

    pub fn prefix(self) -> char {
        match self {
            EntityKind::Character => 'C',
            EntityKind::Location => 'L',
            EntityKind::Relationship => 'R',
            EntityKind::Loop => 'O',
            EntityKind::Lore => 'W',
            EntityKind::Scene => 'S',
        }
    }

    pub fn from_prefix(prefix: char) -> Option<EntityKind> {
        EntityKind::ALL.into_iter().find(|k| k.prefix() == prefix)
    }

    /// The word used in messages and in the `kind` column of the search index.
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Character => "character",
            EntityKind::Location => "location",
            EntityKind::Relationship => "relationship",
            EntityKind::Loop => "loop",
            EntityKind::Lore => "lore",
            EntityKind::Scene => "scene",
        }
    }

    pub fn parse_word(word: &str) -> Option<EntityKind> {
        let w = word.trim().to_ascii_lowercase();
        let w = w.strip_suffix('s').unwrap_or(&w);
        EntityKind::ALL
            .into_iter()
            .find(|k| k.as_str() == w || (w == "open_loop" && *k == EntityKind::Loop))
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validated id: one known prefix letter followed by 1–9 decimal digits without leading zeros.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EntityId {
    kind: EntityKind,
    number: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{input}` is not a valid id: expected a letter (C, L, R, O, W or S) followed by a number, like C0 or L12"
)]
pub struct InvalidId {
    pub input: String,
}

impl EntityId {
    pub fn new(kind: EntityKind, number: u32) -> EntityId {
        EntityId { kind, number }
    }

    pub fn kind(&self) -> EntityKind {
        self.kind
    }

    pub fn number(&self) -> u32 {
        self.number
    }

    /// Parses an id that must be of one kind, e.g. a `character_id` argument.
    pub fn parse_kind(input: &str, kind: EntityKind) -> Result<EntityId, InvalidId> {
        let id: EntityId = input.parse()?;
        if id.kind == kind {
            Ok(id)
        } else {
            Err(InvalidId {
                input: input.to_string(),
            })
        }
    }
}

impl FromStr for EntityId {
    type Err = InvalidId;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let err = || InvalidId {
            input: input.chars().take(40).collect(),
        };
        let trimmed = input.trim();
        let mut chars = trimmed.chars();
        let prefix = chars.next().ok_or_else(err)?.to_ascii_uppercase();
        let kind = EntityKind::from_prefix(prefix).ok_or_else(err)?;
        let digits = chars.as_str();
        let valid_digits = !digits.is_empty()
            && digits.len() <= 9
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !(digits.len() > 1 && digits.starts_with('0'));
        if !valid_digits {
            return Err(err());
        }
        let number = digits.parse().map_err(|_| err())?;
        Ok(EntityId { kind, number })
    }
}

impl TryFrom<String> for EntityId {
    type Error = InvalidId;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl From<EntityId> for String {
    fn from(id: EntityId) -> String {
        id.to_string()
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.prefix(), self.number)
    }
}

/// Whether `text` is shaped like an id the engine mints (`C3`, `L0`, `B12`; two letters at
/// most), whatever it names: such a token means nothing to a writer, so a note says what it
/// stands for instead, and the guards on writer-facing text look for it.
pub fn looks_like_id(text: &str) -> bool {
    let letters = text.chars().take_while(char::is_ascii_uppercase).count();
    (1..=2).contains(&letters)
        && text.len() > letters
        && text[letters..].chars().all(|c| c.is_ascii_digit())
}

/// The tokens of `text` shaped like ids (see [`looks_like_id`]), for tests that guard what a
/// writer reads.
pub fn raw_ids(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| looks_like_id(w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_round_trip() {
        for s in ["C0", "L12", "R3", "O7", "W1", "S42"] {
            assert_eq!(s.parse::<EntityId>().unwrap().to_string(), s);
        }
        assert_eq!("c4".parse::<EntityId>().unwrap().to_string(), "C4");
    }

    #[test]
    fn rejects_hostile_or_malformed_ids() {
        for s in [
            "",
            "C",
            "X1",
            "C01",
            "C-1",
            "../C1",
            "C1/..",
            "C1; DROP TABLE",
            "C1234567890",
            "C١",
        ] {
            assert!(s.parse::<EntityId>().is_err(), "{s:?} should be rejected");
        }
    }

    #[test]
    fn parse_kind_checks_the_prefix() {
        assert!(EntityId::parse_kind("C1", EntityKind::Character).is_ok());
        assert!(EntityId::parse_kind("L1", EntityKind::Character).is_err());
    }

    #[test]
    fn kind_words_parse_in_singular_and_plural() {
        assert_eq!(
            EntityKind::parse_word("characters"),
            Some(EntityKind::Character)
        );
        assert_eq!(EntityKind::parse_word("Loop"), Some(EntityKind::Loop));
        assert_eq!(EntityKind::parse_word("dragons"), None);
    }
}
