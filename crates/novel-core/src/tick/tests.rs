//! Engine tests of the tick with the scripted fake model: the clean path (three calls), one
//! revision when the checks find a POV leak, failures that leave the story untouched, and
//! cancellation.

use std::cell::RefCell;

use novel_llm::{LlmError, ScriptedModel};
use serde_json::json;

use super::*;
use crate::clock::FixedClock;
use crate::config::{Foundation, GenerationSettings};
use crate::memory::{NewCharacter, NewLocation};
use crate::novel::{Novel, NovelSeed};
use crate::store;

pub(crate) const PROSE: &str = include_str!("../../../novel-cli/tests/fixtures/story/prose.txt");

pub(crate) fn clock() -> FixedClock {
    FixedClock(
        chrono::DateTime::parse_from_rfc3339("2026-11-23T10:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    )
}

/// A novel made from a two-scene manuscript ("Quay", "Watch"), imported and read.
pub(crate) async fn imported_two_scenes() -> (tempfile::TempDir, Novel) {
    let (tmp, mut novel) = novel();
    let path = tmp.path().join("two.md");
    std::fs::write(
        &path,
        "# Two\n\n## Chapter 1\n\nAnna crossed the quay.\n\n* * *\n\nThe watch called out.\n",
    )
    .unwrap();
    let (manuscript, format) = crate::import::read_manuscript(&path).unwrap();
    crate::import::start(&mut novel, "two.md", format, &manuscript, &clock()).unwrap();
    let reader = ScriptedModel::new()
        .reply_json(&json!({ "title": "Quay", "summary": ["Anna crosses."] }))
        .reply_json(&json!({ "title": "Watch", "summary": ["A call."] }));
    crate::import::resume(
        &mut novel,
        &Models::single(std::sync::Arc::new(reader)),
        &(),
        &CancelToken::new(),
        &clock(),
        &|_, _| {},
    )
    .await
    .unwrap();
    (tmp, novel)
}

pub(crate) fn novel() -> (tempfile::TempDir, Novel) {
    let tmp = tempfile::tempdir().unwrap();
    let seed = NovelSeed {
        foundation: Foundation {
            title: "Salt".into(),
            author: String::new(),
            genre: "noir".into(),
            premise: String::new(),
            setting: String::new(),
            tone: String::new(),
            style: String::new(),
            pov: Default::default(),
            tense: Default::default(),
            language: "English".into(),
            themes: Vec::new(),
            author_note: String::new(),
        },
        generation: GenerationSettings::default(),
        protagonist: NewCharacter {
            name: "Tamsin Vale".into(),
            inventory: vec!["rusted dagger".into()],
            ..Default::default()
        },
        location: NewLocation {
            name: "Rainmarket Docks".into(),
            ..Default::default()
        },
        goal: "Clear her brother's name".into(),
        lore: Vec::new(),
    };
    let novel = Novel::create(&tmp.path().join("n"), seed, &clock()).unwrap();
    (tmp, novel)
}

fn plan() -> serde_json::Value {
    json!({
        "rationale": "She needs an ally.", "scene_intention": "Tamsin persuades a dockhand to hide her.",
        "pov_character": "C0", "target_location": "L0",
        "actions": [{"tool": "character.generate", "args": {"name": "Bram", "role": "dockhand", "location": "L0"}}],
        "expected_outcomes": ["an ally"]
    })
}

pub(crate) fn extraction() -> serde_json::Value {
    json!({
        "title": "Low Tide", "summary": ["Tamsin finds Bram.", "He hides her.", "The watch passes."], "tension": 5,
        "character_updates": [{"id": "C0", "changes": {"emotional_state": "wary"}}],
        "loops_opened": [{"description": "Who wrote her name on the slate?", "category": "mystery", "importance": "high"}]
    })
}

pub(crate) fn fingerprint(novel: &Novel) -> String {
    store::dump_story(novel.store().conn()).unwrap()
}

pub(crate) async fn tick(
    novel: &mut Novel,
    model: &ScriptedModel,
    events: &RefCell<Vec<TickEvent>>,
) -> Result<TickOutcome, TickError> {
    let models = Models::single(std::sync::Arc::new(model.clone()));
    let observer = |e: TickEvent| events.borrow_mut().push(e);
    run_tick(
        novel,
        &models,
        &TickOptions::default(),
        &observer,
        &CancelToken::new(),
        &clock(),
    )
    .await
}

#[tokio::test]
async fn a_clean_tick_makes_three_calls_and_commits_everything() {
    let (_tmp, mut novel) = novel();
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3);
    assert_eq!(done.tick, 1);
    assert!(!done.revised);
    assert_eq!(done.scene.title, "Low Tide");
    assert_eq!(done.scene.word_count, crate::model::count_words(PROSE));
    let conn = novel.store().conn();
    assert_eq!(store::load_state(conn).unwrap().current_tick, 1);
    assert_eq!(
        store::get_character(conn, "C1").unwrap().unwrap().name,
        "Bram"
    );
    assert_eq!(
        store::get_character(conn, "C0")
            .unwrap()
            .unwrap()
            .emotional_state
            .as_deref(),
        Some("wary")
    );
    assert_eq!(store::list_loops(conn, None).unwrap().len(), 2);
    let ticks = store::list_ticks(conn).unwrap();
    assert_eq!(ticks[0].usage["roles"]["writer"]["calls"], 1);
    assert!(novel.root().join("scenes/scene_001.md").is_file());
    assert!(novel.root().join("plans/plan_001.json").is_file());
    let stages: Vec<Stage> = events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            TickEvent::Stage { stage } => Some(*stage),
            _ => None,
        })
        .collect();
    assert_eq!(
        stages,
        vec![
            Stage::Gathering,
            Stage::Planning,
            Stage::Tools,
            Stage::Writing,
            Stage::Checking,
            Stage::Extracting,
            Stage::Committing
        ]
    );
    let streamed: String = events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            TickEvent::ProseDelta { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(streamed.trim(), PROSE.trim());
}

