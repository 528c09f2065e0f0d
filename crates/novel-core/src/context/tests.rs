//! Context builder tests: what each section holds for a known story, that every section keeps
//! to its budget with a visible marker, and that a 300-scene novel costs the planner about as
//! many tokens as a 10-scene one.

use novel_llm::{count_tokens, estimate_prompt_tokens};
use serde_json::json;

use super::budget::{Keep, cut_words, fit_items};
use super::fixture::novel;
use super::summary::bounded_summary;
use super::*;
use crate::model::Character;
use crate::plan::Plan;
use crate::prompts::planner_request;
use crate::store::{self, SearchHit};
use crate::tools::ToolRegistry;

fn context_of(scenes: u32, budgets: &ContextBudgets) -> StoryContext {
    let f = novel(scenes);
    gather(f.store.conn(), &f.config, budgets).unwrap()
}

fn plan_at(location: &str) -> Plan {
    serde_json::from_value(json!({
        "rationale": "r",
        "scene_intention": "Elena takes the cut page to the ferrymen.",
        "pov_character": "C0",
        "target_location": location,
        "actions": [],
        "expected_outcomes": ["A ferryman recognises the hand."]
    }))
    .unwrap()
}

#[test]
fn gathers_each_section_from_the_story_memory() {
    let ctx = context_of(4, &ContextBudgets::default());
    assert_eq!(ctx.tick, 5);
    assert_eq!(ctx.pov.as_ref().unwrap().name, "Elena Marsh");
    assert_eq!(ctx.location.as_ref().unwrap().id, "L0");
    assert_eq!(
        ctx.recent_tensions,
        vec![(2, Some(5)), (3, Some(6)), (4, Some(7))]
    );

    // Three scenes, plus those since the last multiple of three: after tick 4, ticks 1–4 are
    // shown in detail and the overall summary has nothing left to say.
    assert!(ctx.text(SectionKind::Summary).is_empty());
    let recent = ctx.text(SectionKind::Recent);
    assert!(recent.starts_with("Tick 1 "), "{recent}");
    assert!(
        recent.contains("Tick 4 \"Salt and Ink 4\" (tension 7/10, The Salt Archive)"),
        "{recent}"
    );
    assert!(recent.contains("Tick 3 \"Salt and Ink 3\" (tension 6/10, Harbour Steps)"));
    assert_eq!(
        recent.matches("\n- ").count(),
        12,
        "three bullets per scene"
    );
    // After tick 6 the stretch starts again: ticks 4–6 in detail, 1–3 in the summary.
    let later = context_of(6, &ContextBudgets::default());
    let recent = later.text(SectionKind::Recent);
    assert!(recent.starts_with("Tick 4 "), "{recent}");
    let summary = later.text(SectionKind::Summary);
    assert!(summary.starts_with("Tick 1: "), "{summary}");
    assert!(!summary.contains("Tick 4"), "{summary}");

    let tail = ctx.text(SectionKind::PreviousTail);
    assert!(tail.starts_with('…'), "{tail}");
    assert_eq!(tail.trim_start_matches('…').split_whitespace().count(), 150);

    let loops = ctx.text(SectionKind::Loops);
    let high = loops.find("O0 [high, mystery]").unwrap();
    let medium = loops.find("O1 [medium, relationship]").unwrap();
    assert!(high < medium, "{loops}");
    assert!(loops.contains("tick 2: the cut was made"), "{loops}");

    let character = ctx.text(SectionKind::Character);
    assert!(
        character.starts_with("Elena Marsh (C0), archivist\n"),
        "{character}"
    );
    for needle in [
        "Goals: find who cut the page",
        "Fears: deep water",
        "Carries: brass ledger key, a cut ledger page",
        "Feels: wary, exhausted",
        "Arc: wants the truth about the ledgers; needs to trust someone again",
        "Facts: father: drowned ten years ago",
    ] {
        assert!(
            character.contains(needle),
            "{needle} missing from {character}"
        );
    }

    let rels = ctx.text(SectionKind::Relationships);
    assert!(
        rels.contains("Marcus Vey (C1): mentor, strained, 7/10"),
        "{rels}"
    );
    assert!(
        rels.contains("Elena Marsh's view: \"He taught me"),
        "{rels}"
    );
    assert!(
        !rels.contains("too close to the truth"),
        "only the POV's view: {rels}"
    );

    let place = ctx.text(SectionKind::Location);
    assert!(
        place.starts_with("The Salt Archive (L0), tension 2/5"),
        "{place}"
    );
    assert!(
        place.contains("Present: Marcus Vey (C1), head archivist"),
        "{place}"
    );
    assert!(!place.contains("Present: Elena"), "{place}");
    assert!(place.contains("Leads to: Harbour Steps (L1)"), "{place}");

    // "ledger" occurs in the recent summaries and the POV's goals.
    assert!(
        ctx.text(SectionKind::Lore)
            .contains("W0 [law] Tide ledgers")
    );
    let entities = ctx.text(SectionKind::Entities);
    assert!(
        entities.starts_with("- C0 Elena Marsh, archivist\n"),
        "{entities}"
    );
    assert!(entities.contains("- L1 Harbour Steps"), "{entities}");

    // Nothing was over budget in this small story.
    assert!(
        ctx.sections()
            .iter()
            .all(|s| !s.trimmed && s.tokens <= s.budget)
    );
}

