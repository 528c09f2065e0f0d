//! The writer's history actions against the scripted model: exact rewinds, branches that come
//! back as they were, regenerations that keep the old scene, and a property test over random
//! sequences of all of them.

use std::collections::BTreeMap;
use std::sync::Arc;

use novel_llm::ScriptedModel;
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::edits;
use crate::tick::tests::{PROSE, clock, extraction, novel};

fn dump(novel: &Novel) -> String {
    store::dump_story(novel.store().conn()).unwrap()
}

/// The story and which of its passages still wait for a vector: a move restores both.
fn state(novel: &Novel) -> (String, usize) {
    let conn = novel.store().conn();
    (dump(novel), store::count_pending(conn).unwrap())
}

fn model_for(n: u32) -> ScriptedModel {
    let plan = json!({"rationale": "r", "scene_intention": format!("Tamsin waits, take {n}."),
        "pov_character": "C0", "target_location": "L0",
        "actions": [{"tool": "character.generate", "args": {"name": format!("Stranger {n}"), "role": "watcher"}}]});
    let mut extraction = extraction();
    extraction["title"] = json!(format!("Low Tide {n}"));
    extraction["character_updates"] =
        json!([{"id": "C0", "changes": {"emotional_state": format!("wary {n}")}}]);
    ScriptedModel::new()
        .reply_json(&plan)
        .reply(format!(
            "{PROSE}\\n\\nThe bell rang {n} times over the water."
        ))
        .reply_json(&extraction)
}