#[tokio::test]
async fn a_plan_naming_nothing_is_salvaged_on_the_last_attempt_and_a_named_place_resolved() {
    let (_tmp, mut novel) = novel();
    // A weak model: a place id that does not exist, a beat in words, a tool that is not one.
    let broken = json!({
        "rationale": "She needs an ally.", "scene_intention": "Tamsin persuades a dockhand to hide her.",
        "pov_character": "C0", "target_location": "L7", "beat": "the meeting at the docks",
        "actions": [{"tool": "Sect: 1", "args": {}}],
        "expected_outcomes": ["an ally"]
    });
    let mut model = ScriptedModel::new();
    // Two attempts of a plan and its repair are refused; the third is salvaged.
    for _ in 0..5 {
        model = model.reply_json(&broken);
    }
    let model = model.reply(PROSE).reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(
        model.calls(),
        7,
        "five planner calls, then the writer and the extractor"
    );
    assert_eq!(done.plan.target_location, None);
    assert_eq!(done.plan.beat, None);
    assert!(done.plan.actions.is_empty());
    let notes = done.notes.join("\n");
    for named in [
        "a place, which is no place in the story",
        "the meeting at the docks",
        "Sect: 1",
    ] {
        assert!(notes.contains(named), "{named} not noted:\n{notes}");
    }
    let ticks = store::list_ticks(novel.store().conn()).unwrap();
    assert!(
        ticks[0]
            .notes
            .iter()
            .any(|n| n.contains("no place in the story")),
        "{:?}",
        ticks[0].notes
    );
    // The writer reads the notes: the invented id is not repeated to them.
    assert_eq!(
        crate::ids::raw_ids(&ticks[0].notes.join("\n")),
        Vec::<&str>::new()
    );

    // A place given by its name is resolved at once, without a repair call.
    let named = json!({
        "rationale": "r", "scene_intention": "Tamsin waits at the docks.",
        "pov_character": "Tamsin Vale", "target_location": "Rainmarket Docks",
        "actions": [], "expected_outcomes": []
    });
    let model = ScriptedModel::new()
        .reply_json(&named)
        .reply(PROSE)
        .reply_json(&extraction());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3);
    assert_eq!(done.plan.target_location.as_deref(), Some("L0"));
    assert_eq!(done.plan.pov_character.as_deref(), Some("C0"));
    assert!(
        done.notes
            .iter()
            .any(|n| n.contains("its place as \"Rainmarket Docks\": taken to be Rainmarket Docks")),
        "{:?}",
        done.notes
    );
    assert_eq!(
        crate::ids::raw_ids(&done.notes.join("\n")),
        Vec::<&str>::new()
    );
}

