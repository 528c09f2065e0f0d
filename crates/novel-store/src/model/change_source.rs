//! Who asked for a change to a record: the writer, the extractor, the novel's seed, the writer
//! accepting a review, or a planner's tool by name. Stored in the history table by name.

use serde::{Deserialize, Serialize};

/// Who asked for a change in a record's history, serialized as the history table stores it:
/// one of the named sources, or the name of the tool the planner called
/// (`"character.update"`). The UI compares against [`NamedSource`]'s union, never a loose string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(untagged)]
pub enum ChangeSource {
    Named(NamedSource),
    /// A tool of the planner's, by its name.
    Tool(String),
}

/// The sources of a change that are not a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum NamedSource {
    /// The writer's own edit (`memory::WRITER`).
    Writer,
    /// The extractor's reading of a committed scene.
    Extraction,
    /// The novel's creation from its seed.
    Seed,
    /// A change the writer accepted in review.
    User,
}

impl ChangeSource {
    /// The source a stored name stands for: a name that is none of [`NamedSource`]'s is a tool's.
    pub fn parse(name: &str) -> ChangeSource {
        match serde_json::from_value(serde_json::Value::String(name.to_string())) {
            Ok(source) => ChangeSource::Named(source),
            Err(_) => ChangeSource::Tool(name.to_string()),
        }
    }

    /// Whether the writer made this change by hand.
    pub fn is_writer(&self) -> bool {
        matches!(self, ChangeSource::Named(NamedSource::Writer))
    }

    /// The name the history table stores.
    pub fn as_str(&self) -> &str {
        match self {
            ChangeSource::Named(NamedSource::Writer) => "writer",
            ChangeSource::Named(NamedSource::Extraction) => "extraction",
            ChangeSource::Named(NamedSource::Seed) => "seed",
            ChangeSource::Named(NamedSource::User) => "user",
            ChangeSource::Tool(name) => name,
        }
    }
}

/// A stored or written name: the sources are written where the change is made as the names
/// the history table has always held (`"user"`, a tool's `NAME`).
impl From<&str> for ChangeSource {
    fn from(name: &str) -> ChangeSource {
        ChangeSource::parse(name)
    }
}

impl From<String> for ChangeSource {
    fn from(name: String) -> ChangeSource {
        ChangeSource::parse(&name)
    }
}

/// A source compared with a name as the history table stores it (`source == "user"`).
impl PartialEq<&str> for ChangeSource {
    fn eq(&self, name: &&str) -> bool {
        self.as_str() == *name
    }
}

impl std::fmt::Display for ChangeSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
