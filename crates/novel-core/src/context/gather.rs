//! Reading the store into a [`StoryContext`]: which character and place the tick centres on,
//! which scenes are shown in detail and which only as summary lines, and each section cut to
//! its budget. Reads only; pass the tick's transaction to see what its tools created.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::budget::{
    ContextBudgets, Keep, Section, SectionKind, fit_counting, fit_in_id_order, fit_items,
};
use super::mentions;
use super::render::{self, Names};
use super::rollup::Rollups;
use super::story::{EntityRef, StoryContext};
use super::summary::{SummarySource, bounded_summary};
use crate::config::NovelConfig;
use crate::evaluate;
use crate::model::SceneBrief;
use crate::model::{Character, LoopStatus};
use crate::store::{self, StoreError};

/// Scenes whose tension the planner sees, at least, whatever `recent_scenes_count` is: the
/// "escalate every 2–3 ticks" rule needs three points of the curve.
const TENSION_WINDOW: u32 = 3;

/// Whose scene and where. Unset fields fall back to the story state's active character and
/// that character's last known location.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Focus {
    pub pov: Option<String>,
    pub location: Option<String>,
}

impl Focus {
    /// The POV character and place the plan chose (for the writer's context).
    pub fn of_plan(plan: impl Into<SceneBrief>) -> Focus {
        let plan: SceneBrief = plan.into();
        let non_empty = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        Focus {
            pov: non_empty(&plan.pov_character),
            location: non_empty(&plan.target_location),
        }
    }
}

/// The context for the next tick, centred on the story state's active character.
pub fn gather(
    conn: &Connection,
    config: &NovelConfig,
    budgets: &ContextBudgets,
) -> Result<StoryContext, StoreError> {
    gather_with(conn, config, budgets, &Focus::default(), &Rollups)
}

/// The context for the next tick, centred on `focus`, its overall summary from `summaries`:
/// each section built by its own step of [`Gathering`], in the order the lore trigger reads
/// them (recent scenes, the last scene's tail, the POV character's goals, the place).
pub fn gather_with(
    conn: &Connection,
    config: &NovelConfig,
    budgets: &ContextBudgets,
    focus: &Focus,
    summaries: &dyn SummarySource,
) -> Result<StoryContext, StoreError> {
    let mut g = Gathering::start(conn, config, budgets, focus)?;
    g.foundation();
    let recent = g.recent_scenes()?;
    g.summary(&recent, summaries)?;
    g.previous_tail(&recent);
    g.author_note();
    g.outline()?;
    g.pressure()?;
    let loops = g.loops()?;
    g.point_of_view()?;
    g.place();
    let mention_pool = g.mention_pool();
    g.cast_and_entities();
    g.finish(recent, loops, mention_pool)
}

/// A context being gathered: what every section reads (the story state, the cast and places
/// by id, the POV character and place), the sections so far, and the text that triggers lore.
struct Gathering<'a> {
    conn: &'a Connection,
    config: &'a NovelConfig,
    budgets: &'a ContextBudgets,
    state: crate::model::StoryState,
    characters: Vec<Character>,
    locations: Vec<crate::model::Location>,
    names: Names,
    pov: Option<Character>,
    location: Option<crate::model::Location>,
    sections: BTreeMap<SectionKind, Section>,
    lore_trigger: String,
}

/// The recent scenes as read for the context: the latest ones, how many of them are shown in
/// detail, and how many of those the budget kept.
struct RecentScenes {
    latest: Vec<crate::model::Scene>,
    shown: usize,
    kept: usize,
}

impl RecentScenes {
    fn detailed(&self) -> &[crate::model::Scene] {
        &self.latest[self.latest.len() - self.shown..]
    }
}