#[tokio::test]
async fn a_pov_leak_triggers_exactly_one_revision() {
    let (_tmp, mut novel) = novel();
    let leaky =
        format!("{PROSE}\n\nShe didn't realize that the watch captain had already seen her.");
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(leaky)
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 4);
    assert!(done.revised);
    assert!(!done.scene.prose.contains("didn't realize"));
    let reviser_prompt = novel_llm::render_prompt(&model.requests()[2]);
    assert!(
        reviser_prompt.contains("didn't realize"),
        "the reviser is shown the finding"
    );
}

#[tokio::test]
async fn a_note_is_recorded_and_the_scene_kept_without_spending_the_revision() {
    let (_tmp, mut novel) = novel();
    // One sentence out of tense in a past-tense scene is as often the author's choice as a
    // slip: a note for the writer, not a revision.
    let one_slip = format!("{PROSE}\n\nThe tide pulls at the pilings below her.");
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(one_slip)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3, "no revision call");
    assert!(!done.revised);
    assert!(done.scene.prose.contains("The tide pulls"));
    let tense: Vec<_> = done
        .findings
        .iter()
        .filter(|f| f.check == crate::evaluate::Check::TenseDrift)
        .collect();
    assert_eq!(tense.len(), 1, "{:?}", done.findings);
    assert_eq!(tense[0].severity, crate::evaluate::Severity::Note);
}

