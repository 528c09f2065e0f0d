//! The tick against hostile and broken model output: empty and runaway prose, extractions out
//! of range or unusable, terminal escapes in titles, and plans whose actions build on each
//! other. Each of these once reached the novel (or lost a written scene).

use std::cell::RefCell;

use novel_llm::ScriptedModel;
use serde_json::json;

use super::*;

fn quiet_plan() -> serde_json::Value {
    json!({"rationale": "Breathe.", "scene_intention": "Tamsin waits out the rain.",
           "pov_character": "C0", "target_location": "L0", "actions": []})
}

#[tokio::test]
async fn empty_prose_is_revised_and_never_committed() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply("   \n  ")
        .reply("");
    let events = RefCell::new(Vec::new());
    let err = tick(&mut novel, &model, &events).await.unwrap_err();
    assert_eq!(model.calls(), 3, "plan, write, one revision: no more");
    assert_eq!(err.kind(), ErrorKind::ProseRejected, "{err}");
    assert_eq!(fingerprint(&novel), before);
    let revision_prompt = novel_llm::render_prompt(&model.requests()[2]);
    assert!(revision_prompt.contains("no prose"), "{revision_prompt}");
}

#[tokio::test]
async fn an_empty_draft_revised_into_a_scene_commits_the_revision() {
    let (_tmp, mut novel) = novel();
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply("")
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert!(done.revised);
    assert_eq!(done.scene.prose.trim(), PROSE.trim());
}

#[tokio::test]
async fn runaway_prose_is_cut_before_revision_and_refused_if_it_stays() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let endless = format!("{PROSE}\n\n").repeat(40);
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(endless.clone())
        .reply(endless);
    let events = RefCell::new(Vec::new());
    let err = tick(&mut novel, &model, &events).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ProseRejected);
    assert_eq!(fingerprint(&novel), before);
    let max = novel.config().generation.target_words_max;
    let revision_prompt = novel_llm::render_prompt(&model.requests()[2]);
    assert!(
        crate::model::count_words(&revision_prompt) < max * 2 + 2000,
        "the reviser is shown the cut draft, not the runaway one"
    );
    let log = std::fs::read_to_string(novel.root().join("errors/error_001.log")).unwrap();
    assert!(
        log.contains("Draft prose (not committed)"),
        "the draft is kept"
    );
}

#[tokio::test]
async fn an_extraction_out_of_range_keeps_the_scene_and_notes_the_repairs() {
    let (_tmp, mut novel) = novel();
    let bad = json!({"title": ",", "summary": ["Tamsin waits."], "tension": 30,
                     "new_characters": [{"role": "nameless"}]});
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply_json(&bad);
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3, "salvaged locally: no repair call");
    assert_eq!(done.scene.tension, Some(10));
    assert_ne!(done.scene.title, ",");
    assert!(done.scene.title.chars().any(char::is_alphabetic));
    let notes = done.notes.join("\n");
    assert!(notes.contains("tension 30"), "{notes}");
    assert!(
        notes.contains("the 1st of the new characters"),
        "named in words, not by its field: {notes}"
    );
    let stored = store::list_ticks(novel.store().conn()).unwrap();
    assert_eq!(stored[0].notes, done.notes, "the timeline shows the notes");
}

#[tokio::test]
async fn notes_on_changes_left_out_name_things_never_by_id() {
    let (_tmp, mut novel) = novel();
    // Changes to records the story does not have, and one the memory refuses.
    let bad = json!({"title": "Rain", "summary": ["Tamsin waits."], "tension": 3,
                     "character_updates": [{"id": "C9", "changes": {"emotional_state": "sad"}}],
                     "location_updates": [{"id": "L0", "changes": {"tension_level": 40}}],
                     "relationship_changes": [{"character_a": "C0", "character_b": "C7", "status": "wary"}],
                     "loops_advanced": [{"id": "O8", "note": "closer"}]});
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply_json(&bad);
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    let notes = done.notes.join("\n");
    assert!(!done.notes.is_empty());
    assert_eq!(
        crate::ids::raw_ids(&notes),
        Vec::<&str>::new(),
        "a note the writer reads names no id:\n{notes}"
    );
    assert!(notes.contains("the story does not have"), "{notes}");
    assert!(
        notes.contains("the change to Rainmarket Docks") && notes.contains("tension: 40"),
        "{notes}"
    );
    assert!(!notes.contains('`'), "no field names: {notes}");
}

