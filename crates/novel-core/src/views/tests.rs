use std::path::Path;

use serde_json::json;

use super::*;
use crate::context::fixture;
use crate::executor::{ActionResult, ActionState, ExecutionReport};
use crate::model::{TickFailure, TickRecord};

fn action(
    id: &str,
    tool: &str,
    state: ActionState,
    output: Option<serde_json::Value>,
    error: Option<&str>,
) -> ActionResult {
    ActionResult {
        id: id.into(),
        tool: tool.into(),
        args: json!({}),
        state,
        output,
        error: error.map(str::to_string),
        attempts: 1,
        duration_ms: 20,
    }
}
use crate::store;

fn with_tick_two(fx: &mut fixture::Fixture) {
    let tx = fx.store.transaction().unwrap();
    store::insert_tick(
        &tx,
        &TickRecord {
            tick: 2,
            plan: Some(json!({"rationale": "Raise the stakes at the archive",
                              "scene_intention": "Elena is cornered", "actions": []})),
            // Stored exactly as the tick stores it: a serialized ExecutionReport.
            execution: Some(
                serde_json::to_value(ExecutionReport {
                    success: false,
                    results: vec![
                        action(
                            "a0",
                            "memory.search",
                            ActionState::Succeeded,
                            Some(json!({"hits": 2})),
                            None,
                        ),
                        action(
                            "a1",
                            "character.generate",
                            ActionState::Failed,
                            None,
                            Some("name taken"),
                        ),
                    ],
                    failed_required: None,
                    disabled_tools: Vec::new(),
                    warnings: Vec::new(),
                    duration_ms: 40,
                })
                .unwrap(),
            ),
            findings: json!([{"check": "pov_leak", "severity": "warning",
                              "message": "Marcus's thoughts", "excerpt": null}]),
            usage: json!({"roles": {
                "extractor": {"calls": 1, "prompt_tokens": 50, "completion_tokens": 5,
                              "estimated": false, "latency_ms": 2},
                "planner": {"calls": 1, "prompt_tokens": 100, "completion_tokens": 20,
                            "estimated": false, "latency_ms": 5},
                "writer": {"calls": 1, "prompt_tokens": 300, "completion_tokens": 700,
                           "estimated": false, "latency_ms": 9, "model": "qwen2.5-14b",
                           "cost": 0.002}}}),
            timings: json!({"planning": 1200, "writing": 3400}),
            started_at: fixture::NOW.into(),
            finished_at: fixture::NOW.into(),
            notes: vec!["the plan was repaired locally".into()],
            context_used: None,
        },
    )
    .unwrap();
    store::record_failure(
        &tx,
        &TickFailure {
            seq: 0,
            tick: 3,
            at: fixture::NOW.into(),
            error_type: "llm.server".into(),
            message: "server returned 500".into(),
            error_file: "errors/error_003.json".into(),
            resolved: false,
        },
    )
    .unwrap();
    tx.commit().unwrap();
}

#[test]
fn the_timeline_decodes_plans_tools_findings_and_usage_and_shows_failures() {
    let mut fx = fixture::novel(2);
    with_tick_two(&mut fx);
    let rows = timeline(fx.store.conn()).unwrap();
    let committed = rows.iter().find(|r| r.tick == 2).unwrap();
    assert_eq!(committed.status, TickStatus::Committed);
    assert_eq!(committed.title.as_deref(), Some(fx_title(&fx, 2).as_str()));
    assert_eq!(committed.pov.as_deref(), Some("Elena Marsh"));
    assert_eq!(
        committed.rationale.as_deref(),
        Some("Raise the stakes at the archive")
    );
    assert_eq!(committed.tools.len(), 2);
    assert!(committed.tools[0].ok && committed.tools[0].detail.contains("hits"));
    assert!(!committed.tools[1].ok && committed.tools[1].detail == "name taken");
    assert_eq!(committed.findings.len(), 1);
    assert_eq!((committed.calls, committed.tokens), (3, 1175));
    assert_eq!(committed.duration_ms, Some(4600));
    // Which model did what, in the order the tick calls them, and what it cost.
    let roles: Vec<(&str, Option<&str>, u32)> = committed
        .roles
        .iter()
        .map(|r| (r.role.as_str(), r.model.as_deref(), r.completion_tokens))
        .collect();
    assert_eq!(
        roles,
        [
            ("planner", None, 20),
            ("writer", Some("qwen2.5-14b"), 700),
            ("extractor", None, 5)
        ]
    );
    assert!((committed.cost - 0.002).abs() < 1e-12);
    let failed = rows.last().unwrap();
    assert_eq!((failed.tick, failed.status), (3, TickStatus::Failed));
    assert_eq!(
        failed.error.as_ref().unwrap().message,
        "server returned 500"
    );
}

fn fx_title(fx: &fixture::Fixture, tick: u32) -> String {
    store::list_scenes(fx.store.conn())
        .unwrap()
        .into_iter()
        .find(|s| s.tick == tick)
        .unwrap()
        .title
}