#[tokio::test]
async fn a_failure_after_the_tools_ran_leaves_the_story_untouched() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .fail(LlmError::Timeout {
            provider: "p".into(),
            secs: 1,
        });
    let events = RefCell::new(Vec::new());
    let err = tick(&mut novel, &model, &events).await.unwrap_err();
    match &err {
        TickError::Failed {
            tick,
            stage,
            kind,
            error_file,
            ..
        } => {
            assert_eq!(
                (*tick, *stage, kind.as_str()),
                (1, Stage::Extracting, "llm.timeout")
            );
            assert!(error_file.ends_with("errors/error_001.json"));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(
        fingerprint(&novel),
        before,
        "Bram, created by a tool, must be rolled back too"
    );
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(novel.root().join("errors/error_001.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        record["plan"]["scene_intention"],
        "Tamsin persuades a dockhand to hide her."
    );
    assert_eq!(
        record["execution"]["results"][0]["tool"],
        "character.generate"
    );
    assert!(novel.root().join("errors/error_001.log").is_file());
    assert_eq!(store::list_failures(novel.store().conn()).unwrap().len(), 1);
}

#[tokio::test]
async fn a_cancelled_tick_changes_nothing() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let cancel = CancelToken::new();
    cancel.cancel();
    let models = Models::single(std::sync::Arc::new(model.clone()));
    let err = run_tick(
        &mut novel,
        &models,
        &TickOptions::default(),
        &(),
        &cancel,
        &clock(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, TickError::Cancelled { tick: 1 }), "{err:?}");
    assert_eq!(fingerprint(&novel), before);
    assert!(!novel.root().join("errors/error_001.json").exists());
}

#[test]
fn prose_is_cleaned_of_fences_and_headings() {
    use super::writing::clean_prose;
    assert_eq!(clean_prose("```\n# Title\nRain fell.\n```"), "Rain fell.");
    assert_eq!(clean_prose("  Rain fell.  "), "Rain fell.");
}

#[tokio::test]
async fn a_tick_commits_its_passages_with_vectors_and_searches_memory_by_meaning() {
    let (_tmp, mut novel) = novel();
    let embedder = std::sync::Arc::new(novel_embed::HashEmbedder::default());
    novel.set_retrieval(crate::retrieval::Retrieval::with_embedder(embedder));
    let mut plan = plan();
    plan["actions"] = json!([{"tool": "memory.search", "args": {"query": "who hides smugglers"}, "reason": "allies"}]);
    let model = ScriptedModel::new()
        .reply_json(&plan)
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    let conn = novel.store().conn();
    // The scene's summary and prose passages, and every record, have vectors after the commit.
    assert_eq!(store::count_pending(conn).unwrap(), 0);
    let scene_parts: Vec<_> = store::list_chunks(conn)
        .unwrap()
        .into_iter()
        .filter(|c| c.entity_id == done.scene.id)
        .map(|c| c.part)
        .collect();
    assert!(scene_parts.contains(&store::ChunkPart::Summary));
    assert!(
        scene_parts
            .iter()
            .filter(|p| **p == store::ChunkPart::Prose)
            .count()
            >= 3
    );
    let meta = store::vector_meta(conn).unwrap();
    assert_eq!(meta.model.as_deref(), Some("hash-trigram-v1"));
    assert_eq!(meta.count, store::count_chunks(conn).unwrap());
    // The runner embedded the search's query before the tool ran.
    assert!(novel.retrieval().memo("who hides smugglers").is_some());
    assert!(done.execution.results[0].error.is_none());
}

#[tokio::test]
async fn a_failed_tick_leaves_no_passages_or_vectors_behind() {
    let (_tmp, mut novel) = novel();
    let embedder = std::sync::Arc::new(novel_embed::HashEmbedder::default());
    novel.set_retrieval(crate::retrieval::Retrieval::with_embedder(embedder));
    let before = store::list_chunks(novel.store().conn()).unwrap().len();
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .fail(LlmError::Timeout {
            provider: "p".into(),
            secs: 1,
        });
    let events = RefCell::new(Vec::new());
    assert!(tick(&mut novel, &model, &events).await.is_err());
    let conn = novel.store().conn();
    assert_eq!(store::list_chunks(conn).unwrap().len(), before);
    assert_eq!(store::vector_meta(conn).unwrap().count, 0);
}

#[path = "tests_hostile.rs"]
mod hostile;

#[tokio::test]
async fn prompt_budgets_are_counted_in_the_models_own_tokens() {
    // A model whose tokenizer needs two tokens for every estimated one gets half the text in
    // every section, so its prompts stay within the budgets as it counts them.
    let (_tmp, mut novel) = novel();
    let model = ScriptedModel::new()
        .with_tokens_per_estimate(2.0)
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    tick(&mut novel, &model, &events).await.unwrap();
    let ticks = store::list_ticks(novel.store().conn()).unwrap();
    let used = ticks[0]
        .context_used
        .as_ref()
        .expect("context used is recorded");
    let defaults = crate::config::ContextBudgets::default();
    let planner = used["planner"].as_array().unwrap();
    assert!(!planner.is_empty());
    for section in planner.iter().chain(used["writer"].as_array().unwrap()) {
        let kind: crate::config::SectionKind =
            serde_json::from_value(section["name"].clone()).unwrap();
        assert_eq!(
            section["budget"],
            defaults.of(kind) / 2,
            "{section} should have half its budget"
        );
        assert!(
            section["tokens"].as_u64() <= section["budget"].as_u64(),
            "{section}"
        );
    }
}

#[tokio::test]
async fn the_prompt_preview_shows_the_budgets_the_tick_will_use_for_its_models() {
    let (_tmp, novel) = novel();
    let defaults = crate::config::ContextBudgets::default();
    let estimated = preview::preview_next(&novel, None).await.unwrap();
    let wordy = Models::single(std::sync::Arc::new(
        ScriptedModel::new().with_tokens_per_estimate(2.0),
    ));
    let counted = preview::preview_next_for(&novel, None, Some(&wordy))
        .await
        .unwrap();
    assert_eq!(estimated.sections.len(), counted.sections.len());
    for (plain, scaled) in estimated.sections.iter().zip(&counted.sections) {
        let kind: crate::config::SectionKind =
            serde_json::from_value(serde_json::json!(plain.name)).unwrap();
        assert_eq!(plain.budget, defaults.of(kind), "{}", plain.name);
        assert_eq!(scaled.budget, defaults.of(kind) / 2, "{}", scaled.name);
    }
}

/// A plan that runs no tool: the scene's intention and its one expected outcome.
fn plan_without_tools(intention: &str, outcome: &str) -> serde_json::Value {
    json!({
        "rationale": "Next.", "scene_intention": intention,
        "pov_character": "C0", "target_location": "L0", "actions": [],
        "expected_outcomes": [outcome]
    })
}

fn verdict(realized: &str, missed: &[&str]) -> serde_json::Value {
    let mut answer = extraction();
    answer["plan_verdict"] = json!({"verdict": realized, "missed": missed});
    answer
}

#[tokio::test]
async fn a_scene_that_misses_its_intention_is_revised_once_with_what_was_missed() {
    let (_tmp, mut novel) = novel();
    let toward_plan =
        format!("{PROSE}\n\nBram pulled the tarpaulin over her and swore he had never seen her.");
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&verdict("not", &["the dockhand agrees to hide her"]))
        .reply(toward_plan.clone())
        .reply_json(&verdict("realized", &[]));
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 5, "plan, write, read, revise, read again");
    assert!(done.revised);
    assert_eq!(done.scene.prose.trim(), toward_plan.trim());
    let reviser_prompt = novel_llm::render_prompt(&model.requests()[3]);
    assert!(
        reviser_prompt.contains("the dockhand agrees to hide her")
            && reviser_prompt.contains("Tamsin persuades a dockhand to hide her."),
        "the reviser is told what was missed and what was intended"
    );
    let conn = novel.store().conn();
    let stored = store::get_verdict(conn, 1).unwrap().unwrap();
    assert_eq!(
        stored.verdict.verdict,
        crate::model::Realized::Realized,
        "the kept prose's verdict"
    );
}

