//! `novel.toml`: a novel's foundation (the premise and voice the whole book is written in), its
//! generation settings, the provider profile of each role and its spending limits. It holds no secrets: provider profiles and keys live in the user's
//! config directory, never in a novel directory that might be shared or committed.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod budgets;
mod invalid;
mod roles;

pub use budgets::{ContextBudgets, SectionKind};
pub use invalid::InvalidSetting;
pub use roles::{BudgetConfig, Role, RoleProfiles, UnknownRole};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NovelConfig {
    pub novel: Foundation,
    #[serde(default)]
    pub generation: GenerationSettings,
    /// The provider profile of each role; the default profile where unset.
    #[serde(default, skip_serializing_if = "RoleProfiles::is_empty")]
    pub models: RoleProfiles,
    /// Spending limits per run and per novel.
    #[serde(default, skip_serializing_if = "BudgetConfig::is_unlimited")]
    pub budget: BudgetConfig,
}

/// The immutable premise of the book and the voice it is told in.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Foundation {
    pub title: String,
    /// The author's name as exports print it (title page, running header); may be empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub author: String,
    #[serde(default)]
    pub genre: String,
    #[serde(default)]
    pub premise: String,
    #[serde(default)]
    pub setting: String,
    #[serde(default)]
    pub tone: String,
    #[serde(default)]
    pub style: String,
    #[serde(default)]
    pub pov: PointOfView,
    #[serde(default)]
    pub tense: Tense,
    #[serde(default = "default_language")]
    pub language: String,
    /// What the story is about underneath, in a few words each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub themes: Vec<String>,
    /// The writer's standing guidance (style rules, banned words, "keep the magic subtle"): in
    /// every planner and writer prompt until changed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub author_note: String,
}

fn default_language() -> String {
    "English".to_string()
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointOfView {
    /// Close third person, limited to the POV character's perceptions.
    #[default]
    DeepThird,
    First,
}

impl PointOfView {
    pub fn parse(s: &str) -> Option<PointOfView> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "_")
            .as_str()
        {
            "deep_third" | "third" | "third_limited" => Some(PointOfView::DeepThird),
            "first" | "first_person" => Some(PointOfView::First),
            _ => None,
        }
    }
}

impl fmt::Display for PointOfView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PointOfView::DeepThird => "deep third person",
            PointOfView::First => "first person",
        })
    }
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Tense {
    #[default]
    Past,
    Present,
}

impl Tense {
    pub fn parse(s: &str) -> Option<Tense> {
        match s.trim().to_ascii_lowercase().as_str() {
            "past" => Some(Tense::Past),
            "present" => Some(Tense::Present),
            _ => None,
        }
    }
}

impl fmt::Display for Tense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tense::Past => "past",
            Tense::Present => "present",
        })
    }
}

/// How each tick is generated. Defaults: 500–900 words, 3 tools, 3 recent scenes, no review
/// before commit, and the context budgets of [`ContextBudgets::default`].
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenerationSettings {
    pub target_words_min: u32,
    pub target_words_max: u32,
    pub max_tools_per_tick: u32,
    pub recent_scenes_count: u32,
    pub include_overall_summary: bool,
    /// A second opinion on every scene: an LLM critic confirms or dismisses the checks'
    /// findings and reports breaks they missed (one more call per scene; off by default).
    pub critic: bool,
    /// Review mode: each tick pauses for the writer to accept its plan, then its scene and
    /// memory changes, before anything is committed. Off by default.
    pub review_before_commit: bool,
    /// Token budget per context section (`[generation.context]`); only what differs from the
    /// defaults is written back.
    #[serde(skip_serializing_if = "ContextBudgets::is_default")]
    pub context: ContextBudgets,
}

impl Default for GenerationSettings {
    fn default() -> Self {
        GenerationSettings {
            target_words_min: 500,
            target_words_max: 900,
            max_tools_per_tick: 3,
            recent_scenes_count: 3,
            include_overall_summary: true,
            critic: false,
            review_before_commit: false,
            context: ContextBudgets::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}{}", read_advice(source))]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
    /// A novel's own `novel.toml` that does not parse or validate: the message (with the line,
    /// for a syntax error) plus what to do about it.
    #[error(
        "{path} is not valid: {message}\nEdit {path} in a text editor to fix this, then try again. The story itself is in novel.db and is not affected."
    )]
    InvalidFile { path: PathBuf, message: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn read_advice(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::InvalidData => {
            ". It is not UTF-8 text: open it in a text editor and save it as UTF-8"
        }
        std::io::ErrorKind::PermissionDenied => ". Make the file readable by you",
        _ => "",
    }
}