async fn write_tick(novel: &mut Novel, n: u32) {
    let models = Models::single(Arc::new(model_for(n)));
    tick::run_tick(
        novel,
        &models,
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
    .unwrap();
}

async fn regenerate_with(novel: &mut Novel, n: u32) -> Result<TickOutcome, ControlError> {
    let models = Models::single(Arc::new(model_for(n)));
    regenerate(
        novel,
        &models,
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
}

fn scene_file(novel: &Novel, tick: u32) -> Option<String> {
    std::fs::read_to_string(crate::files::scene_path(novel.root(), tick)).ok()
}

#[tokio::test]
async fn rewind_returns_exactly_and_the_later_scenes_become_a_branch() {
    let (_tmp, mut novel) = novel();
    let mut after = vec![dump(&novel)];
    for n in 1..=4 {
        write_tick(&mut novel, n).await;
        after.push(dump(&novel));
    }
    edits::edit_scene_prose(&mut novel, 2, "She edited this herself.", &clock()).unwrap();
    let edited = dump(&novel);
    let report = rewind(&mut novel, 2, &clock()).unwrap();
    assert_eq!(
        dump(&novel),
        after[2],
        "the edit after tick 2 is undone too"
    );
    assert_eq!(report.kept_in.as_deref(), Some("main (scenes 3–4)"));
    assert!(scene_file(&novel, 3).is_none() && scene_file(&novel, 4).is_none());
    assert!(
        scene_file(&novel, 2)
            .unwrap()
            .contains("The bell rang 2 times")
    );
    switch(&mut novel, "main (scenes 3–4)").unwrap();
    assert_eq!(
        dump(&novel),
        edited,
        "the branch comes back exactly as it was"
    );
    assert!(
        scene_file(&novel, 4)
            .unwrap()
            .contains("The bell rang 4 times")
    );
    assert!(
        scene_file(&novel, 2)
            .unwrap()
            .contains("edited this herself")
    );
    let names: Vec<String> = list(&novel).unwrap().into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["main", "main (scenes 3–4)"]);
}

#[tokio::test]
async fn regenerate_undoes_the_scene_and_keeps_it_as_a_version() {
    let (_tmp, mut novel) = novel();
    write_tick(&mut novel, 1).await;
    let after_one = dump(&novel);
    write_tick(&mut novel, 2).await;
    let done = regenerate_with(&mut novel, 22).await.unwrap();
    assert_eq!(done.tick, 2);
    assert_eq!(done.scene.title, "Low Tide 22");
    let conn = novel.store().conn();
    assert!(
        store::list_characters(conn)
            .unwrap()
            .iter()
            .all(|c| c.name != "Stranger 2"),
        "the old tick's memory changes are undone"
    );
    let versions = versions(&novel, 2).unwrap();
    let origins: Vec<_> = versions.versions.iter().map(|v| v.origin).collect();
    assert_eq!(
        origins,
        [
            store::VersionOrigin::Revision,
            store::VersionOrigin::Regeneration
        ]
    );
    assert_eq!(versions.current, Some(versions.versions[1].id));
    assert!(versions.versions[0].prose.contains("The bell rang 2 times"));
    // Rewinding to 1 still finds the exact state after tick 1.
    rewind(&mut novel, 1, &clock()).unwrap();
    assert_eq!(dump(&novel), after_one);
}

#[tokio::test]
async fn a_failed_regeneration_brings_the_old_scene_back() {
    let (_tmp, mut novel) = novel();
    write_tick(&mut novel, 1).await;
    let before = dump(&novel);
    let broken = Models::single(Arc::new(ScriptedModel::new().fail(
        novel_llm::LlmError::Timeout {
            provider: "p".into(),
            secs: 1,
        },
    )));
    let err = regenerate(
        &mut novel,
        &broken,
        &TickOptions::default(),
        &(),
        &CancelToken::new(),
        &clock(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ControlError::Tick(_)), "{err}");
    assert_eq!(dump(&novel), before);
    assert!(
        scene_file(&novel, 1)
            .unwrap()
            .contains("The bell rang 1 times")
    );
    assert_eq!(store::head(novel.store().conn()).unwrap().restore_to, None);
}

#[tokio::test]
async fn an_interrupted_regeneration_is_undone_on_the_next_open() {
    let (_tmp, mut novel) = novel();
    write_tick(&mut novel, 1).await;
    let before = dump(&novel);
    let root = novel.root().to_path_buf();
    // Undo the scene the way `regenerate` does, then "crash" before the new tick commits.
    {
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        let old = store::head(&tx).unwrap().head;
        let latest = branches::change_of_tick(&tx, 1).unwrap().unwrap();
        let parent = store::get_change(&tx, latest).unwrap().parent;
        branches::reset_branch(&tx, parent).unwrap();
        store::set_restore_to(&tx, old).unwrap();
        tx.commit().unwrap();
    }
    assert_ne!(dump(&novel), before);
    drop(novel);
    let reopened = Novel::open(&root, crate::novel::Access::Write).unwrap();
    assert_eq!(dump(&reopened), before);
}

#[tokio::test]
async fn fork_and_compare_a_scene_across_branches() {
    let (_tmp, mut novel) = novel();
    for n in 1..=3 {
        write_tick(&mut novel, n).await;
    }
    let name = fork(&mut novel, "what if Bram lied", Some(1), &clock()).unwrap();
    assert_eq!(novel.state().unwrap().current_tick, 1);
    write_tick(&mut novel, 20).await;
    let across = scene_across_branches(&novel, 2).unwrap();
    let texts: BTreeMap<String, String> = across
        .iter()
        .map(|b| (b.branch.clone(), b.scene.as_ref().unwrap().prose.clone()))
        .collect();
    assert!(texts["main"].contains("rang 2 times"));
    assert!(texts[&name].contains("rang 20 times"));
    assert!(matches!(
        delete(&mut novel, &name),
        Err(ControlError::Branch(BranchError::DeleteCurrent(_)))
    ));
    rename(&mut novel, &name, "Bram lied").unwrap();
    switch(&mut novel, "main").unwrap();
    delete(&mut novel, "Bram lied").unwrap();
    assert_eq!(list(&novel).unwrap().len(), 1);
    assert!(
        store::versions_of(novel.store().conn(), 2)
            .unwrap()
            .iter()
            .any(|v| v.prose.contains("rang 20 times")),
        "a deleted branch's scenes stay as versions"
    );
}

/// One step of a random session at the desk.
#[derive(Debug, Clone)]
enum Op {
    Tick,
    Edit,
    Regenerate,
    /// Rewind to this fraction of the current length.
    Rewind(u8),
    /// Switch to the branch at this index (mod the number of branches).
    Switch(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Tick),
        1 => Just(Op::Edit),
        1 => Just(Op::Regenerate),
        2 => (0u8..=100).prop_map(Op::Rewind),
        2 => any::<u8>().prop_map(Op::Switch),
    ]
}