#[tokio::test]
async fn a_partly_realized_scene_or_a_spent_revision_is_kept_as_it_is() {
    let (_tmp, mut novel) = novel();
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&verdict("partly", &["the watch passes"]));
    let events = RefCell::new(Vec::new());
    tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3, "partly is recorded, not revised");

    let (_tmp, mut novel) = super::tests::novel();

    let leaky =
        format!("{PROSE}\n\nShe didn't realize that the watch captain had already seen her.");
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(leaky)
        .reply(PROSE)
        .reply_json(&verdict("not", &["an ally"]));
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(
        model.calls(),
        4,
        "the one revision went to the point of view"
    );
    assert!(done.revised);
    let stored = store::get_verdict(novel.store().conn(), 1)
        .unwrap()
        .unwrap();
    assert_eq!(stored.verdict.verdict, crate::model::Realized::Not);
}

#[tokio::test]
async fn a_betrayal_scene_changes_how_each_sees_the_other() {
    let (_tmp, mut novel) = novel();
    let mut first = extraction();
    first["relationship_changes"] = json!([{
        "character_a": "C0", "character_b": "C1", "kind": "ally", "intensity": 4,
        "perspective_a": "a dockhand she can use", "perspective_b": "trouble worth the coin",
        "event": "he hides her under the tarpaulin"
    }]);
    let events = RefCell::new(Vec::new());
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&first);
    tick(&mut novel, &model, &events).await.unwrap();
    let pair = store::find_relationship(novel.store().conn(), "C0", "C1")
        .unwrap()
        .unwrap();
    assert_eq!(pair.perspective_a, "a dockhand she can use");
    assert_eq!(pair.perspective_b, "trouble worth the coin");

    let no_tools = plan_without_tools("Bram sells Tamsin to the watch.", "the betrayal");
    let mut betrayal = extraction();
    betrayal["loops_opened"] = json!([]);
    betrayal["relationship_changes"] = json!([{
        "character_a": "C0", "character_b": "C1", "status": "broken", "intensity": 9,
        "perspective_a": "the man who sold her", "perspective_b": "a debt paid",
        "event": "he points the watch to her hiding place"
    }]);
    let model = ScriptedModel::new()
        .reply_json(&no_tools)
        .reply(PROSE)
        .reply_json(&betrayal);
    tick(&mut novel, &model, &events).await.unwrap();
    let conn = novel.store().conn();
    let pair = store::find_relationship(conn, "C0", "C1").unwrap().unwrap();
    assert_eq!(
        (
            pair.perspective_a.as_str(),
            pair.perspective_b.as_str(),
            pair.intensity
        ),
        ("the man who sold her", "a debt paid", 9)
    );
    let history = store::history_of(conn, &pair.id).unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.tick == 2 && h.field.starts_with("perspective_a")),
        "the change is in the history at scene 2: {history:?}"
    );
}