#[test]
fn the_overall_summary_can_be_switched_off() {
    let mut f = novel(6);
    f.config.generation.include_overall_summary = false;
    let ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    assert_eq!(ctx.text(SectionKind::Summary), "");
    f.config.generation.include_overall_summary = true;
    let ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    assert!(ctx.text(SectionKind::Summary).contains("Tick 3: "));
}

#[test]
fn a_long_summary_keeps_its_opening_and_latest_ticks_and_counts_the_elided_middle() {
    let lines: Vec<SummaryLine> = (1..=200)
        .map(|t| SummaryLine {
            first_tick: t,
            last_tick: t,
            text: format!("Tick {t}: Elena follows another thread through the flooded city."),
        })
        .collect();
    let section = bounded_summary(&lines, 300);
    assert!(section.trimmed);
    assert!(section.tokens <= 300, "{} tokens", section.tokens);
    let out: Vec<&str> = section.text.lines().collect();
    assert_eq!(out[0], lines[0].text);
    assert_eq!(out[1], lines[1].text);
    assert_eq!(*out.last().unwrap(), lines[199].text);
    let marker = out.iter().find(|l| l.starts_with("… (")).unwrap();
    let shown = out.len() - 1;
    assert_eq!(
        *marker,
        format!("… ({} earlier scenes omitted)", 200 - shown)
    );
    // Shown lines are the head and a contiguous run ending at the newest.
    let first_tail = out.iter().position(|l| l == marker).unwrap() + 1;
    let tail_start_tick = 200 - (out.len() - first_tail) + 1;
    assert_eq!(out[first_tail], lines[tail_start_tick - 1].text);
}

#[test]
fn a_summary_line_covering_many_scenes_counts_them_all_when_elided() {
    let mut lines = vec![SummaryLine {
        first_tick: 1,
        last_tick: 1,
        text: "Tick 1: it begins.".into(),
    }];
    lines.extend((0..40).map(|i| SummaryLine {
        first_tick: 2 + i * 10,
        last_tick: 11 + i * 10,
        text: format!(
            "Ticks {}–{}: a long chapter of the hunt for the ledger thief.",
            2 + i * 10,
            11 + i * 10
        ),
    }));
    let section = bounded_summary(&lines, 120);
    let marker = section
        .text
        .lines()
        .find(|l| l.starts_with("… ("))
        .unwrap()
        .to_string();
    let omitted_lines = lines.len() + 1 - section.text.lines().count();
    assert_eq!(
        marker,
        format!("… ({} earlier scenes omitted)", omitted_lines * 10)
    );
}