#[tokio::test]
async fn an_extraction_of_thousands_of_records_commits_at_most_the_cap_and_says_so() {
    let (_tmp, mut novel) = novel();
    let crowd: Vec<serde_json::Value> = (0..2000)
        .map(|i| json!({"name": format!("Extra {i}"), "role": "crowd"}))
        .collect();
    let flood = json!({"title": "The Crowd", "summary": ["Tamsin waits."], "tension": 4,
                       "new_characters": crowd});
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply_json(&flood);
    let events = RefCell::new(Vec::new());
    let before: i64 = novel
        .store()
        .conn()
        .query_row("SELECT COUNT(*) FROM characters", [], |r| r.get(0))
        .unwrap();
    let done = tick(&mut novel, &model, &events).await.unwrap();
    let after: i64 = novel
        .store()
        .conn()
        .query_row("SELECT COUNT(*) FROM characters", [], |r| r.get(0))
        .unwrap();
    let added = usize::try_from(after - before).unwrap();
    assert!(
        added <= super::salvage::MAX_RECORDS_PER_TICK,
        "{added} characters added"
    );
    let stored = store::list_ticks(novel.store().conn()).unwrap();
    let notes = stored[0].notes.join("\n");
    assert!(
        notes.contains("dropped the rest (1900 new characters)"),
        "{notes}"
    );
    assert_eq!(stored[0].notes, done.notes, "the timeline shows the note");
}

#[tokio::test]
async fn an_unusable_extraction_still_commits_the_scene() {
    let (_tmp, mut novel) = novel();
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply("I'm sorry, I can't summarise that.")
        .reply("Still no JSON.");
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(done.scene.prose.trim(), PROSE.trim());
    assert!(!done.scene.summary.is_empty());
    assert!(
        done.notes
            .iter()
            .any(|n| n.contains("memory was not updated")),
        "{:?}",
        done.notes
    );
    assert_eq!(
        store::load_state(novel.store().conn())
            .unwrap()
            .current_tick,
        1
    );
}

#[tokio::test]
async fn terminal_escapes_never_reach_the_scene_or_its_file() {
    let (_tmp, mut novel) = novel();
    let mut hostile = extraction();
    hostile["title"] = json!("Low\u{1b}]0;owned\u{7} Tide\u{1b}[2J");
    hostile["summary"] = json!(["Tamsin \u{1b}[31mhides\u{1b}[0m."]);
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(format!("{PROSE}\u{1b}[2J"))
        .reply_json(&hostile);
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(done.scene.title, "Low Tide");
    assert_eq!(done.scene.summary, vec!["Tamsin hides.".to_string()]);
    let file = std::fs::read_to_string(crate::files::scene_path(novel.root(), 1)).unwrap();
    assert!(
        !file.contains('\u{1b}') && !file.contains('\u{7}'),
        "{file:?}"
    );
}

#[tokio::test]
async fn an_action_uses_the_id_its_dependency_created() {
    let (_tmp, mut novel) = novel();
    let plan = json!({
        "rationale": "She needs an ally she can trust.",
        "scene_intention": "Tamsin meets Bram and they strike a bargain.",
        "pov_character": "C0", "target_location": "L0",
        "actions": [
            {"id": "bram", "tool": "character.generate", "args": {"name": "Bram", "role": "dockhand"}},
            {"tool": "relationship.create", "dependencies": ["bram"],
             "args": {"character_a": "C0", "character_b": "$bram.id", "kind": "ally"}}
        ]
    });
    let model = ScriptedModel::new()
        .reply_json(&plan)
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert!(done.execution.success, "{:?}", done.execution);
    let conn = novel.store().conn();
    let bram = store::list_characters(conn)
        .unwrap()
        .into_iter()
        .find(|c| c.name == "Bram")
        .unwrap();
    let rel = store::find_relationship(conn, "C0", &bram.id)
        .unwrap()
        .expect("the relationship names the character created one action earlier");
    assert_eq!(rel.kind, "ally");
}