#[tokio::test]
async fn an_injury_opened_in_one_scene_heals_in_a_later_one_and_the_record_says_both() {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    let quiet = plan_without_tools("Tamsin keeps moving.", "she moves on");
    let mut hurt = extraction();
    hurt["conditions"] = json!([{"character": "C0", "condition": "broken left arm",
        "kind": "injury", "change": "began", "note": "the watchman's club"}]);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&hurt);
    tick(&mut novel, &model, &events).await.unwrap();
    let tamsin = store::get_character(novel.store().conn(), "C0")
        .unwrap()
        .unwrap();
    assert_eq!(tamsin.active_conditions().count(), 1);

    // A later scene cannot heal it by rewriting a fact, but the condition ends when healed.
    let mut healed = extraction();
    healed["loops_opened"] = json!([]);
    healed["conditions"] = json!([{"character": "C0", "condition": "arm",
        "change": "ended", "note": "the splint comes off"}]);
    let model = ScriptedModel::new()
        .reply_json(&quiet)
        .reply(PROSE)
        .reply_json(&healed);
    tick(&mut novel, &model, &events).await.unwrap();
    let conn = novel.store().conn();
    let tamsin = store::get_character(conn, "C0").unwrap().unwrap();
    assert_eq!(tamsin.active_conditions().count(), 0);
    let arm = &tamsin.conditions[0];
    assert_eq!((arm.since_tick, arm.until_tick), (1, Some(2)));
    assert_eq!(arm.note, "the watchman's club; the splint comes off");
    let history = store::history_of(conn, "C0").unwrap();
    for (tick, change) in [(1, "condition began"), (2, "condition ended")] {
        assert!(
            history.iter().any(|h| h.tick == tick && h.change == change),
            "{change} at scene {tick}: {history:?}"
        );
    }
}

#[tokio::test]
async fn a_recorded_fact_gives_way_only_to_a_scene_that_shows_why() {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    let quiet = plan_without_tools("Tamsin keeps moving.", "she moves on");
    let mut first = extraction();
    first["character_updates"] =
        json!([{"id": "C0", "changes": {"facts": {"hair": "long and red"}}}]);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&first);
    tick(&mut novel, &model, &events).await.unwrap();

    let mut unexplained = extraction();
    unexplained["loops_opened"] = json!([]);
    unexplained["character_updates"] =
        json!([{"id": "C0", "changes": {"facts": {"hair": "cropped"}}}]);
    // The scene is revised once to agree with the record; read again it still disagrees, so
    // the change is refused, flagged, and said in the tick's notes.
    let model = ScriptedModel::new()
        .reply_json(&quiet)
        .reply(PROSE)
        .reply_json(&unexplained)
        .reply(PROSE)
        .reply_json(&unexplained);
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 5);
    assert!(done.revised);
    let reviser_prompt = novel_llm::render_prompt(&model.requests()[3]);
    assert!(
        reviser_prompt.contains("contradicts what the story memory records")
            && reviser_prompt.contains("the recorded fact `hair`"),
        "{reviser_prompt}"
    );
    let notes = store::get_tick(novel.store().conn(), 2)
        .unwrap()
        .unwrap()
        .notes
        .join("\n");
    assert!(
        notes.contains(
            "kept although the scene disagrees with the story memory (flagged on Tamsin Vale)"
        ),
        "{notes}"
    );
    let hair = |novel: &Novel| {
        store::get_character(novel.store().conn(), "C0")
            .unwrap()
            .unwrap()
            .facts["hair"]
            .clone()
    };
    assert_eq!(hair(&novel), "long and red", "refused without a reason");

    let mut shown = unexplained.clone();
    shown["character_updates"][0]["because"] =
        json!("she hacks it off with the dagger to pass as a boy");
    let model = ScriptedModel::new()
        .reply_json(&quiet)
        .reply(PROSE)
        .reply_json(&shown);
    tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(hair(&novel), "cropped");
    let history = store::history_of(novel.store().conn(), "C0").unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.tick == 2 && h.flagged && h.field == "facts.hair")
    );
    assert!(history.iter().any(|h| h.tick == 3
        && h.change == "superseded: she hacks it off with the dagger to pass as a boy"));
}