#[test]
fn the_overview_counts_the_story_and_names_the_pending_failure() {
    let mut fx = fixture::novel(2);
    with_tick_two(&mut fx);
    let tx = fx.store.transaction().unwrap();
    let mut state = store::load_state(&tx).unwrap();
    state.current_tick = 2;
    store::save_state(&tx, &state).unwrap();
    tx.commit().unwrap();
    let o = overview(fx.store.conn(), Path::new("/novels/salt"), &fx.config).unwrap();
    assert_eq!((o.scenes, o.characters, o.locations), (2, 2, 2));
    assert_eq!(o.open_loops, 2);
    assert!(o.words > 0);
    let pending = o.pending_failure.unwrap();
    assert_eq!(pending.tick, 3);
    assert_eq!(pending.kind, crate::tick::ErrorKind::ProviderServer);
}

#[test]
fn the_graph_has_characters_places_and_typed_weighted_edges() {
    let fx = fixture::novel(1);
    let g = story_graph(fx.store.conn()).unwrap();
    let kinds = |k: NodeKind| g.nodes.iter().filter(|n| n.kind == k).count();
    assert_eq!(
        (kinds(NodeKind::Character), kinds(NodeKind::Location)),
        (2, 2)
    );
    let rel = g
        .edges
        .iter()
        .find(|e| e.kind == EdgeKind::Relationship)
        .unwrap();
    assert!(rel.intensity.is_some());
    assert!(
        g.edges
            .iter()
            .any(|e| e.kind == EdgeKind::Connection && e.label == "a flooded stair")
    );
    // Every edge joins two nodes that exist, or a graph library would reject it.
    for e in &g.edges {
        assert!(g.nodes.iter().any(|n| n.id == e.source), "{e:?}");
        assert!(g.nodes.iter().any(|n| n.id == e.target), "{e:?}");
    }
}

/// The extraction's record that C0 took up a lantern in scene 1.
pub(super) fn lantern_taken_up(tx: &rusqlite::Transaction<'_>) {
    store::append_history(
        tx,
        &store::HistoryEntry {
            entity_id: "C0".into(),
            tick: 1,
            field: "inventory".into(),
            change: "updated".into(),
            old_value: None,
            new_value: Some(json!(["lantern"])),
            flagged: false,
            source: "extraction".into(),
        },
    )
    .unwrap();
}

#[test]
fn an_entity_comes_with_its_history_and_bad_ids_find_nothing() {
    let fx = fixture::novel(1);
    let tx = fx.store.begin().unwrap();
    lantern_taken_up(&tx);
    let detail = entity_detail(&tx, "C0").unwrap().unwrap();
    assert_eq!(detail.name, "Elena Marsh");
    assert_eq!(detail.kind, crate::ids::EntityKind::Character);
    assert_eq!(detail.history.len(), 1);
    assert_eq!(detail.record["role"], "archivist");
    assert!(entity_detail(&tx, "../../etc/passwd").unwrap().is_none());
    assert!(entity_detail(&tx, "C99").unwrap().is_none());
}