#[test]
fn an_over_budget_section_drops_whole_items_from_its_less_important_end() {
    let items: Vec<String> = (0..30)
        .map(|i| format!("- item {i}: the tide rose over the lower stacks again"))
        .collect();
    let head = fit_items(items.clone(), 80, Keep::Head);
    assert!(head.trimmed && head.tokens <= 80, "{:?}", head);
    let lines: Vec<&str> = head.text.lines().collect();
    assert_eq!(*lines.last().unwrap(), TRIM_MARKER);
    for (i, line) in lines[..lines.len() - 1].iter().enumerate() {
        assert_eq!(*line, items[i], "whole items from the start");
    }

    let tail = fit_items(items.clone(), 80, Keep::Tail);
    let lines: Vec<&str> = tail.text.lines().collect();
    assert_eq!(lines[0], TRIM_MARKER);
    assert_eq!(
        *lines.last().unwrap(),
        items[29],
        "the newest item survives"
    );
    assert!(tail.tokens <= 80);

    let fits = fit_items(items[..2].to_vec(), 80, Keep::Head);
    assert!(!fits.trimmed);
    assert_eq!(fits.text, items[..2].join("\n"));
}

#[test]
fn a_single_item_too_big_for_its_budget_is_cut_between_words() {
    let note = "Make the ferryman lie about the razor, and let Elena notice the lie only \
                through his hands. "
        .repeat(10);
    let section = fit_items(vec![note.clone()], 40, Keep::Head);
    assert!(section.trimmed && section.tokens <= 40, "{section:?}");
    let kept = section
        .text
        .strip_suffix(&format!(" {TRIM_MARKER}"))
        .unwrap();
    assert!(note.starts_with(kept));
    let next = &note[kept.len()..];
    assert!(
        next.starts_with(' '),
        "cut at a word boundary: {kept:?} | {next:?}"
    );
    assert_eq!(cut_words("alpha beta", 0), "");
}

#[test]
fn every_section_keeps_its_budget_and_reports_trimming() {
    let tight = ContextBudgets {
        foundation: 30,
        summary: 40,
        recent: 60,
        previous_tail: 30,
        loops: 20,
        character: 40,
        relationships: 15,
        location: 25,
        lore: 10,
        tool_results: 30,
        steering: 12,
        entities: 8,
        recalled: 20,
        mentioned: 10,
        author_note: 20,
        outline: 20,
        pressure: 20,
        cast: 8,
    };
    let recalled = vec![SearchHit {
        entity_id: "S3".into(),
        kind: crate::ids::EntityKind::Scene,
        tick: Some(3),
        title: "Salt and Ink 3".into(),
        snippet: "Elena hid the brass key under the third step of the flooded stair. ".repeat(3),
        score: 1.0,
    }];
    let results = vec![(
        "memory.search".to_string(),
        json!({"hits": [{"title": "Marcus Vey", "snippet": "head archivist ".repeat(30)}]}),
    )];
    let ctx = context_of(12, &tight)
        .with_tool_results(&results)
        .with_steering(Some(
            &"Keep the ferryman's lie subtle and physical. ".repeat(5),
        ))
        .with_recalled(&recalled);
    let reports = ctx.sections();
    assert_eq!(reports.len(), SectionKind::ALL.len());
    for r in &reports {
        assert!(r.tokens <= r.budget, "{r:?}");
        assert!(r.trimmed, "{r:?} should be trimmed at these budgets");
        let text = ctx.text(SectionKind::ALL[reports.iter().position(|x| x == r).unwrap()]);
        assert_eq!(count_tokens(text), r.tokens);
        if r.name == "summary" {
            assert!(text.contains("earlier scenes omitted"), "{text}");
        } else if !text.is_empty() {
            assert!(text.contains(TRIM_MARKER), "{}: {text}", r.name);
        }
    }
}

