//! Prompt tests: golden files of every rendered prompt for a fixed story (rewrite them with
//! `UPDATE_GOLDEN=1` after an intended change, and bump the template's version), the version
//! headers, the tool catalog generated from the schemas, and the errors a template can raise.

use std::path::PathBuf;

use novel_llm::ChatRequest;
use serde_json::json;

use super::*;
use crate::context::FirstBullets;
use crate::context::fixture::novel;
use crate::context::{ContextBudgets, Focus, StoryContext, gather_with};
use crate::plan::Plan;
use crate::tools::ToolRegistry;

const PROSE: &str = "The ferryman's hands were the first thing Elena saw.\n\n\
                     They did not shake when she unfolded the page.";

fn plan() -> Plan {
    serde_json::from_value(json!({
        "rationale": "The razor points to the lamplighters; a ferryman saw who carried it.",
        "scene_intention": "Elena shows the cut page to a ferryman at the Harbour Steps and catches him lying about the razor.",
        "pov_character": "C0",
        "target_location": "L1",
        "actions": [{"tool": "memory.search", "args": {"query": "razor lamplighter"}, "reason": "who owns such a razor"}],
        "expected_outcomes": ["The ferryman lies and Elena sees it", "Elena learns the lamplighters' yard is involved"]
    }))
    .unwrap()
}

/// The passages keyword search recalls for `ctx` (deterministic: no embedder).
fn recalled(f: &crate::context::fixture::Fixture, ctx: StoryContext) -> StoryContext {
    let retrieval = crate::retrieval::Retrieval::keyword_only("golden files");
    let hits = match ctx.recall_query() {
        Some(query) => futures::executor::block_on(retrieval.recall(f.store.conn(), &query)),
        None => Vec::new(),
    };
    ctx.with_recalled(&hits)
}

/// The fixed story of the golden files, as the writer sees it.
fn writer_context() -> StoryContext {
    let f = novel(4);
    let plan = plan();
    let ctx = gather_with(
        f.store.conn(),
        &f.config,
        &ContextBudgets::default(),
        &Focus::of_plan(&plan),
        &FirstBullets,
    )
    .unwrap()
    .with_plan(&plan)
    .with_tool_results(&[(
        "memory.search".into(),
        json!({"hits": [{"entity_id": "O0", "kind": "loop", "tick": 2, "title": "Who cut the page from the tide ledger?",
                         "snippet": "the cut was made with a lamplighter's razor", "score": 3.2}]}),
    )])
    .with_steering(Some("Keep Marcus offstage; the ferryman's lie should show in his hands."));
    recalled(&f, ctx)
}

fn planner_context() -> StoryContext {
    let f = novel(4);
    let ctx = crate::context::gather(f.store.conn(), &f.config, &ContextBudgets::default())
        .unwrap()
        .with_steering(Some(
            "Keep Marcus offstage; the ferryman's lie should show in his hands.",
        ));
    recalled(&f, ctx)
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("src/prompts/golden/{name}.txt"))
}

fn as_text(req: &ChatRequest) -> String {
    assert_eq!(req.messages.len(), 1);
    format!(
        "=== system ===\n{}\n=== user ===\n{}\n",
        req.system.as_deref().unwrap_or(""),
        req.messages[0].content
    )
}

/// Compares with the committed golden file, or rewrites it when `UPDATE_GOLDEN=1`.
fn check_golden(name: &str, req: &ChatRequest) {
    let actual = as_text(req);
    let path = golden_path(name);
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "{name} prompt differs from {}; if intended, rerun with UPDATE_GOLDEN=1 and bump the \
         template version.\n--- actual ---\n{actual}",
        path.display()
    );
}

#[test]
fn planner_prompt_matches_its_golden_file() {
    let req = planner_request(&planner_context(), &ToolRegistry::standard(), None).unwrap();
    check_golden("planner", &req);
}

#[test]
fn replanning_planner_prompt_matches_its_golden_file() {
    let feedback = ReplanFeedback {
        problems: vec![
            "actions.0: unknown tool `memory.lookup`".into(),
            "tool character.generate failed 3 times: timeout".into(),
        ],
        disabled_tools: vec!["character.generate".into()],
        degraded_tools: vec!["memory.search".into()],
    };
    let req = planner_request(
        &planner_context(),
        &ToolRegistry::standard(),
        Some(&feedback),
    )
    .unwrap();
    check_golden("planner_replan", &req);
    let system = req.system.unwrap();
    assert!(
        !system.contains("- character.generate("),
        "disabled tools leave the catalog"
    );
    assert!(system.contains("- character.update("));
    let prompt = serde_json::to_string(&req.messages).unwrap();
    assert!(
        prompt.contains("Unreliable lately (slow or failing): memory.search."),
        "the planner is told which tools to use with caution"
    );
}