#[tokio::test]
async fn a_scene_that_contradicts_a_recorded_fact_is_revised_to_agree_with_memory() {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    let mut first = extraction();
    first["character_updates"] =
        json!([{"id": "C1", "changes": {"facts": {"eyes": "pale as fog"}}}]);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&first);
    tick(&mut novel, &model, &events).await.unwrap();

    let quiet = plan_without_tools("Tamsin studies Bram.", "doubt");
    let mut brown = extraction();
    brown["loops_opened"] = json!([]);
    brown["character_updates"] = json!([{"id": "C1", "changes": {"facts": {"eyes": "brown"}}}]);
    let mut agrees = extraction();
    agrees["loops_opened"] = json!([]);
    let agreeing = format!("{PROSE}\n\nHis eyes stayed pale as the fog and gave her nothing.");
    let model = ScriptedModel::new()
        .reply_json(&quiet)
        .reply(PROSE)
        .reply_json(&brown)
        .reply(agreeing.clone())
        .reply_json(&agrees);
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 5);
    assert_eq!(done.scene.prose.trim(), agreeing.trim());
    let conn = novel.store().conn();
    assert_eq!(
        store::get_character(conn, "C1").unwrap().unwrap().facts["eyes"],
        "pale as fog"
    );
    let notes = store::get_tick(conn, 2).unwrap().unwrap().notes.join("\n");
    assert!(
        notes.contains("revised once for: what the story memory holds"),
        "{notes}"
    );
    assert!(!notes.contains("kept although"), "{notes}");
    assert!(
        store::history_of(conn, "C1")
            .unwrap()
            .iter()
            .all(|h| !h.flagged),
        "nothing disagreeing was committed"
    );
}

#[tokio::test]
async fn a_loop_the_extractor_opens_twice_advances_the_first_instead() {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    tick(&mut novel, &model, &events).await.unwrap();
    let open_before = store::list_loops(novel.store().conn(), None).unwrap().len();

    let quiet = plan_without_tools("Tamsin reads the slate.", "a clue");
    let mut again = extraction();
    again["loops_opened"] = json!([{"description": "Who wrote Tamsin's name on the slate by the customs house?",
        "category": "mystery", "importance": "high"}]);
    let model = ScriptedModel::new()
        .reply_json(&quiet)
        .reply(PROSE)
        .reply_json(&again);
    tick(&mut novel, &model, &events).await.unwrap();
    let loops = store::list_loops(novel.store().conn(), None).unwrap();
    assert_eq!(loops.len(), open_before, "no twin was opened");
    let slate = loops
        .iter()
        .find(|l| l.description == "Who wrote her name on the slate?")
        .unwrap();
    assert_eq!(slate.notes.last().unwrap().tick, 2);
    assert!(
        slate
            .notes
            .last()
            .unwrap()
            .note
            .starts_with("again: Who wrote Tamsin's name")
    );
}