impl<'a> Gathering<'a> {
    fn start(
        conn: &'a Connection,
        config: &'a NovelConfig,
        budgets: &'a ContextBudgets,
        focus: &Focus,
    ) -> Result<Gathering<'a>, StoreError> {
        let state = store::load_state(conn)?;
        let characters = store::list_characters(conn)?;
        let locations = store::list_locations(conn)?;
        let names: Names = characters
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .chain(locations.iter().map(|l| (l.id.clone(), l.name.clone())))
            .collect();
        let pov_id = focus.pov.clone().or(state.active_character.clone());
        let pov = pov_id
            .as_deref()
            .and_then(|id| characters.iter().find(|c| c.id == id))
            .cloned();
        let location_id = focus
            .location
            .clone()
            .or_else(|| pov.as_ref().and_then(|c| c.last_location.clone()));
        let location = location_id
            .as_deref()
            .and_then(|id| locations.iter().find(|l| l.id == id))
            .cloned();
        Ok(Gathering {
            conn,
            config,
            budgets,
            state,
            characters,
            locations,
            names,
            pov,
            location,
            sections: BTreeMap::new(),
            lore_trigger: String::new(),
        })
    }

    fn next_tick(&self) -> u32 {
        self.state.current_tick + 1
    }

    fn foundation(&mut self) {
        self.sections.insert(
            SectionKind::Foundation,
            fit_items(
                render::foundation(&self.config.novel),
                self.budgets.foundation,
                Keep::Head,
            ),
        );
    }

    fn recent_scenes(&mut self) -> Result<RecentScenes, StoreError> {
        let count = self.config.generation.recent_scenes_count;
        // Up to 2×count−1 scenes: the stretch since the last multiple of `count` on top of
        // `count` before it. Between two multiples the section only grows at its end, so the
        // prompts of consecutive ticks keep their shared prefix for the servers' prompt caches
        // (a sliding window would change at its start every tick).
        let latest = store::recent_scenes(self.conn, (2 * count).max(TENSION_WINDOW))?;
        let stretch = latest.last().map_or(0, |last| last.tick % count.max(1)) as usize;
        let shown = (count as usize + stretch).min(latest.len());
        let detailed = &latest[latest.len() - shown..];
        let (recent, kept) = fit_counting(
            render::recent_scenes(detailed, &self.names),
            self.budgets.recent,
            Keep::Tail,
        );
        self.sections.insert(SectionKind::Recent, recent);
        for s in detailed {
            self.lore_trigger.push_str(&s.summary.join("\n"));
            self.lore_trigger.push('\n');
        }
        Ok(RecentScenes {
            latest,
            shown,
            kept,
        })
    }

    fn summary(
        &mut self,
        recent: &RecentScenes,
        summaries: &dyn SummarySource,
    ) -> Result<(), StoreError> {
        if !self.config.generation.include_overall_summary {
            return Ok(());
        }
        // Scenes shown in detail are not repeated as summary lines; one cut by the budget
        // still is, so nothing falls out of both. A roll-up line that reaches into the detailed
        // scenes stays: it is the only line for the scenes before them.
        let detailed = recent.detailed();
        let shown_from = match recent.kept {
            0 => detailed.last().map_or(u32::MAX, |s| s.tick + 1),
            k => detailed[detailed.len() - k].tick,
        };
        let lines: Vec<_> = summaries
            .summary_lines(self.conn)?
            .into_iter()
            .filter(|l| l.first_tick < shown_from)
            .collect();
        self.sections.insert(
            SectionKind::Summary,
            bounded_summary(&lines, self.budgets.summary),
        );
        Ok(())
    }

    fn previous_tail(&mut self, recent: &RecentScenes) {
        if let Some(last) = recent.latest.last() {
            let (tail, trimmed) = render::prose_tail(&last.prose, self.budgets.previous_tail);
            self.lore_trigger.push_str(&tail);
            self.lore_trigger.push('\n');
            self.sections
                .insert(SectionKind::PreviousTail, Section::new(tail, trimmed));
        }
    }

    fn author_note(&mut self) {
        let note = self.config.novel.author_note.trim();
        if !note.is_empty() {
            self.sections.insert(
                SectionKind::AuthorNote,
                fit_items(vec![note.to_string()], self.budgets.author_note, Keep::Head),
            );
        }
    }

    fn outline(&mut self) -> Result<(), StoreError> {
        self.sections.insert(
            SectionKind::Outline,
            fit_items(
                render::outline(&store::list_beats(self.conn)?),
                self.budgets.outline,
                Keep::Head,
            ),
        );
        Ok(())
    }

    fn pressure(&mut self) -> Result<(), StoreError> {
        self.sections.insert(
            SectionKind::Pressure,
            fit_items(
                render::pressure(
                    &store::list_clocks(self.conn)?,
                    &store::list_events(self.conn)?,
                    self.next_tick(),
                ),
                self.budgets.pressure,
                Keep::Head,
            ),
        );
        Ok(())
    }

    fn loops(&mut self) -> Result<Vec<crate::model::OpenLoop>, StoreError> {
        let loops = store::list_loops(self.conn, Some(LoopStatus::Open))?;
        self.sections.insert(
            SectionKind::Loops,
            fit_items(
                render::loops(&loops, self.next_tick()),
                self.budgets.loops,
                Keep::Head,
            ),
        );
        Ok(loops)
    }

    /// The POV character's portrait (with the deaths they have not learned of) and their
    /// relationships.
    fn point_of_view(&mut self) -> Result<(), StoreError> {
        let Some(pov) = &self.pov else {
            return Ok(());
        };
        let mut portrait = render::character(pov);
        let unknown = evaluate::off_page_deaths(self.conn, &self.characters, pov, u32::MAX)?;
        if let Some(line) = render::unknown_to(pov, &unknown) {
            portrait.insert(1.min(portrait.len()), line);
        }
        self.sections.insert(
            SectionKind::Character,
            fit_items(portrait, self.budgets.character, Keep::Head),
        );
        let rels = store::list_relationships(self.conn, Some(&pov.id))?;
        self.sections.insert(
            SectionKind::Relationships,
            fit_items(
                render::relationships(pov, &rels, &self.names),
                self.budgets.relationships,
                Keep::Head,
            ),
        );
        self.lore_trigger.push_str(&pov.goals.join("\n"));
        self.lore_trigger.push('\n');
        Ok(())
    }

    /// The place and who else is there.
    fn place(&mut self) {
        let Some(place) = &self.location else {
            return;
        };
        let pov_id = self.pov.as_ref().map(|p| &p.id);
        let present: Vec<&Character> = self
            .characters
            .iter()
            .filter(|c| c.last_location.as_deref() == Some(place.id.as_str()))
            .filter(|c| Some(&c.id) != pov_id)
            .collect();
        self.sections.insert(
            SectionKind::Location,
            fit_items(
                render::location(place, &present, &self.names),
                self.budgets.location,
                Keep::Head,
            ),
        );
        self.lore_trigger
            .push_str(&format!("{}\n{}\n", place.name, place.description));
    }

    fn mention_pool(&self) -> Vec<mentions::Mentionable> {
        let excluded: Vec<&str> = self
            .pov
            .iter()
            .map(|c| c.id.as_str())
            .chain(self.location.iter().map(|l| l.id.as_str()))
            .collect();
        mentions::pool(&self.characters, &self.locations, &self.names, &excluded)
    }

    /// The cast and the index of every character and place, recently active ones first so
    /// trimming drops the ones the story has left behind; the POV and the place are kept
    /// whatever happens.
    fn cast_and_entities(&mut self) {
        let pov_id = self.pov.as_ref().map(|p| p.id.clone());
        let place_id = self.location.as_ref().map(|p| p.id.clone());
        let is_focus = |id: &str, focus: Option<&str>| Some(id) == focus;
        self.characters.sort_by_key(|c| {
            (
                !is_focus(&c.id, pov_id.as_deref()),
                std::cmp::Reverse(c.last_update_tick),
            )
        });
        self.locations.sort_by_key(|l| {
            (
                !is_focus(&l.id, place_id.as_deref()),
                std::cmp::Reverse(l.last_update_tick),
            )
        });
        let cast: Vec<(&str, String)> = self
            .characters
            .iter()
            .filter(|c| Some(&c.id) != pov_id.as_ref())
            .map(|c| (c.id.as_str(), render::cast_member(c)))
            .collect();
        self.sections
            .insert(SectionKind::Cast, fit_in_id_order(cast, self.budgets.cast));
        let entities: Vec<(&str, String)> = self
            .characters
            .iter()
            .map(|c| c.id.as_str())
            .chain(self.locations.iter().map(|l| l.id.as_str()))
            .zip(render::entities(&self.characters, &self.locations))
            .collect();
        self.sections.insert(
            SectionKind::Entities,
            fit_in_id_order(entities, self.budgets.entities),
        );
    }

    fn finish(
        self,
        recent: RecentScenes,
        loops: Vec<crate::model::OpenLoop>,
        mention_pool: Vec<mentions::Mentionable>,
    ) -> Result<StoryContext, StoreError> {
        let count = self.config.generation.recent_scenes_count;
        let tension_from = recent
            .latest
            .len()
            .saturating_sub(TENSION_WINDOW.max(count) as usize);
        let recent_tensions = recent.latest[tension_from..]
            .iter()
            .map(|s| (s.tick, s.tension))
            .collect();
        let detailed = recent.detailed();
        let recall_text = detailed
            .last()
            .map(|s| s.summary.join("\n"))
            .unwrap_or_default();
        let recall_before = detailed.first().map(|s| s.tick);
        let mut context = StoryContext {
            tick: self.next_tick(),
            foundation: self.config.novel.clone(),
            generation: self.config.generation.clone(),
            pov: self.pov.map(|c| EntityRef {
                id: c.id,
                name: c.name,
            }),
            location: self.location.map(|l| EntityRef {
                id: l.id,
                name: l.name,
            }),
            recent_tensions,
            plan: None,
            budgets: *self.budgets,
            sections: self.sections,
            lore_pool: store::list_lore(self.conn)?,
            loop_pool: loops,
            lore_trigger: self.lore_trigger,
            mention_pool,
            recall_text,
            recall_before,
        };
        context.refresh_triggered();
        Ok(context)
    }
}