#[test]
fn writer_prompt_matches_its_golden_file() {
    check_golden("writer", &writer_request(&writer_context()).unwrap());
}

#[test]
fn reviser_prompt_matches_its_golden_file() {
    let findings = "1. POV leak: \"unbeknownst to Elena\" narrates what she cannot know.\n\
                    2. Tense drift: \"she opens\" should be past tense.";
    check_golden(
        "reviser",
        &reviser_request(&writer_context(), PROSE, findings).unwrap(),
    );
}

#[test]
fn extractor_prompt_matches_its_golden_file() {
    check_golden(
        "extractor",
        &extractor_request(&writer_context().with_scene(PROSE), PROSE).unwrap(),
    );
}

#[test]
fn first_person_changes_the_writer_voice() {
    let f = novel(1);
    let mut config = f.config.clone();
    config.novel.pov = crate::config::PointOfView::First;
    config.novel.tense = crate::config::Tense::Present;
    let ctx = crate::context::gather(f.store.conn(), &config, &ContextBudgets::default())
        .unwrap()
        .with_plan(&plan());
    let system = writer_request(&ctx).unwrap().system.unwrap();
    assert!(system.contains("first person, present tense"), "{system}");
    assert!(system.contains("the narrator (\"I\")"), "{system}");
}

#[test]
fn the_writer_refuses_to_render_without_a_plan() {
    let ctx = planner_context();
    assert_eq!(writer_request(&ctx).unwrap_err(), PromptError::MissingPlan);
}

#[test]
fn versions_come_from_the_template_headers() {
    let recorded = serde_json::to_value(PROMPT_VERSIONS).unwrap();
    assert_eq!(
        recorded,
        json!({"planner": 7, "writer": 5, "reviser": 1, "extractor": 7, "critic": 2})
    );
    for role in PromptRole::ALL {
        assert_eq!(
            Some(u64::from(role.version())),
            recorded[role.as_str()].as_u64(),
            "{}",
            role.as_str()
        );
    }
}

#[test]
fn the_tool_catalog_is_generated_from_the_argument_schemas() {
    let tools = catalog(&ToolRegistry::standard(), &[]);
    let search = tools.iter().find(|t| t.name == "memory.search").unwrap();
    assert_eq!(
        search.args,
        "query: string (required), entity_types: [character|location|relationship|loop|lore|scene], from_tick: integer, limit: integer, to_tick: integer"
    );
    let lore = tools.iter().find(|t| t.name == "lore.add").unwrap();
    assert_eq!(
        lore.args,
        "fact: string (required), aliases: [string], category: string, importance: low|medium|high|critical, keywords: [string]"
    );
    let rel = tools
        .iter()
        .find(|t| t.name == "relationship.create")
        .unwrap();
    assert!(
        rel.args.starts_with("character_a: string (required), character_b: string (required), kind: string (required), "),
        "{}",
        rel.args
    );
    assert_eq!(argument_list(&json!({"type": "object"})), "");
}

#[test]
fn template_errors_name_the_role() {
    // An undefined variable must fail, not render as a gap.
    let err = templates_render_with_missing_field();
    assert!(
        matches!(
            err,
            PromptError::Template {
                role: "reviser",
                ..
            }
        ),
        "{err:?}"
    );
}

fn templates_render_with_missing_field() -> PromptError {
    super::templates::render(PromptRole::Reviser, minijinja::context! { prose => "x" }).unwrap_err()
}

#[test]
fn a_flat_tension_curve_tells_the_planner_to_escalate() {
    let render = |tensions: [u8; 3]| {
        let mut ctx = planner_context();
        ctx.recent_tensions = tensions
            .iter()
            .enumerate()
            .map(|(i, t)| (i as u32 + 1, Some(*t)))
            .collect();
        as_text(&planner_request(&ctx, &ToolRegistry::standard(), None).unwrap())
    };
    assert!(render([5, 5, 6]).contains("flat for three scenes"));
    assert!(!render([3, 5, 8]).contains("flat for three scenes"));
}

#[test]
fn critic_prompt_matches_its_golden_file() {
    let findings = "1. [another character's mind] \"Marcus felt a cold fear\" states Marcus's feeling as fact.";
    check_golden(
        "critic",
        &critic_request(&writer_context(), PROSE, findings).unwrap(),
    );
}
