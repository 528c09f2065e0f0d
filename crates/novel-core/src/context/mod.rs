//! The context builder (seed 000 §4.2, seed 001 §2): what the LLM calls of a tick know about
//! the story. [`gather`] reads the store into bounded, pre-rendered sections — foundation,
//! overall summary, recent scenes, the previous scene's last words, open loops, the POV
//! character, their relationships, the place, triggered lore, known entities — and the tick
//! adds what it learns later (the plan, tool results, the writer's note). Every section has a
//! token budget, so a prompt built from a [`StoryContext`] stays the same size at scene 300 as
//! at scene 10. The prompt templates decide which sections each role sees.

mod budget;
mod gather;
mod lore;
mod render;
mod summary;
mod tool_results;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde_json::Value;

pub use budget::{ContextBudgets, Section, SectionKind, SectionReport, TRIM_MARKER};
pub use gather::{Focus, gather, gather_with};
pub use summary::{FirstBullets, SummaryLine, SummarySource};

use crate::config::{Foundation, GenerationSettings};
use crate::model::LoreFact;
use crate::plan::Plan;
use budget::{Keep, fit_items};

/// An entity the context is centred on, by id and display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityRef {
    pub id: String,
    pub name: String,
}

/// Everything one tick's prompts may draw on, already bounded.
#[derive(Debug, Clone)]
pub struct StoryContext {
    /// The tick being generated (the last committed tick + 1).
    pub tick: u32,
    pub foundation: Foundation,
    pub generation: GenerationSettings,
    /// Whose eyes the scene is seen through, if anyone's yet.
    pub pov: Option<EntityRef>,
    /// Where the scene happens, if known.
    pub location: Option<EntityRef>,
    /// `(tick, tension 1–10)` of the latest scenes, oldest first: the pressure curve the
    /// planner escalates.
    pub recent_tensions: Vec<(u32, Option<u8>)>,
    /// The plan the writer renders, once there is one.
    pub plan: Option<Plan>,
    budgets: ContextBudgets,
    sections: BTreeMap<SectionKind, Section>,
    lore_pool: Vec<LoreFact>,
    /// What the story is about right now; lore whose keywords occur here is included.
    lore_trigger: String,
}

impl StoryContext {
    /// The rendered text of a section ("" when the story has nothing for it).
    pub fn text(&self, kind: SectionKind) -> &str {
        self.sections.get(&kind).map_or("", |s| s.text.as_str())
    }

    /// Size, budget and trimming of every section, in preview order.
    pub fn sections(&self) -> Vec<SectionReport> {
        SectionKind::ALL
            .iter()
            .map(|&kind| {
                let section = self.sections.get(&kind).cloned().unwrap_or_default();
                SectionReport {
                    name: kind.as_str().to_string(),
                    tokens: section.tokens,
                    budget: self.budgets.of(kind),
                    trimmed: section.trimmed,
                }
            })
            .collect()
    }

    pub fn budgets(&self) -> &ContextBudgets {
        &self.budgets
    }

    /// Adds what the plan's tools returned, as `(tool name, output)` in call order.
    pub fn with_tool_results(mut self, results: &[(String, Value)]) -> StoryContext {
        let items = tool_results::render(results);
        self.set(
            SectionKind::ToolResults,
            fit_items(items, self.budgets.tool_results, Keep::Head),
        );
        self
    }

    /// Adds the writer's steering note for the next scene; blank notes are ignored.
    pub fn with_steering(mut self, note: Option<&str>) -> StoryContext {
        let note = note.map(str::trim).filter(|n| !n.is_empty());
        let section = match note {
            Some(note) => {
                self.lore_trigger.push('\n');
                self.lore_trigger.push_str(note);
                fit_items(vec![note.to_string()], self.budgets.steering, Keep::Head)
            }
            None => Section::default(),
        };
        self.set(SectionKind::Steering, section);
        self.refresh_lore();
        self
    }

    /// Adds the plan the writer is to render. Its POV and place should be the ones this
    /// context was gathered for: gather with [`Focus::of_plan`] before writing.
    pub fn with_plan(mut self, plan: &Plan) -> StoryContext {
        self.lore_trigger.push('\n');
        self.lore_trigger.push_str(&plan.scene_intention);
        for outcome in &plan.expected_outcomes {
            self.lore_trigger.push('\n');
            self.lore_trigger.push_str(outcome);
        }
        self.plan = Some(plan.clone());
        self.refresh_lore();
        self
    }

    fn set(&mut self, kind: SectionKind, section: Section) {
        self.sections.insert(kind, section);
    }

    fn refresh_lore(&mut self) {
        let facts = lore::triggered(&self.lore_pool, &self.lore_trigger);
        let section = fit_items(render::lore(&facts), self.budgets.lore, Keep::Head);
        self.set(SectionKind::Lore, section);
    }
}