#[test]
fn the_plan_focus_and_the_steering_note_reshape_the_context() {
    let f = novel(4);
    let plan = plan_at("L1");
    let ctx = gather_with(
        f.store.conn(),
        &f.config,
        &ContextBudgets::default(),
        &Focus::of_plan(&plan),
        &FirstBullets,
    )
    .unwrap();
    assert_eq!(ctx.location.as_ref().unwrap().name, "Harbour Steps");
    let place = ctx.text(SectionKind::Location);
    assert!(place.starts_with("Harbour Steps (L1)"), "{place}");
    assert!(
        !place.contains("Present:"),
        "nobody is at the steps: {place}"
    );
    assert!(place.contains("Leads to: The Salt Archive (L0)"));

    let ctx = ctx
        .with_plan(&plan)
        .with_steering(Some("  Marcus should not appear.  "));
    assert_eq!(ctx.text(SectionKind::Steering), "Marcus should not appear.");
    assert_eq!(
        ctx.plan.as_ref().unwrap().target_location.as_deref(),
        Some("L1")
    );
    assert_eq!(
        ctx.clone()
            .with_steering(Some("   "))
            .text(SectionKind::Steering),
        ""
    );
}

#[test]
fn lore_enters_only_when_its_keywords_come_up() {
    let f = novel(0);
    let mut ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    // With no scenes, only the POV's goals mention the ledger.
    assert!(ctx.text(SectionKind::Lore).contains("W0"));
    ctx.lore_trigger.clear();
    ctx = ctx.with_steering(Some("A quiet scene at the market."));
    assert_eq!(ctx.text(SectionKind::Lore), "");
    ctx = ctx.with_plan(&plan_at("L0"));
    assert_eq!(ctx.text(SectionKind::Lore), "");
    ctx = ctx.with_steering(Some("She opens the tide ledger."));
    assert!(ctx.text(SectionKind::Lore).contains("W0"));
}

#[test]
fn an_empty_story_gathers_without_scenes() {
    let ctx = context_of(0, &ContextBudgets::default());
    assert_eq!(ctx.tick, 1);
    assert_eq!(ctx.text(SectionKind::Summary), "");
    assert_eq!(ctx.text(SectionKind::Recent), "");
    assert_eq!(ctx.text(SectionKind::PreviousTail), "");
    assert!(ctx.recent_tensions.is_empty());
}

#[test]
fn the_planner_prompt_stays_bounded_as_the_novel_grows() {
    let tools = ToolRegistry::standard();
    let prompt_tokens = |scenes| {
        let ctx = context_of(scenes, &ContextBudgets::default());
        for r in ctx.sections() {
            assert!(r.tokens <= r.budget, "{scenes} scenes: {r:?}");
        }
        estimate_prompt_tokens(&planner_request(&ctx, &tools, None).unwrap())
    };
    let small = prompt_tokens(10);
    let large = prompt_tokens(300);
    assert!(
        large > small,
        "the long novel shows more history ({large} vs {small})"
    );
    assert!(
        f64::from(large) <= f64::from(small) * 1.3,
        "300 scenes cost {large} tokens, 10 scenes {small}"
    );
}

