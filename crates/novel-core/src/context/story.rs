//! What one tick's prompts may draw on: the [`StoryContext`] that [`super::gather`] fills with
//! bounded sections and the tick adds to (the plan, tool results, the writer's note, the
//! recalled passages), and the entities it is centred on.

use std::collections::BTreeMap;

use serde_json::Value;

use super::budget::{self, ContextBudgets, Keep, Section, SectionKind, SectionReport, fit_items};
use super::mentions::{self, Mentionable};
use super::{lore, render, scene_loops, tool_results};
use crate::config::{Foundation, GenerationSettings};
use crate::ids::EntityKind;
use crate::model::SceneBrief;
use crate::model::{LoreFact, OpenLoop};
use crate::retrieval::RecallQuery;
use crate::store::{SearchFilter, SearchHit};

/// Passages asked for; the budget decides how many are shown.
const RECALL_LIMIT: u32 = 8;

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
    pub plan: Option<SceneBrief>,
    pub(super) budgets: ContextBudgets,
    pub(super) sections: BTreeMap<SectionKind, Section>,
    pub(super) lore_pool: Vec<LoreFact>,
    /// Every open loop, for the extractor's list ranked by what its scene touches.
    pub(super) loop_pool: Vec<OpenLoop>,
    /// What the story is about right now; lore whose keywords occur here is included, and
    /// characters and places named here are reminded of.
    pub(super) lore_trigger: String,
    pub(super) mention_pool: Vec<Mentionable>,
    /// What the next scene is about, for recall: the last scene's summary, the note, the plan.
    pub(super) recall_text: String,
    /// The first tick shown in detail; recall looks only before it.
    pub(super) recall_before: Option<u32>,
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
                self.recall_text.push('\n');
                self.recall_text.push_str(note);
                fit_items(vec![note.to_string()], self.budgets.steering, Keep::Head)
            }
            None => Section::default(),
        };
        self.set(SectionKind::Steering, section);
        self.refresh_triggered();
        self
    }

    /// Adds the plan the writer is to render. Its POV and place should be the ones this
    /// context was gathered for: gather with [`super::Focus::of_plan`] before writing.
    pub fn with_plan(mut self, plan: impl Into<SceneBrief>) -> StoryContext {
        let plan: SceneBrief = plan.into();
        for text in std::iter::once(&plan.scene_intention).chain(&plan.expected_outcomes) {
            self.lore_trigger.push('\n');
            self.lore_trigger.push_str(text);
            self.recall_text.push('\n');
            self.recall_text.push_str(text);
        }
        self.plan = Some(plan);
        self.refresh_triggered();
        self
    }

    /// The open loops as the extractor reading `prose` sees them: those the scene and its plan
    /// (add the plan first) touch first, every loop listed at least by id and question while the
    /// loops budget allows (see [`scene_loops`]). This list depends on the scene, so templates
    /// put it after what stays the same from tick to tick.
    pub fn with_scene(mut self, prose: &str) -> StoryContext {
        let mut scene = prose.to_string();
        if let Some(plan) = &self.plan {
            for text in std::iter::once(&plan.scene_intention).chain(&plan.expected_outcomes) {
                scene.push('\n');
                scene.push_str(text);
            }
        }
        let ranked = scene_loops::ranked(&self.loop_pool, &scene, self.tick);
        let section = scene_loops::fit(&ranked, self.budgets.loops);
        self.set(SectionKind::Loops, section);
        self
    }

    /// What to search the memory for to fill the "recalled" section; `None` before the first
    /// scene (there is nothing earlier to recall).
    pub fn recall_query(&self) -> Option<RecallQuery> {
        let before = self.recall_before?;
        let text = self.recall_text.trim();
        if text.is_empty() || before <= 1 {
            return None;
        }
        Some(RecallQuery {
            text: text.to_string(),
            filter: SearchFilter {
                kinds: vec![EntityKind::Scene],
                from_tick: None,
                to_tick: Some(before - 1),
            },
            limit: RECALL_LIMIT,
        })
    }

    /// Adds the passages recalled for [`Self::recall_query`], most relevant first.
    pub fn with_recalled(mut self, hits: &[SearchHit]) -> StoryContext {
        let section = fit_items(render::recalled(hits), self.budgets.recalled, Keep::Head);
        self.set(SectionKind::Recalled, section);
        self
    }

    fn set(&mut self, kind: SectionKind, section: Section) {
        self.sections.insert(kind, section);
    }

    /// Lore and mentioned entities follow what the scene is about; call after adding to it.
    pub(super) fn refresh_triggered(&mut self) {
        let facts = lore::triggered(&self.lore_pool, &self.lore_trigger);
        let section = fit_items(render::lore(&facts), self.budgets.lore, Keep::Head);
        self.set(SectionKind::Lore, section);
        let named = mentions::mentioned(&self.mention_pool, &self.lore_trigger);
        let section = budget::fit_in_id_order(named, self.budgets.mentioned);
        self.set(SectionKind::Mentioned, section);
    }
}
