//! Bounded context on a generated novel: the planner's and the writer's prompts at tick 300 are
//! at most 1.3× their size at tick 12 (the same point of the recent-scenes stretch), every section stays within its budget, and the story so
//! far is told by arc and chapter roll-ups instead of one line per scene.

use novel_core::novel::Novel;
use novel_core::plan::Plan;
use novel_core::synthetic;
use novel_core::tick::{PromptPreview, preview_next, preview_writer};
use serde_json::json;

fn plan() -> Plan {
    serde_json::from_value(json!({
        "rationale": "The debts are catching up with her.",
        "scene_intention": "Tamsin confronts Bram Holt at the Weighhouse about the missing shipment and the forged pass.",
        "pov_character": "C0",
        "target_location": "L0",
        "actions": [{"tool": "memory.search", "args": {"query": "missing shipment"}, "reason": "what is known"}],
        "expected_outcomes": ["Bram admits he sold the pass", "Tamsin learns who pays the tolls"]
    }))
    .unwrap()
}

fn tool_results() -> Vec<(String, serde_json::Value)> {
    vec![(
        "memory.search".to_string(),
        json!({"hits": [{"entity_id": "O3", "kind": "loop", "tick": 8, "title": "What was in the shipment that vanished?", "snippet": "the shipment vanished from the quay at night", "score": 0.03}]}),
    )]
}

fn previews(novel: &Novel) -> (PromptPreview, PromptPreview) {
    futures::executor::block_on(async {
        (
            preview_next(novel, None).await.unwrap(),
            preview_writer(novel, &plan(), &tool_results(), None)
                .await
                .unwrap(),
        )
    })
}

fn within_budgets(p: &PromptPreview) {
    for s in &p.sections {
        assert!(s.tokens <= s.budget, "tick {}: {s:?}", p.tick);
    }
}

#[test]
fn prompts_at_tick_300_are_at_most_1_3_times_those_at_tick_10() {
    let tmp = tempfile::tempdir().unwrap();
    // Recent scenes run in stretches of three to five (prompt caches): tick 12, like tick 300,
    // comes at the end of one, so the two differ only in how much the world has grown.
    let mut novel = synthetic::generate(&tmp.path().join("n"), 11, &[]).unwrap();
    let (planner_10, writer_10) = previews(&novel);
    synthetic::extend(&mut novel, 99, &[]).unwrap();
    let (planner_100, writer_100) = previews(&novel);
    synthetic::extend(&mut novel, 299, &[]).unwrap();
    let (planner_300, writer_300) = previews(&novel);
    for p in [
        &planner_10,
        &writer_10,
        &planner_100,
        &writer_100,
        &planner_300,
        &writer_300,
    ] {
        within_budgets(p);
    }
    assert_eq!(
        (planner_10.tick, planner_100.tick, planner_300.tick),
        (12, 100, 300)
    );
    let ratio = |a: &PromptPreview, b: &PromptPreview| {
        f64::from(b.prompt_tokens) / f64::from(a.prompt_tokens)
    };
    assert!(
        ratio(&planner_10, &planner_300) <= 1.3,
        "planner: {} tokens at tick 10, {} at tick 300",
        planner_10.prompt_tokens,
        planner_300.prompt_tokens
    );
    assert!(
        ratio(&writer_10, &writer_300) <= 1.3,
        "writer: {} tokens at tick 10, {} at tick 300",
        writer_10.prompt_tokens,
        writer_300.prompt_tokens
    );
    // The long novel's story so far: two arcs, then the chapters and scenes since.
    let summary = planner_300
        .user
        .split("## Story so far\n")
        .nth(1)
        .unwrap_or("");
    let summary = summary.split("\n\n").next().unwrap_or("");

    assert!(summary.starts_with("Ticks 1–100: "), "{summary}");
    assert!(summary.contains("Ticks 101–200: "), "{summary}");
    assert!(
        summary.contains("Ticks 281–290: ") || summary.contains("omitted"),
        "{summary}"
    );
    // Earlier scenes come back through recall, not through an ever longer summary.
    assert!(
        planner_300.user.contains("## Recalled from earlier scenes"),
        "{}",
        planner_300.user
    );
}