/// What the test expects of each branch: the dump right after each of its ticks (index =
/// tick) and the dump of its latest state.
#[derive(Debug, Clone)]
struct Line {
    after_tick: Vec<(String, usize)>,
    latest: (String, usize),
}

async fn run_ops(ops: Vec<Op>) {
    let (_tmp, mut novel) = novel();
    // Vectors move with the story too.
    let embedder = Arc::new(novel_embed::HashEmbedder::default());
    novel.set_retrieval(crate::retrieval::Retrieval::with_embedder(embedder));
    let mut lines: BTreeMap<String, Line> = BTreeMap::new();
    let start = state(&novel);
    let mut current = "main".to_string();
    let mut line = Line {
        after_tick: vec![start.clone()],
        latest: start,
    };
    let mut versions_seen = 0;
    for (n, op) in ops.into_iter().enumerate() {
        let n = n as u32 + 100;
        let tick = novel.state().unwrap().current_tick;
        match op {
            Op::Tick => {
                write_tick(&mut novel, n).await;
                line.after_tick.push(state(&novel));
            }
            Op::Edit if tick > 0 => {
                edits::edit_scene_prose(&mut novel, tick, &format!("Edit {n}."), &clock()).unwrap();
            }
            Op::Regenerate if tick > 0 => {
                regenerate_with(&mut novel, n).await.unwrap();
                line.after_tick[tick as usize] = state(&novel);
            }
            Op::Rewind(fraction) => {
                let to = tick * u32::from(fraction) / 100;
                line.latest = state(&novel);
                let report = rewind(&mut novel, to, &clock()).unwrap();
                assert_eq!(
                    state(&novel),
                    line.after_tick[to as usize],
                    "rewind to {to}"
                );
                if let Some(kept) = report.kept_in {
                    lines.insert(kept, line.clone());
                }
                line.after_tick.truncate(to as usize + 1);
            }
            Op::Switch(i) if !lines.is_empty() => {
                let name = lines
                    .keys()
                    .nth(usize::from(i) % lines.len())
                    .unwrap()
                    .clone();
                line.latest = state(&novel);
                let target = lines.remove(&name).unwrap();
                switch(&mut novel, &name).unwrap();
                assert_eq!(state(&novel), target.latest, "switch to {name}");
                lines.insert(std::mem::replace(&mut current, name), line);
                line = target;
            }
            _ => {}
        }
        line.latest = state(&novel);
        let versions = store::count_versions(novel.store().conn()).unwrap();
        assert!(versions >= versions_seen, "a version was lost");
        versions_seen = versions;
        let integrity: String = novel
            .store()
            .conn()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(integrity, "ok");
        assert_derived_data_is_what_a_rebuild_makes(&mut novel);
    }
}

/// The passages, keyword index and roll-ups after any sequence of moves are exactly what
/// rebuilding them from the story tables gives.
fn assert_derived_data_is_what_a_rebuild_makes(novel: &mut Novel) {
    let passages = |conn: &rusqlite::Connection| {
        let mut rows: Vec<_> = store::list_chunks(conn)
            .unwrap()
            .into_iter()
            .map(|c| (c.entity_id, c.part.as_str(), c.seq, c.title, c.body))
            .collect();
        rows.sort();
        rows
    };
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    tx.execute(
        "INSERT INTO search_index(search_index) VALUES('integrity-check')",
        [],
    )
    .expect("the keyword index matches the passages");
    let (moved, rollups) = (passages(&tx), store::list_rollups(&tx).unwrap());
    store::rebuild_search_index(&tx).unwrap();
    store::rebuild_rollups(&tx).unwrap();
    assert_eq!(moved, passages(&tx), "passages after the moves");
    let (counted, kept): (i64, i64) = tx
        .query_row(
            "SELECT (SELECT vectors FROM search_meta), (SELECT count(*) FROM search_vectors)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(counted, kept, "the vector count follows the moves");
    assert_eq!(
        rollups,
        store::list_rollups(&tx).unwrap(),
        "roll-ups after the moves"
    );
    drop(tx);
}

/// Sessions per run: a few in every test run; `NOVEL_HISTORY_CASES=500` for a long one.
fn cases() -> u32 {
    std::env::var("NOVEL_HISTORY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
    #[test]
    fn random_sessions_never_lose_or_corrupt_anything(ops in proptest::collection::vec(op(), 1..14)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(run_ops(ops));
    }
}