#[test]
fn lore_triggers_by_keyword_and_alias_and_respects_its_budget() {
    use crate::model::{Importance, LoreFact};
    let mut f = novel(0);
    let entry = |id: &str, importance, keywords: &[&str], aliases: &[&str], always_on| LoreFact {
        id: id.into(),
        fact: format!("{id}: a fact about the city that the scene must respect, stated plainly."),
        category: "world".into(),
        importance,
        keywords: keywords.iter().map(|k| k.to_string()).collect(),
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
        always_on,
        source_tick: None,
        created_tick: 0,
    };
    {
        let tx = f.store.transaction().unwrap();
        for fact in [
            entry(
                "W1",
                Importance::Medium,
                &["Salt Tide"],
                &["the grey water"],
                false,
            ),
            entry("W2", Importance::Low, &[], &[], true),
            entry("W3", Importance::High, &["lamplighter"], &[], false),
            entry(
                "W4",
                Importance::Low,
                &["lamplighter"],
                &["wick-man"],
                false,
            ),
        ] {
            crate::store::insert_lore(&tx, &fact).unwrap();
        }
        tx.commit().unwrap();
    }
    let ids = |ctx: &StoryContext| -> Vec<String> {
        ctx.text(SectionKind::Lore)
            .lines()
            .filter_map(|l| l.strip_prefix("- ").and_then(|l| l.split(' ').next()))
            .map(str::to_string)
            .collect()
    };
    let fresh = |budgets: &ContextBudgets| {
        let mut ctx = gather(f.store.conn(), &f.config, budgets).unwrap();
        ctx.lore_trigger.clear();
        ctx
    };
    let ctx = fresh(&ContextBudgets::default()).with_steering(Some("A quiet morning."));
    assert_eq!(ids(&ctx), vec!["W2"], "only the always-on entry");
    // An alias triggers like a keyword; whole words only.
    let ctx =
        fresh(&ContextBudgets::default()).with_steering(Some("They rowed over the grey water."));
    assert_eq!(ids(&ctx), vec!["W1", "W2"]);
    let ctx = fresh(&ContextBudgets::default())
        .with_steering(Some("The wick-man came over the greywater."));
    assert_eq!(ids(&ctx), vec!["W2", "W4"]);
    // Priority orders what is kept: the budget drops the least important first.
    let all = "A lamplighter crossed the Salt Tide.";
    let ctx = fresh(&ContextBudgets::default()).with_steering(Some(all));
    assert_eq!(ids(&ctx), vec!["W3", "W1", "W2", "W4"]);
    let full = count_tokens(ctx.text(SectionKind::Lore));
    let tight = ContextBudgets {
        lore: full / 2,
        ..ContextBudgets::default()
    };
    let ctx = fresh(&tight).with_steering(Some(all));
    let report = ctx
        .sections()
        .into_iter()
        .find(|s| s.name == "lore")
        .unwrap();
    assert!(report.trimmed && report.tokens <= tight.lore, "{report:?}");
    let kept = ids(&ctx);
    assert!(!kept.is_empty() && kept.len() < 4, "{kept:?}");
    assert!(
        ["W3", "W1", "W2", "W4"].starts_with(&kept.iter().map(String::as_str).collect::<Vec<_>>()),
        "{kept:?}"
    );
}

#[test]
fn characters_named_in_the_plan_are_reminded_of_but_not_the_pov() {
    let f = novel(0);
    let ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    assert!(
        !ctx.text(SectionKind::Mentioned)
            .contains("Elena Marsh (C0)")
    );
    let ctx = ctx.with_plan(
        &serde_json::from_value::<Plan>(json!({
            "rationale": "r", "scene_intention": "Elena waits for Marcus at the Harbour Steps.",
            "pov_character": "C0", "target_location": "L0", "actions": [], "expected_outcomes": []
        }))
        .unwrap(),
    );
    let mentioned = ctx.text(SectionKind::Mentioned);
    assert!(mentioned.contains("Marcus Vey (C1)"), "{mentioned}");
    assert!(mentioned.contains("Harbour Steps (L1)"), "{mentioned}");
    assert!(
        !mentioned.contains("(C0)") && !mentioned.contains("(L0)"),
        "{mentioned}"
    );
}

#[test]
fn chapters_and_arcs_replace_scene_lines_in_the_story_so_far() {
    let tmp = tempfile::tempdir().unwrap();
    let novel = crate::synthetic::generate(&tmp.path().join("n"), 120, &[]).unwrap();
    let lines = Rollups.summary_lines(novel.store().conn()).unwrap();
    let spans: Vec<(u32, u32)> = lines.iter().map(|l| (l.first_tick, l.last_tick)).collect();
    assert_eq!(spans, vec![(1, 100), (101, 110), (111, 120)]);
    assert!(
        lines[0].text.starts_with("Ticks 1–100: "),
        "{}",
        lines[0].text
    );
    for l in &lines {
        assert!(count_tokens(&l.text) <= 80, "{}", l.text);
    }
    // Rebuilding from the scenes writes the same lines.
    let before = crate::store::list_rollups(novel.store().conn()).unwrap();
    let mut novel = novel;
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    assert_eq!(crate::store::rebuild_rollups(&tx).unwrap(), before.len());
    assert_eq!(crate::store::list_rollups(&tx).unwrap(), before);
}