impl NovelConfig {
    pub fn load(path: &Path) -> Result<NovelConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path).map_err(|e| match e {
            ConfigError::Invalid { path, message } => ConfigError::InvalidFile { path, message },
            other => other,
        })
    }

    /// Parses and validates; `path` is only used to name the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<NovelConfig, ConfigError> {
        let config: NovelConfig = toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string().trim().to_string(),
        })?;
        config.validate().map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(config)
    }

    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let text = toml::to_string_pretty(self).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|source| ConfigError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Checks the rules serde cannot express; the error names the offending key.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.novel.title.trim().is_empty() {
            return Err(InvalidSetting::new("novel.title", "must not be empty"));
        }
        if self.novel.language.trim().is_empty() {
            return Err(InvalidSetting::new("novel.language", "must not be empty"));
        }
        if let Some(problem) = self.budget.problem() {
            return Err(problem);
        }
        let g = &self.generation;
        if g.target_words_min == 0 || g.target_words_min > g.target_words_max {
            return Err(InvalidSetting::new(
                "generation.target_words_min",
                format!(
                    "({}) must be at least 1 and not above target_words_max ({})",
                    g.target_words_min, g.target_words_max
                ),
            ));
        }
        if g.target_words_max > 10_000 {
            return Err(InvalidSetting::new(
                "generation.target_words_max",
                format!(
                    "({}) is above the limit of 10000 words per scene",
                    g.target_words_max
                ),
            ));
        }
        if g.max_tools_per_tick == 0 || g.max_tools_per_tick > 20 {
            return Err(InvalidSetting::new(
                "generation.max_tools_per_tick",
                format!("({}) must be between 1 and 20", g.max_tools_per_tick),
            ));
        }
        if g.recent_scenes_count > 50 {
            return Err(InvalidSetting::new(
                "generation.recent_scenes_count",
                format!("({}) must be at most 50", g.recent_scenes_count),
            ));
        }
        g.context.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::CONFIG_FILE;

    fn parse(text: &str) -> Result<NovelConfig, ConfigError> {
        NovelConfig::parse(text, Path::new("/n/novel.toml"))
    }

    #[test]
    fn defaults_follow_the_seeds() {
        let c = parse("[novel]\ntitle = \"T\"\n").unwrap();
        assert_eq!(c.generation.target_words_min, 500);
        assert_eq!(c.generation.target_words_max, 900);
        assert_eq!(c.generation.max_tools_per_tick, 3);
        assert_eq!(c.generation.recent_scenes_count, 3);
        assert!(c.generation.include_overall_summary);
        assert!(
            !c.generation.review_before_commit,
            "review mode is off unless asked for"
        );
        assert_eq!(c.novel.pov, PointOfView::DeepThird);
        assert_eq!(c.novel.language, "English");
    }

    #[test]
    fn review_mode_is_saved_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        let mut c = parse("[novel]\ntitle = \"T\"\n").unwrap();
        c.generation.review_before_commit = true;
        c.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("review_before_commit = true"), "{text}");
        assert!(
            NovelConfig::load(&path)
                .unwrap()
                .generation
                .review_before_commit
        );
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let err = parse("[novel]\ntitle = \"T\"\npov = \"second\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/n/novel.toml"), "{err}");
        assert!(err.contains("pov") || err.contains("second"), "{err}");

        let err = parse("[novel]\ntitle = \"T\"\n[generation]\ntarget_words_min = 1000\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("target_words_min"), "{err}");

        let err = parse("[novel]\ntitle = \"T\"\ntitel = \"typo\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("titel"), "{err}");

        let err = parse("[novel]\ntitle = \"  \"\n").unwrap_err().to_string();
        assert!(err.contains("title"), "{err}");
    }

    #[test]
    fn a_broken_novel_toml_names_the_file_the_line_and_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        std::fs::write(&path, "[novel]\ntitle = \"Salt\"\ngenre = \"noir\n").unwrap();
        let err = NovelConfig::load(&path).unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert!(err.contains("line 3"), "the line is named: {err}");
        assert!(
            err.contains("Edit") && err.contains("in novel.db and is not affected"),
            "what to do: {err}"
        );

        std::fs::write(&path, b"[novel]\ntitle = \"\xff\"\n").unwrap();
        let err = NovelConfig::load(&path).unwrap_err().to_string();
        assert!(err.contains("save it as UTF-8"), "{err}");
    }

    #[test]
    fn context_budgets_are_optional_per_section_and_validated() {
        let c = parse("[novel]\ntitle = \"T\"\n").unwrap();
        assert_eq!(c.generation.context, ContextBudgets::default());

        let c = parse("[novel]\ntitle = \"T\"\n[generation.context]\nrecent = 120\nlore = 40\n")
            .unwrap();
        let expected = ContextBudgets {
            recent: 120,
            lore: 40,
            ..ContextBudgets::default()
        };
        assert_eq!(
            c.generation.context, expected,
            "unset sections keep their defaults"
        );

        let err = parse("[novel]\ntitle = \"T\"\n[generation.context]\ncharacters = 100\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("/n/novel.toml")
                && err.contains("`characters`")
                && err.contains("`character`"),
            "an unknown section is named, with the known ones: {err}"
        );

        let err = parse("[novel]\ntitle = \"T\"\n[generation.context]\nsummary = 3\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("[generation.context] summary (3)") && err.contains("between 16"),
            "{err}"
        );
        let err = parse("[novel]\ntitle = \"T\"\n[generation.context]\nrecent = 1000000\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("recent (1000000)"), "{err}");
    }

    #[test]
    fn default_budgets_are_not_written_and_changed_ones_round_trip() {
        let mut c = parse("[novel]\ntitle = \"T\"\n").unwrap();
        let text = toml::to_string_pretty(&c).unwrap();
        assert!(!text.contains("context"), "{text}");
        c.generation.context.tool_results = 900;
        let text = toml::to_string_pretty(&c).unwrap();
        assert!(
            text.contains("[generation.context]") && text.contains("tool_results = 900"),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), c);
    }

    #[test]
    fn round_trips_through_toml() {
        let mut c =
            parse("[novel]\ntitle = \"T\"\npov = \"first\"\ntense = \"present\"\n").unwrap();
        c.generation.recent_scenes_count = 5;
        let text = toml::to_string_pretty(&c).unwrap();
        assert_eq!(parse(&text).unwrap(), c);
    }
}