#[test]
fn the_manuscript_resolves_names_and_loops_sort_by_importance() {
    let fx = fixture::novel(3);
    let scenes = manuscript(fx.store.conn()).unwrap();
    assert_eq!(
        scenes.iter().map(|s| s.tick).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(scenes[0].pov.as_deref(), Some("Elena Marsh"));
    let board = loops_board(fx.store.conn()).unwrap();
    assert!(board.windows(2).all(|w| w[0].importance >= w[1].importance));
}

mod history {
    use std::sync::Arc;

    use novel_llm::ScriptedModel;

    use super::*;
    use crate::control;
    use crate::diff::DiffKind;
    use crate::edits;
    use crate::novel::Novel;
    use crate::tick::tests::{PROSE, clock, extraction, novel};
    use crate::tick::{CancelToken, Models, TickOptions, run_tick};

    async fn write(novel: &mut Novel, title: &str) {
        let plan = json!({"rationale": "r", "scene_intention": "i",
            "pov_character": "C0", "target_location": "L0", "actions": []});
        let mut extraction = extraction();
        extraction["title"] = json!(title);
        let model = ScriptedModel::new()
            .reply_json(&plan)
            .reply(PROSE)
            .reply_json(&extraction);
        run_tick(
            novel,
            &Models::single(Arc::new(model)),
            &TickOptions::default(),
            &(),
            &CancelToken::new(),
            &clock(),
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn branches_name_the_scene_each_ends_on_and_the_overview_the_current_one() {
        let (_tmp, mut novel) = novel();
        write(&mut novel, "Low Tide").await;
        write(&mut novel, "The Salt Gate").await;
        let conn = || novel.store().conn();
        assert_eq!(
            overview(conn(), novel.root(), novel.config())
                .unwrap()
                .branch,
            "main"
        );
        let kept = control::rewind(&mut novel, 1, &clock())
            .unwrap()
            .kept_in
            .unwrap();
        let rows = branches(novel.store().conn()).unwrap();
        let shown: Vec<(&str, bool, u32, Option<&str>)> = rows
            .iter()
            .map(|b| (b.name.as_str(), b.current, b.tick, b.last_title.as_deref()))
            .collect();
        assert_eq!(
            shown,
            [
                ("main", true, 1, Some("Low Tide")),
                (kept.as_str(), false, 2, Some("The Salt Gate")),
            ]
        );
        control::switch(&mut novel, &kept).unwrap();
        let o = overview(novel.store().conn(), novel.root(), novel.config()).unwrap();
        assert_eq!((o.branch.as_str(), o.current_tick), (kept.as_str(), 2));
    }

    #[tokio::test]
    async fn a_version_diff_marks_what_the_edit_removed_and_added() {
        let (_tmp, mut novel) = novel();
        write(&mut novel, "Low Tide").await;
        edits::edit_scene_prose(&mut novel, 1, "The lighthouse keeper sang.", &clock()).unwrap();
        edits::edit_scene_prose(&mut novel, 1, "The old keeper sang.", &clock()).unwrap();
        let versions = store::versions_of(novel.store().conn(), 1).unwrap();
        let (older, newer) = (&versions[versions.len() - 2], &versions[versions.len() - 1]);
        let runs = version_diff(novel.store().conn(), older.id, newer.id).unwrap();
        let marked: Vec<(DiffKind, &str)> =
            runs.iter().map(|r| (r.kind, r.text.as_str())).collect();
        assert_eq!(
            marked,
            [
                (DiffKind::Same, "The "),
                (DiffKind::Removed, "lighthouse"),
                (DiffKind::Added, "old"),
                (DiffKind::Same, " keeper sang."),
            ]
        );
        assert!(version_diff(novel.store().conn(), older.id, 9999).is_err());
    }
}

fn state_change(tick: u32, new: &str, flagged: bool) -> store::HistoryEntry {
    store::HistoryEntry {
        entity_id: "C0".into(),
        tick,
        field: "emotional_state".into(),
        change: "changed".into(),
        old_value: None,
        new_value: Some(json!(new)),
        flagged,
        source: "extraction".into(),
    }
}

#[test]
fn charts_show_tension_by_scene_and_applied_emotional_states_by_tick() {
    let fx = fixture::novel(3);
    let tx = fx.store.begin().unwrap();
    store::append_history(&tx, &state_change(1, "wary", false)).unwrap();
    store::append_history(&tx, &state_change(2, "hopeful", false)).unwrap();
    // Two changes in one tick: the later one is the state from then on.
    store::append_history(&tx, &state_change(2, "afraid", false)).unwrap();
    // A refused contradiction never was her state.
    store::append_history(&tx, &state_change(3, "serene", true)).unwrap();
    let charts = story_charts(&tx).unwrap();
    assert_eq!(
        charts
            .tension
            .iter()
            .map(|p| (p.tick, p.tension))
            .collect::<Vec<_>>(),
        vec![(1, Some(4)), (2, Some(5)), (3, Some(6))]
    );
    let elena = charts.emotions.iter().find(|t| t.id == "C0").unwrap();
    assert_eq!(elena.name, "Elena Marsh");
    assert_eq!(
        elena
            .points
            .iter()
            .map(|p| (p.tick, p.state.as_deref()))
            .collect::<Vec<_>>(),
        vec![(1, Some("wary")), (2, Some("afraid"))]
    );
    assert!(charts.emotions.iter().all(|t| !t.points.is_empty()));
}

#[test]
fn the_bible_names_the_open_goal_loop_as_the_goal() {
    use crate::model::{Importance, LoopStatus, OpenLoop};
    let fx = fixture::novel(1);
    let tx = fx.store.begin().unwrap();
    assert_eq!(bible(&tx).unwrap().goal, None);
    let mut goal = OpenLoop {
        id: "O90".into(),
        description: "Free the drowned families' names".into(),
        category: "goal".into(),
        importance: Importance::Critical,
        status: LoopStatus::Open,
        opened_tick: 1,
        resolved_tick: None,
        notes: Vec::new(),
    };
    store::insert_loop(&tx, &goal).unwrap();
    let view = bible(&tx).unwrap();
    assert_eq!(
        view.goal.as_deref(),
        Some("Free the drowned families' names")
    );
    assert_eq!(view.lore.len(), store::list_lore(&tx).unwrap().len());
    // A resolved goal is no goal; the next open one is.
    goal.status = LoopStatus::Resolved;
    goal.id = "O91".into();
    store::insert_loop(&tx, &goal).unwrap();
    assert_eq!(
        bible(&tx).unwrap().goal.as_deref(),
        Some("Free the drowned families' names")
    );
}