#[test]
fn the_pov_character_is_told_in_the_prompt_what_happened_where_they_were_not() {
    let mut f = novel(4);
    let tx = f.store.transaction().unwrap();
    let jory = Character {
        id: "C2".into(),
        name: "Jory Flint".into(),
        status: crate::model::LifeStatus::Dead,
        ..Character::default()
    };
    store::insert_character(&tx, &jory).unwrap();
    // Jory drowns in scene 2, told from Marcus's eyes; Elena is not in it.
    tx.execute(
        "UPDATE scenes SET pov_character = 'C1', prose = 'Jory Flint went off the steps. Marcus \
         could not reach him.' WHERE tick = 2",
        [],
    )
    .unwrap();
    store::append_history(
        &tx,
        &store::HistoryEntry {
            entity_id: "C2".into(),
            tick: 2,
            field: "status".into(),
            change: "updated".into(),
            old_value: Some(json!("alive")),
            new_value: Some(json!("dead")),
            flagged: false,
            source: "extraction".into(),
        },
    )
    .unwrap();
    tx.commit().unwrap();
    let character = |ctx: &StoryContext| ctx.text(SectionKind::Character).to_string();
    let ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    assert!(
        character(&ctx).contains("Not known to Elena Marsh yet")
            && character(&ctx).contains("Jory Flint is dead (scene of tick 2)"),
        "{}",
        character(&ctx)
    );
    // Once a scene with Elena in it talks of Jory, she knows.
    f.store
        .conn()
        .execute(
            "UPDATE scenes SET prose = prose || ' Marcus told Elena about Jory.' WHERE tick = 4",
            [],
        )
        .unwrap();
    let ctx = gather(f.store.conn(), &f.config, &ContextBudgets::default()).unwrap();
    assert!(!character(&ctx).contains("Jory"), "{}", character(&ctx));
}

#[test]
fn loops_are_listed_by_weighted_wait_and_a_crowded_book_is_asked_to_close_one() {
    use crate::model::{Importance, LoopNote, LoopStatus, OpenLoop};
    let thread = |id: &str, importance, opened: u32, touched: Option<u32>| OpenLoop {
        id: id.into(),
        description: format!("thread {id}"),
        category: "mystery".into(),
        importance,
        status: LoopStatus::Open,
        opened_tick: opened,
        resolved_tick: None,
        notes: touched
            .map(|tick| LoopNote {
                tick,
                note: "moved".into(),
            })
            .into_iter()
            .collect(),
    };
    // Planning scene 12: O2 (high) waited 7 → 21; O4 (high) 4 → 12; O3 (medium) 8 → 16;
    // O1 (medium) 3 → 6; O5 (critical) touched last scene, 1 → 4.
    let loops = [
        thread("O1", Importance::Medium, 1, Some(9)),
        thread("O2", Importance::High, 5, None),
        thread("O3", Importance::Medium, 2, Some(4)),
        thread("O4", Importance::High, 1, Some(8)),
        thread("O5", Importance::Critical, 1, Some(11)),
    ];
    let order: Vec<String> = render::loops(&loops, 12)
        .iter()
        .map(|item| item[2..4].to_string())
        .collect();
    assert_eq!(
        order,
        ["O2", "O3", "O4", "O1", "O5"],
        "the longest wait, weighted by importance, leads"
    );

    let crowded: Vec<OpenLoop> = (0..13)
        .map(|i| thread(&format!("O{i}"), Importance::Low, i, None))
        .collect();
    let items = render::loops(&crowded, 20);
    assert!(
        items[0].starts_with("13 threads are open, more than 12")
            && items[0].contains("loop.update"),
        "{}",
        items[0]
    );
    assert_eq!(
        render::loops(&crowded[..12], 20).len(),
        12,
        "twelve is not crowded"
    );
}
