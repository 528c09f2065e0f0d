//! What every template sees of a [`StoryContext`]: the foundation and voice, the tick, the
//! POV and place, the plan, the tension curve and every section by name (empty when absent,
//! so templates test for content rather than existence).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::config::PointOfView;
use crate::context::{EntityRef, SectionKind, StoryContext};

#[derive(Debug, Serialize)]
pub(crate) struct View<'a> {
    tick: u32,
    foundation: FoundationView<'a>,
    min_words: u32,
    max_words: u32,
    max_tools: u32,
    pov: Option<Named<'a>>,
    location: Option<Named<'a>>,
    /// "tick 2: 4, tick 3: 6", or "" before any scene has a tension.
    tensions: String,
    /// The last three scenes' tension stayed within one point: time to escalate.
    flat: bool,
    plan: Option<PlanView<'a>>,
    sections: BTreeMap<&'static str, &'a str>,
    /// Stock phrasing the writer is told to avoid (the checks warn about it too).
    avoid: Vec<&'static str>,
    /// Where a template's stable material ends (see [`super::templates::CACHE_BREAK`]).
    cache_break: &'static str,
}

#[derive(Debug, Serialize)]
struct FoundationView<'a> {
    title: &'a str,
    tone: &'a str,
    style: &'a str,
    /// "deep third person" / "first person".
    pov: String,
    first_person: bool,
    tense: String,
    language: &'a str,
}

#[derive(Debug, Serialize)]
struct Named<'a> {
    id: &'a str,
    name: &'a str,
}

#[derive(Debug, Serialize)]
struct PlanView<'a> {
    scene_intention: &'a str,
    expected_outcomes: &'a [String],
}

fn named(e: &Option<EntityRef>) -> Option<Named<'_>> {
    e.as_ref().map(|e| Named {
        id: &e.id,
        name: &e.name,
    })
}

impl<'a> View<'a> {
    pub(crate) fn of(ctx: &'a StoryContext) -> View<'a> {
        let f = &ctx.foundation;
        let g = &ctx.generation;
        let tensions = ctx
            .recent_tensions
            .iter()
            .filter_map(|(tick, t)| t.map(|t| format!("tick {tick}: {t}")))
            .collect::<Vec<_>>()
            .join(", ");
        let last: Vec<u8> = ctx
            .recent_tensions
            .iter()
            .rev()
            .take(3)
            .filter_map(|(_, t)| *t)
            .collect();
        let flat = last.len() == 3
            && last
                .iter()
                .max()
                .zip(last.iter().min())
                .is_some_and(|(hi, lo)| hi - lo <= 1);
        View {
            tick: ctx.tick,
            flat,
            foundation: FoundationView {
                title: &f.title,
                tone: f.tone.trim(),
                style: f.style.trim(),
                pov: f.pov.to_string(),
                first_person: f.pov == PointOfView::First,
                tense: f.tense.to_string(),
                language: &f.language,
            },
            min_words: g.target_words_min,
            max_words: g.target_words_max,
            max_tools: g.max_tools_per_tick,
            pov: named(&ctx.pov),
            location: named(&ctx.location),
            tensions,
            plan: ctx.plan.as_ref().map(|p| PlanView {
                scene_intention: p.scene_intention.trim(),
                expected_outcomes: &p.expected_outcomes,
            }),
            sections: SectionKind::ALL
                .iter()
                .map(|&k| (k.as_str(), ctx.text(k)))
                .collect(),
            avoid: crate::evaluate::stock_phrases(),
            cache_break: super::templates::CACHE_BREAK,
        }
    }
}
