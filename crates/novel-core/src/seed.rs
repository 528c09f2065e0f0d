//! The seed file `novel new --seed` reads: the foundation, one protagonist, one starting
//! location and a goal, in TOML. Unknown keys are errors so a typo never goes unnoticed.

use std::path::Path;

use serde::Deserialize;

use crate::config::{ConfigError, Foundation, GenerationSettings};
use crate::memory::{NewCharacter, NewLocation, NewLore};
use crate::novel::NovelSeed;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedFile {
    goal: String,
    novel: Foundation,
    #[serde(default)]
    generation: GenerationSettings,
    protagonist: NewCharacter,
    location: NewLocation,
    /// `[[lore]]` entries: fact, keywords, aliases, importance, always_on.
    #[serde(default)]
    lore: Vec<NewLore>,
}

impl NovelSeed {
    /// Parses a seed file; `path` names the file in errors.
    pub fn from_toml(text: &str, path: &Path) -> Result<NovelSeed, ConfigError> {
        let file: SeedFile = toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string().trim().to_string(),
        })?;
        Ok(NovelSeed {
            foundation: file.novel,
            generation: file.generation,
            protagonist: file.protagonist,
            location: file.location,
            goal: file.goal,
            lore: file.lore,
        })
    }

    pub fn load(path: &Path) -> Result<NovelSeed, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_toml(&text, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_file_parses_and_typos_are_named() {
        let text = r#"
goal = "Clear her brother's name"
[novel]
title = "Salt"
[protagonist]
name = "Tamsin Vale"
role = "smuggler"
[location]
name = "Rainmarket Docks"
"#;
        let seed = NovelSeed::from_toml(text, Path::new("seed.toml")).unwrap();
        assert_eq!(seed.protagonist.name, "Tamsin Vale");
        assert_eq!(seed.generation.target_words_max, 900);

        let err = NovelSeed::from_toml(&text.replace("role =", "rolle ="), Path::new("seed.toml"))
            .unwrap_err();
        assert!(
            err.to_string().contains("rolle") && err.to_string().contains("seed.toml"),
            "{err}"
        );
        assert!(seed.lore.is_empty());
    }

    #[test]
    fn a_seed_file_carries_lorebook_entries() {
        let text = r#"
goal = "Clear her brother's name"
[novel]
title = "Salt"
[protagonist]
name = "Tamsin Vale"
[location]
name = "Rainmarket Docks"
[[lore]]
fact = "The tide bells ring thirteen times when the harbour court sits."
keywords = ["tide bell"]
aliases = ["the thirteen bells"]
importance = "high"
[[lore]]
fact = "Magic costs the caster a memory."
always_on = true
"#;
        let seed = NovelSeed::from_toml(text, Path::new("seed.toml")).unwrap();
        assert_eq!(seed.lore.len(), 2);
        assert_eq!(seed.lore[0].aliases, vec!["the thirteen bells"]);
        assert!(!seed.lore[0].always_on && seed.lore[1].always_on);
    }
}
