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

/// The context for the next tick, centred on `focus`, its overall summary from `summaries`.
pub fn gather_with(
    conn: &Connection,
    config: &NovelConfig,
    budgets: &ContextBudgets,
    focus: &Focus,
    summaries: &dyn SummarySource,
) -> Result<StoryContext, StoreError> {
    let state = store::load_state(conn)?;
    let mut characters = store::list_characters(conn)?;
    let mut locations = store::list_locations(conn)?;
    let names: Names = characters
        .iter()
        .map(|c| (c.id.clone(), c.name.clone()))
        .chain(locations.iter().map(|l| (l.id.clone(), l.name.clone())))
        .collect();

    let pov_id = focus.pov.clone().or(state.active_character);
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

    let mut sections = BTreeMap::new();
    let mut lore_trigger = String::new();
    let g = &config.generation;

    sections.insert(
        SectionKind::Foundation,
        fit_items(
            render::foundation(&config.novel),
            budgets.foundation,
            Keep::Head,
        ),
    );

    let count = g.recent_scenes_count;
    // Up to 2×count−1 scenes: the stretch since the last multiple of `count` on top of
    // `count` before it. Between two multiples the section only grows at its end, so the
    // prompts of consecutive ticks keep their shared prefix for the servers' prompt caches (a
    // sliding window would change at its start every tick).
    let latest = store::recent_scenes(conn, (2 * count).max(TENSION_WINDOW))?;
    let stretch = latest.last().map_or(0, |last| last.tick % count.max(1)) as usize;
    let shown = (count as usize + stretch).min(latest.len());
    let tension_from = latest
        .len()
        .saturating_sub(TENSION_WINDOW.max(count) as usize);
    let recent_tensions = latest[tension_from..]
        .iter()
        .map(|s| (s.tick, s.tension))
        .collect();
    let detailed = &latest[latest.len() - shown..];
    let (recent, kept) = fit_counting(
        render::recent_scenes(detailed, &names),
        budgets.recent,
        Keep::Tail,
    );
    sections.insert(SectionKind::Recent, recent);
    for s in detailed {
        lore_trigger.push_str(&s.summary.join("\n"));
        lore_trigger.push('\n');
    }
    let recall_text = detailed
        .last()
        .map(|s| s.summary.join("\n"))
        .unwrap_or_default();
    let recall_before = detailed.first().map(|s| s.tick);

    if g.include_overall_summary {
        // Scenes shown in detail are not repeated as summary lines; one cut by the budget
        // still is, so nothing falls out of both. A roll-up line that reaches into the detailed
        // scenes stays: it is the only line for the scenes before them.
        let shown_from = match kept {
            0 => detailed.last().map_or(u32::MAX, |s| s.tick + 1),
            k => detailed[detailed.len() - k].tick,
        };
        let lines: Vec<_> = summaries
            .summary_lines(conn)?
            .into_iter()
            .filter(|l| l.first_tick < shown_from)
            .collect();
        sections.insert(
            SectionKind::Summary,
            bounded_summary(&lines, budgets.summary),
        );
    }

    if let Some(last) = latest.last() {
        let (tail, trimmed) = render::prose_tail(&last.prose, budgets.previous_tail);
        lore_trigger.push_str(&tail);
        lore_trigger.push('\n');
        sections.insert(SectionKind::PreviousTail, Section::new(tail, trimmed));
    }

    let note = config.novel.author_note.trim();
    if !note.is_empty() {
        sections.insert(
            SectionKind::AuthorNote,
            fit_items(vec![note.to_string()], budgets.author_note, Keep::Head),
        );
    }
    sections.insert(
        SectionKind::Outline,
        fit_items(
            render::outline(&store::list_beats(conn)?),
            budgets.outline,
            Keep::Head,
        ),
    );
    sections.insert(
        SectionKind::Pressure,
        fit_items(
            render::pressure(
                &store::list_clocks(conn)?,
                &store::list_events(conn)?,
                state.current_tick + 1,
            ),
            budgets.pressure,
            Keep::Head,
        ),
    );

    let loops = store::list_loops(conn, Some(LoopStatus::Open))?;
    sections.insert(
        SectionKind::Loops,
        fit_items(
            render::loops(&loops, state.current_tick + 1),
            budgets.loops,
            Keep::Head,
        ),
    );

    if let Some(pov) = &pov {
        let mut portrait = render::character(pov);
        let unknown = evaluate::off_page_deaths(conn, &characters, pov, u32::MAX)?;
        if let Some(line) = render::unknown_to(pov, &unknown) {
            portrait.insert(1.min(portrait.len()), line);
        }
        sections.insert(
            SectionKind::Character,
            fit_items(portrait, budgets.character, Keep::Head),
        );
        let rels = store::list_relationships(conn, Some(&pov.id))?;
        sections.insert(
            SectionKind::Relationships,
            fit_items(
                render::relationships(pov, &rels, &names),
                budgets.relationships,
                Keep::Head,
            ),
        );
        lore_trigger.push_str(&pov.goals.join("\n"));
        lore_trigger.push('\n');
    }

    if let Some(place) = &location {
        let present: Vec<&Character> = characters
            .iter()
            .filter(|c| c.last_location.as_deref() == Some(place.id.as_str()))
            .filter(|c| Some(&c.id) != pov.as_ref().map(|p| &p.id))
            .collect();
        sections.insert(
            SectionKind::Location,
            fit_items(
                render::location(place, &present, &names),
                budgets.location,
                Keep::Head,
            ),
        );
        lore_trigger.push_str(&format!("{}\n{}\n", place.name, place.description));
    }

    let excluded: Vec<&str> = pov
        .iter()
        .map(|c| c.id.as_str())
        .chain(location.iter().map(|l| l.id.as_str()))
        .collect();
    let mention_pool = mentions::pool(&characters, &locations, &names, &excluded);

    // Recently active entities first, so trimming drops the ones the story has left behind;
    // the POV and the place are kept whatever happens.
    let is_focus = |id: &str, focus: Option<&str>| Some(id) == focus;
    characters.sort_by_key(|c| {
        (
            !is_focus(&c.id, pov.as_ref().map(|p| p.id.as_str())),
            std::cmp::Reverse(c.last_update_tick),
        )
    });
    locations.sort_by_key(|l| {
        (
            !is_focus(&l.id, location.as_ref().map(|p| p.id.as_str())),
            std::cmp::Reverse(l.last_update_tick),
        )
    });
    let cast: Vec<(&str, String)> = characters
        .iter()
        .filter(|c| Some(&c.id) != pov.as_ref().map(|p| &p.id))
        .map(|c| (c.id.as_str(), render::cast_member(c)))
        .collect();
    sections.insert(SectionKind::Cast, fit_in_id_order(cast, budgets.cast));
    let entities: Vec<(&str, String)> = characters
        .iter()
        .map(|c| c.id.as_str())
        .chain(locations.iter().map(|l| l.id.as_str()))
        .zip(render::entities(&characters, &locations))
        .collect();
    sections.insert(
        SectionKind::Entities,
        fit_in_id_order(entities, budgets.entities),
    );

    let mut context = StoryContext {
        tick: state.current_tick + 1,
        foundation: config.novel.clone(),
        generation: config.generation.clone(),
        pov: pov.map(|c| EntityRef {
            id: c.id,
            name: c.name,
        }),
        location: location.map(|l| EntityRef {
            id: l.id,
            name: l.name,
        }),
        recent_tensions,
        plan: None,
        budgets: *budgets,
        sections,
        lore_pool: store::list_lore(conn)?,
        loop_pool: loops,
        lore_trigger,
        mention_pool,
        recall_text,
        recall_before,
    };
    context.refresh_triggered();
    Ok(context)
}
