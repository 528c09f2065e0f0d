//! The token budget of every section of a story context, and the list of those sections: part
//! of a novel's generation settings (`[generation.context]` in `novel.toml`), read by the
//! context builder that enforces them.

use serde::{Deserialize, Serialize};

/// The token budget of every context section. The defaults keep a planner prompt near 2,000
/// tokens however long the novel grows: the sections that grow with the world (summary, loops,
/// relationships, lore, known entities, recalled and mentioned) are sized so that a 300-scene
/// novel's prompt is within 1.3× a 10-scene one's (see BENCHMARKS.md). A novel can change any of
/// them in `novel.toml` (`[generation.context]`, see [`crate::config::GenerationSettings`]).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextBudgets {
    pub foundation: u32,
    pub summary: u32,
    pub recent: u32,
    pub previous_tail: u32,
    pub loops: u32,
    pub character: u32,
    pub relationships: u32,
    pub location: u32,
    pub lore: u32,
    pub tool_results: u32,
    pub steering: u32,
    pub entities: u32,
    /// Earlier passages that hybrid search finds relevant to what comes next.
    pub recalled: u32,
    /// Characters and places the recent text or the plan mentions by name or alias.
    pub mentioned: u32,
    /// The writer's standing guidance.
    pub author_note: u32,
    /// The next beats of the outline.
    pub outline: u32,
    /// Clocks and inevitable events.
    pub pressure: u32,
}

impl Default for ContextBudgets {
    fn default() -> Self {
        ContextBudgets {
            foundation: 300,
            summary: 250,
            recent: 700,
            previous_tail: 250,
            loops: 120,
            character: 350,
            relationships: 100,
            location: 200,
            lore: 100,
            tool_results: 700,
            steering: 150,
            entities: 120,
            recalled: 300,
            mentioned: 120,
            author_note: 200,
            outline: 120,
            pressure: 120,
        }
    }
}

impl ContextBudgets {
    /// The smallest budget a section may have: room for the trim marker and a few words.
    pub const MIN: u32 = 16;
    /// The largest budget a section may have; more would defeat the point of bounding prompts.
    pub const MAX: u32 = 32_000;

    pub fn is_default(&self) -> bool {
        *self == ContextBudgets::default()
    }

    /// Every budget between [`Self::MIN`] and [`Self::MAX`]; the error names the section.
    pub fn validate(&self) -> Result<(), super::InvalidSetting> {
        for kind in SectionKind::ALL {
            let budget = self.of(kind);
            if !(Self::MIN..=Self::MAX).contains(&budget) {
                return Err(super::InvalidSetting::new(
                    format!("generation.context.{}", kind.as_str()),
                    format!(
                        "({budget}) must be between {} and {} tokens",
                        Self::MIN,
                        Self::MAX
                    ),
                ));
            }
        }
        Ok(())
    }

    pub fn of(&self, kind: SectionKind) -> u32 {
        match kind {
            SectionKind::Foundation => self.foundation,
            SectionKind::Summary => self.summary,
            SectionKind::Recent => self.recent,
            SectionKind::PreviousTail => self.previous_tail,
            SectionKind::Loops => self.loops,
            SectionKind::Character => self.character,
            SectionKind::Relationships => self.relationships,
            SectionKind::Location => self.location,
            SectionKind::Lore => self.lore,
            SectionKind::ToolResults => self.tool_results,
            SectionKind::Steering => self.steering,
            SectionKind::Entities => self.entities,
            SectionKind::Recalled => self.recalled,
            SectionKind::Mentioned => self.mentioned,
            SectionKind::AuthorNote => self.author_note,
            SectionKind::Outline => self.outline,
            SectionKind::Pressure => self.pressure,
        }
    }
}

/// The sections of a story context, in the order a preview lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionKind {
    Foundation,
    Summary,
    Recent,
    PreviousTail,
    Loops,
    Character,
    Relationships,
    Location,
    Lore,
    ToolResults,
    Steering,
    Entities,
    Recalled,
    Mentioned,
    AuthorNote,
    Outline,
    Pressure,
}

impl SectionKind {
    pub const ALL: [SectionKind; 17] = [
        SectionKind::Foundation,
        SectionKind::Summary,
        SectionKind::Recent,
        SectionKind::PreviousTail,
        SectionKind::Loops,
        SectionKind::Character,
        SectionKind::Relationships,
        SectionKind::Location,
        SectionKind::Lore,
        SectionKind::ToolResults,
        SectionKind::Steering,
        SectionKind::Entities,
        SectionKind::Recalled,
        SectionKind::Mentioned,
        SectionKind::AuthorNote,
        SectionKind::Outline,
        SectionKind::Pressure,
    ];

    /// The name templates and previews use.
    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::Foundation => "foundation",
            SectionKind::Summary => "summary",
            SectionKind::Recent => "recent",
            SectionKind::PreviousTail => "previous_tail",
            SectionKind::Loops => "loops",
            SectionKind::Character => "character",
            SectionKind::Relationships => "relationships",
            SectionKind::Location => "location",
            SectionKind::Lore => "lore",
            SectionKind::ToolResults => "tool_results",
            SectionKind::Steering => "steering",
            SectionKind::Entities => "entities",
            SectionKind::Recalled => "recalled",
            SectionKind::Mentioned => "mentioned",
            SectionKind::AuthorNote => "author_note",
            SectionKind::Outline => "outline",
            SectionKind::Pressure => "pressure",
        }
    }
}