#[tokio::test]
async fn a_rejected_plan_is_fed_back_as_a_list_once() {
    let (_tmp, mut novel) = novel();
    let unknown_tool = json!({"rationale": "r", "scene_intention": "i", "pov_character": "C0",
        "target_location": "L0", "actions": [{"tool": "weather.forecast", "args": {}}]});
    let model = ScriptedModel::new()
        .reply_json(&unknown_tool)
        .reply_json(&unknown_tool)
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    tick(&mut novel, &model, &events).await.unwrap();
    let replan = novel_llm::render_prompt(&model.requests()[2]);
    assert_eq!(
        replan.matches("Your previous plan was rejected").count(),
        1,
        "{replan}"
    );
    assert_eq!(replan.matches("Tools that exist:").count(), 1, "{replan}");
    assert!(!replan.contains("- - "), "{replan}");
    assert!(replan.contains("weather.forecast"), "{replan}");
}

/// A reviewer that answers from a script.
struct Scripted {
    plan: super::PlanVerdict,
    verdict: super::Verdict,
    seen: std::sync::Mutex<Vec<super::Proposal>>,
}

impl super::Reviewer for Scripted {
    fn review_plan<'a>(
        &'a self,
        _tick: u32,
        _plan: &'a crate::plan::Plan,
    ) -> futures::future::BoxFuture<'a, super::PlanVerdict> {
        Box::pin(async move { self.plan.clone() })
    }

    fn review<'a>(
        &'a self,
        proposal: &'a super::Proposal,
    ) -> futures::future::BoxFuture<'a, super::Verdict> {
        self.seen.lock().unwrap().push(proposal.clone());
        Box::pin(async move { self.verdict.clone() })
    }
}

async fn reviewed_tick(
    novel: &mut Novel,
    model: &ScriptedModel,
    reviewer: Scripted,
) -> (Result<TickOutcome, TickError>, std::sync::Arc<Scripted>) {
    let reviewer = std::sync::Arc::new(reviewer);
    let options = TickOptions {
        reviewer: Some(super::ReviewBy(reviewer.clone())),
        ..TickOptions::default()
    };
    let models = Models::single(std::sync::Arc::new(model.clone()));
    let result = run_tick(novel, &models, &options, &(), &CancelToken::new(), &clock()).await;
    (result, reviewer)
}

#[tokio::test]
async fn review_shows_the_memory_diff_and_an_unticked_change_is_not_applied() {
    let (_tmp, mut novel) = novel();
    let mut e = extraction();
    e["new_characters"] = json!([{"name": "Osk", "role": "ferryman"}]);
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply_json(&e);
    let verdict = super::Verdict::Accept {
        prose: Some(format!("{PROSE}\n\nShe left before dawn.")),
        unticked: vec![0],
    };
    let (done, reviewer) = reviewed_tick(
        &mut novel,
        &model,
        Scripted {
            plan: super::PlanVerdict::Accept,
            verdict,
            seen: Default::default(),
        },
    )
    .await;
    let done = done.unwrap();
    let proposal = reviewer.seen.lock().unwrap()[0].clone();
    let kinds: Vec<_> = proposal
        .changes
        .iter()
        .map(|c| (c.index, c.category))
        .collect();
    assert_eq!(
        kinds,
        [
            (0, super::ChangeCategory::NewCharacter),
            (1, super::ChangeCategory::CharacterUpdate),
            (2, super::ChangeCategory::LoopOpened)
        ]
    );
    assert!(done.scene.prose.ends_with("She left before dawn."));
    let conn = novel.store().conn();
    assert!(
        store::list_characters(conn)
            .unwrap()
            .iter()
            .all(|c| c.name != "Osk"),
        "the unticked new character was not created"
    );
    assert_eq!(
        store::get_character(conn, "C0")
            .unwrap()
            .unwrap()
            .emotional_state
            .as_deref(),
        Some("wary"),
        "the ticked changes were applied"
    );
}

