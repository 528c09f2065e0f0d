//! The timeline: one row per scene of the book, in its order, and one per failed attempt. A
//! scene the agent wrote carries what the planner intended, which tools ran and what they
//! returned, what the checks found, and what it cost; a scene written by hand or imported
//! carries what it has. Every row says who wrote the scene and what a writer filters it by:
//! its chapter and the characters in it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use super::authorship::{WrittenBy, written_by};
use super::names::name_of;
use super::overview::FailureView;
use crate::config::Role;
use crate::evaluate::Finding;
use crate::executor::{ActionState, ExecutionReport};
use crate::model::{Scene, TickRecord, TickUsage};
use crate::plan::Plan;
use crate::store::{self, StoreError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum TickStatus {
    Committed,
    /// Failed and still waiting for a retry or a skip.
    Failed,
    /// Failed, then retried successfully or skipped.
    FailedResolved,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolRun {
    pub tool: String,
    pub ok: bool,
    /// The tool's output or its error, as compact JSON text.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TimelineRow {
    pub tick: u32,
    pub status: TickStatus,
    /// Who wrote the scene: the agent, the writer by hand, or the imported manuscript.
    pub written_by: WrittenBy,
    pub title: Option<String>,
    pub pov: Option<String>,
    pub location: Option<String>,
    pub rationale: Option<String>,
    pub tools: Vec<ToolRun>,
    pub findings: Vec<Finding>,
    pub calls: u32,
    pub tokens: u32,
    pub started_at: String,
    pub finished_at: String,
    pub duration_ms: Option<u32>,
    pub error: Option<FailureView>,
    /// Which model answered for each role, with its calls, tokens and cost, in the order the
    /// tick calls them.
    pub roles: Vec<RoleLine>,
    /// What the tick's calls cost at the profiles' prices (0 without prices).
    pub cost: f64,
    /// The characters in the scene, by name: its POV and everyone whose record or
    /// relationship the scene changed (not the writer's own edits), sorted.
    pub characters: Vec<String>,
    /// The chapter the scene is in (1-based) and its title.
    pub chapter: Option<u32>,
    pub chapter_title: Option<String>,
}

/// The characters each tick's own changes touched (by id): a character's record, or either
/// side of a relationship. The writer's edits are recorded at the latest tick but belong to
/// no scene, so they are left out.
fn characters_by_tick(conn: &Connection) -> Result<HashMap<u32, BTreeSet<String>>, StoreError> {
    let characters: BTreeSet<String> = store::list_characters(conn)?
        .into_iter()
        .map(|c| c.id)
        .collect();
    let sides: HashMap<String, [String; 2]> = store::list_relationships(conn, None)?
        .into_iter()
        .map(|r| (r.id, [r.character_a, r.character_b]))
        .collect();
    let mut by_tick: HashMap<u32, BTreeSet<String>> = HashMap::new();
    for entry in store::all_history(conn)? {
        if entry.source.is_writer() {
            continue;
        }
        let ids: Vec<String> = if characters.contains(&entry.entity_id) {
            vec![entry.entity_id]
        } else if let Some(pair) = sides.get(&entry.entity_id) {
            pair.to_vec()
        } else {
            continue;
        };
        by_tick.entry(entry.tick).or_default().extend(ids);
    }
    Ok(by_tick)
}

/// One role's calls in a tick.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoleLine {
    pub role: Role,
    pub model: Option<String>,
    pub calls: u32,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    pub cost: f64,
}

/// The tick's roles in the order it calls them.
fn role_lines(usage: &TickUsage) -> Vec<RoleLine> {
    const ORDER: [Role; 5] = [
        Role::Planner,
        Role::Writer,
        Role::Critic,
        Role::Reviser,
        Role::Extractor,
    ];
    let mut lines: Vec<RoleLine> = usage
        .roles
        .iter()
        .map(|(role, r)| RoleLine {
            role: *role,
            model: r.model.clone(),
            calls: r.calls,
            prompt_tokens: r.prompt_tokens,
            completion_tokens: r.completion_tokens,
            cost: r.cost,
        })
        .collect();
    lines.sort_by_key(|l| {
        ORDER
            .iter()
            .position(|o| *o == l.role)
            .unwrap_or(ORDER.len())
    });
    lines
}

/// Every scene of the book in its order — the agent's with what its tick recorded, the
/// writer's own and the imported with what they have (title, POV, place, chapter, who wrote
/// it) — and every failed attempt (a failure before the commit that retried it).
pub fn timeline(conn: &Connection) -> Result<Vec<TimelineRow>, StoreError> {
    let names = store::display_names(conn)?;
    let scene_list = store::list_scenes(conn)?;
    let chapters = store::book_chapters(conn, &scene_list)?;
    let mut touched = characters_by_tick(conn)?;
    let hand = store::hand_written_scenes(conn)?;
    let mut records: BTreeMap<u32, TickRecord> = store::list_ticks(conn)?
        .into_iter()
        .map(|r| (r.tick, r))
        .collect();
    let mut rows = Vec::new();
    // A tick record with no scene at its place (not made by the engine today) keeps its line.
    let scene_ticks: BTreeSet<u32> = scene_list.iter().map(|s| s.tick).collect();
    let orphans: Vec<u32> = records
        .keys()
        .filter(|t| !scene_ticks.contains(t))
        .copied()
        .collect();
    let places = scene_list
        .into_iter()
        .map(|s| (s.tick, Some(s)))
        .chain(orphans.into_iter().map(|t| (t, None::<Scene>)));
    for (tick, scene) in places {
        let record = records.remove(&tick);
        let scene = scene.as_ref();
        let plan: Option<Plan> = record
            .as_ref()
            .and_then(|r| r.plan.clone())
            .and_then(|p| serde_json::from_value(p).ok());
        let usage: TickUsage = record
            .as_ref()
            .and_then(|r| serde_json::from_value(r.usage.clone()).ok())
            .unwrap_or_default();
        let mut ids = touched.remove(&tick).unwrap_or_default();
        ids.extend(scene.and_then(|s| s.pov_character.clone()));
        let mut characters: Vec<String> = ids
            .iter()
            .filter_map(|id| name_of(&names, Some(id)))
            .collect();
        characters.sort();
        characters.dedup();
        let chapter = chapters.iter().find(|c| c.contains(tick));
        let (started_at, finished_at) = match (&record, scene) {
            (Some(r), _) => (r.started_at.clone(), r.finished_at.clone()),
            (None, Some(s)) => (s.created_at.clone(), s.created_at.clone()),
            (None, None) => Default::default(),
        };
        rows.push(TimelineRow {
            characters,
            chapter: chapter.map(|c| c.number),
            chapter_title: chapter.map(|c| c.title.clone()),
            tick,
            status: TickStatus::Committed,
            written_by: scene.map_or(WrittenBy::Agent, |s| {
                written_by(&s.id, &hand, plan.as_ref())
            }),
            title: scene.map(|s| s.title.clone()),
            pov: scene.and_then(|s| name_of(&names, s.pov_character.as_deref())),
            location: scene.and_then(|s| name_of(&names, s.location.as_deref())),
            rationale: plan.map(|p| p.rationale),
            tools: record
                .as_ref()
                .and_then(|r| r.execution.clone())
                .and_then(|e| serde_json::from_value::<ExecutionReport>(e).ok())
                .map(|e| tool_runs(&e))
                .unwrap_or_default(),
            findings: record
                .as_ref()
                .and_then(|r| serde_json::from_value(r.findings.clone()).ok())
                .unwrap_or_default(),
            calls: usage.calls(),
            tokens: usage.total_tokens(),
            roles: role_lines(&usage),
            cost: usage.roles.values().map(|r| r.cost).sum(),
            duration_ms: record.as_ref().and_then(|r| duration_ms(&r.timings)),
            started_at,
            finished_at,
            error: None,
        });
    }
    for failure in store::list_failures(conn)? {
        rows.push(TimelineRow {
            tick: failure.tick,
            status: if failure.resolved {
                TickStatus::FailedResolved
            } else {
                TickStatus::Failed
            },
            written_by: WrittenBy::Agent,
            title: None,
            pov: None,
            location: None,
            rationale: None,
            tools: Vec::new(),
            findings: Vec::new(),
            calls: 0,
            tokens: 0,
            roles: Vec::new(),
            cost: 0.0,
            started_at: failure.at.clone(),
            finished_at: failure.at.clone(),
            duration_ms: None,
            error: Some(failure.into()),
            characters: Vec::new(),
            chapter: None,
            chapter_title: None,
        });
    }
    // Within a tick, its failures happened before the commit that finally made it (the sort
    // is stable, so scenes keep the book's order).
    rows.sort_by_key(|r| (r.tick, r.status == TickStatus::Committed));
    Ok(rows)
}

fn tool_runs(execution: &ExecutionReport) -> Vec<ToolRun> {
    execution
        .results
        .iter()
        .map(|r| {
            let ok = r.state == ActionState::Succeeded;
            let detail = match (&r.output, &r.error) {
                (Some(output), _) if ok => output.to_string(),
                (_, Some(error)) => error.clone(),
                _ => "did not run".to_string(),
            };
            ToolRun {
                tool: r.tool.clone(),
                ok,
                detail,
            }
        })
        .collect()
}

/// The tick's time from its step timings. Ticks recorded since steps were timed finely carry
/// microseconds (and a "gather" step; "validate" is time inside "planning"); older ones carry
/// milliseconds.
fn duration_ms(timings: &Value) -> Option<u32> {
    let steps = timings.as_object()?;
    let fine = steps.contains_key("gather");
    let total: u64 = steps
        .iter()
        .filter(|(k, _)| !(fine && k.as_str() == "validate"))
        .filter_map(|(_, v)| v.as_u64())
        .fold(0u64, u64::saturating_add);
    u32::try_from(if fine { total / 1000 } else { total }).ok()
}

#[cfg(test)]
mod duration_tests {
    use serde_json::json;

    use super::duration_ms;

    #[test]
    fn old_millisecond_and_new_microsecond_timings_both_read_right() {
        assert_eq!(
            duration_ms(&json!({"planning": 1200, "writing": 3400})),
            Some(4600)
        );
        assert_eq!(
            duration_ms(
                &json!({"gather": 2000, "planning": 1_200_000, "validate": 500, "writing": 3_400_000})
            ),
            Some(4602),
            "validation is inside planning and not counted twice"
        );
    }
}
