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
    /// Who the other characters are (role and looks), for the writer, listed by id so the
    /// section stays the same from scene to scene.
    pub cast: u32,
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
            cast: 250,
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

    /// These budgets, which are in the model's own tokens, in the estimated tokens the context
    /// builder counts with, for a model whose tokenizer counts `tokens_per_estimate` tokens
    /// for each estimated one: a model that needs more tokens for the same text gets less text
    /// (never under [`Self::MIN`]), one that needs fewer gets more. A ratio that is not a
    /// positive number leaves them as they are.
    pub fn for_tokenizer(&self, tokens_per_estimate: f64) -> ContextBudgets {
        if !(tokens_per_estimate.is_finite() && tokens_per_estimate > 0.0) {
            return *self;
        }
        let mut out = *self;
        for kind in SectionKind::ALL {
            let scaled = (f64::from(self.of(kind)) / tokens_per_estimate).floor();
            *out.of_mut(kind) = (scaled as u32).clamp(Self::MIN, Self::MAX);
        }
        out
    }

    /// Every budget between [`Self::MIN`] and [`Self::MAX`]; the error names the section.
    pub fn validate(&self) -> Result<(), super::invalid::InvalidSetting> {
        for kind in SectionKind::ALL {
            let budget = self.of(kind);
            if !(Self::MIN..=Self::MAX).contains(&budget) {
                return Err(super::invalid::InvalidSetting::new(
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
        // A copy is 72 bytes; one match (in `of_mut`) names every section.
        let mut copy = *self;
        *copy.of_mut(kind)
    }

    fn of_mut(&mut self, kind: SectionKind) -> &mut u32 {
        match kind {
            SectionKind::Foundation => &mut self.foundation,
            SectionKind::Summary => &mut self.summary,
            SectionKind::Recent => &mut self.recent,
            SectionKind::PreviousTail => &mut self.previous_tail,
            SectionKind::Loops => &mut self.loops,
            SectionKind::Character => &mut self.character,
            SectionKind::Relationships => &mut self.relationships,
            SectionKind::Location => &mut self.location,
            SectionKind::Lore => &mut self.lore,
            SectionKind::ToolResults => &mut self.tool_results,
            SectionKind::Steering => &mut self.steering,
            SectionKind::Entities => &mut self.entities,
            SectionKind::Recalled => &mut self.recalled,
            SectionKind::Mentioned => &mut self.mentioned,
            SectionKind::AuthorNote => &mut self.author_note,
            SectionKind::Outline => &mut self.outline,
            SectionKind::Pressure => &mut self.pressure,
            SectionKind::Cast => &mut self.cast,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_in_model_tokens_become_estimated_tokens_by_the_models_ratio() {
        let budgets = ContextBudgets::default();
        let wordy = budgets.for_tokenizer(2.0);
        assert_eq!(wordy.recent, budgets.recent / 2);
        assert_eq!(wordy.foundation, budgets.foundation / 2);
        let terse = budgets.for_tokenizer(0.8);
        assert_eq!(terse.recent, 875);
        // Never below the least a section may have, never above the most.
        let tiny = ContextBudgets {
            loops: 20,
            ..budgets
        }
        .for_tokenizer(3.0);
        assert_eq!(tiny.loops, ContextBudgets::MIN);
        let huge = ContextBudgets {
            recent: ContextBudgets::MAX,
            ..budgets
        }
        .for_tokenizer(0.5);
        assert_eq!(huge.recent, ContextBudgets::MAX);
        for nonsense in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(budgets.for_tokenizer(nonsense), budgets, "{nonsense}");
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
    Cast,
}

impl SectionKind {
    pub const ALL: [SectionKind; 18] = [
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
        SectionKind::Cast,
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
            SectionKind::Cast => "cast",
        }
    }
}