#[tokio::test]
async fn a_rejected_review_changes_nothing() {
    let (_tmp, mut novel) = novel();
    let before = fingerprint(&novel);
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let (result, _) = reviewed_tick(
        &mut novel,
        &model,
        Scripted {
            plan: super::PlanVerdict::Accept,
            verdict: super::Verdict::Reject,
            seen: Default::default(),
        },
    )
    .await;
    assert!(
        matches!(result, Err(TickError::Rejected { tick: 1 })),
        "{result:?}"
    );
    assert_eq!(fingerprint(&novel), before);
    assert!(!novel.root().join("errors/error_001.json").exists());
}

#[tokio::test]
async fn an_edited_plan_runs_instead_of_the_planners() {
    let (_tmp, mut novel) = novel();
    let mut edited: crate::plan::Plan = serde_json::from_value(plan()).unwrap();
    edited.actions[0].args.insert("name".into(), json!("Wenna"));
    let model = ScriptedModel::new()
        .reply_json(&plan())
        .reply(PROSE)
        .reply_json(&extraction());
    let (done, _) = reviewed_tick(
        &mut novel,
        &model,
        Scripted {
            plan: super::PlanVerdict::Edit { plan: edited },
            verdict: super::Verdict::Accept {
                prose: None,
                unticked: vec![],
            },
            seen: Default::default(),
        },
    )
    .await;
    done.unwrap();
    let names: Vec<String> = store::list_characters(novel.store().conn())
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert!(
        names.contains(&"Wenna".to_string()) && !names.contains(&"Bram".to_string()),
        "{names:?}"
    );
}

fn with_critic(novel: &mut Novel) {
    let mut settings = novel.config().generation.clone();
    settings.critic = true;
    crate::edits::set_generation_settings(novel, settings).unwrap();
}

#[tokio::test]
async fn the_critic_finds_a_break_the_rules_missed_and_the_scene_is_revised() {
    let (_tmp, mut novel) = novel();
    with_critic(&mut novel);
    let unseen = "Far below the boat, the wreck of the Marigold lay on its side in the silt.";
    let critique = json!({"reviews": [], "missed": [{"kind": "narrator_knowledge", "sentence": unseen,
        "problem": "Tamsin cannot see the wreck from the boat"}]});
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(format!("{PROSE}\n\n{unseen}"))
        .reply_json(&critique)
        .reply(PROSE)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 5, "plan, write, critic, revise, extract");
    assert!(done.revised);
    assert!(done.usage.roles.contains_key(&crate::config::Role::Critic));
    assert!(
        done.notes.iter().any(|n| n.contains("critic found")),
        "{:?}",
        done.notes
    );
    let revision = novel_llm::render_prompt(&model.requests()[3]);
    assert!(
        revision.contains("the wreck of the Marigold"),
        "the reviser is told"
    );
}

#[tokio::test]
async fn a_finding_the_critic_dismisses_no_longer_forces_a_revision() {
    let (_tmp, mut novel) = novel();
    with_critic(&mut novel);
    let leaky =
        format!("{PROSE}\n\nShe didn't realize that the watch captain had already seen her.");
    let critique = json!({"reviews": [{"finding": 1, "judgement": "dismiss", "reason": "read as her later thought"}], "missed": []});
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(leaky)
        .reply_json(&critique)
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 4, "no revision");
    assert!(!done.revised);
    assert!(
        done.findings
            .iter()
            .any(|f| f.message.contains("critic disagreed"))
    );
}

#[tokio::test]
async fn a_critic_that_answers_nonsense_costs_a_note_not_the_scene() {
    let (_tmp, mut novel) = novel();
    with_critic(&mut novel);
    let model = ScriptedModel::new()
        .reply_json(&quiet_plan())
        .reply(PROSE)
        .reply("I like it!")
        .reply("Really, I do.")
        .reply_json(&extraction());
    let events = RefCell::new(Vec::new());
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert!(
        done.notes.iter().any(|n| n.contains("critic")),
        "{:?}",
        done.notes
    );
    assert_eq!(done.usage.roles[&crate::config::Role::Critic].calls, 2);
}
