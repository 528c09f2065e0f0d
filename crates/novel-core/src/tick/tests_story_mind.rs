//! Thirty scenes through the real tick with a scripted model whose planner reads what the
//! engine offers it — the open loops in the order of need that the planner prompt lists, and
//! the line that asks for one to be closed when too many are open — against a planner that
//! ignores it and tends the newest thread. The book audit measures both: how many of the loops
//! opened are closed (resolved, or abandoned with a reason), and how long an important loop
//! goes untouched. `cargo test -p novel-core --lib story_mind -- --nocapture` prints the
//! figures kept in BENCHMARKS.md.

use std::cell::RefCell;

use novel_llm::ScriptedModel;
use serde_json::{Value, json};

use super::tests::{PROSE, extraction, novel, tick};
use crate::audit;
use crate::novel::Novel;

const SCENES: u32 = 30;
/// A thread untouched this long is abandoned by the tending planner.
const LET_GO_AFTER: u32 = 8;

/// One open loop as the planner prompt lists it.
#[derive(Debug, Clone)]
struct Listed {
    id: String,
    importance: String,
    touched: u32,
}

/// The loops section of the next planner prompt, in the prompt's order, and whether the
/// prompt asks for one to be closed.
async fn offered(novel: &Novel) -> (Vec<Listed>, bool) {
    let preview = super::preview::preview_next(novel, None).await.unwrap();
    let crowded = preview.user.contains("threads are open, more than");
    let listed = preview
        .user
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- O")?;
            let id = format!("O{}", rest.split_whitespace().next()?);
            let importance = rest.split('[').nth(1)?.split(',').next()?.to_string();
            let tail = line.rsplit_once("(since tick ")?.1;
            let since: u32 = tail.split([';', ')']).next()?.trim().parse().ok()?;
            let touched = tail
                .rsplit_once("; tick ")
                .and_then(|(_, t)| t.split(':').next()?.trim().parse().ok())
                .unwrap_or(since);
            Some(Listed {
                id,
                importance,
                touched,
            })
        })
        .collect();
    (listed, crowded)
}

#[derive(Clone, Copy, PartialEq)]
enum Planner {
    /// Takes the first loop the prompt lists, and lets go of a thread left too long.
    Tending,
    /// Ignores the order and the nudges: always the newest thread, never lets one go.
    Newest,
}

const THINGS: [&str; 15] = [
    "lantern", "ledger", "anchor", "compass", "locket", "charter", "rope", "seal", "map", "key",
    "bell", "knife", "coin", "letter", "cask",
];
const IMPORTANCE: [&str; 3] = ["medium", "low", "high"];

async fn write_book(planner: Planner) -> audit::AuditReport {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    for t in 1..=SCENES {
        let (listed, crowded) = offered(&novel).await;
        let target = match planner {
            Planner::Tending => listed.first(),
            Planner::Newest => listed
                .iter()
                .max_by_key(|l| l.id[1..].parse::<u32>().unwrap_or(0)),
        }
        .cloned();
        let mut actions: Vec<Value> = Vec::new();
        if planner == Planner::Tending {
            let stale = listed
                .iter()
                .filter(|l| {
                    l.importance != "critical" && Some(&l.id) != target.as_ref().map(|x| &x.id)
                })
                .filter(|l| crowded || t.saturating_sub(l.touched) >= LET_GO_AFTER)
                .min_by_key(|l| (l.importance == "high", l.touched));
            if let Some(stale) = stale {
                actions.push(
                    json!({"tool": "loop.update", "args": {"loop_id": stale.id, "action": "abandon",
                    "reason": "the story has moved past it"}}),
                );
            }
        }
        let plan = json!({
            "rationale": "Keep the threads moving.",
            "scene_intention": format!("Tamsin presses on with {}.", target.as_ref().map_or("her search", |l| l.id.as_str())),
            "pov_character": "C0", "target_location": "L0", "actions": actions,
            "expected_outcomes": ["a thread moves"]
        });
        let mut read = extraction();
        read["title"] = json!(format!("Scene {t}"));
        read["summary"] = json!([
            format!("Tamsin follows thread {t}."),
            "The tide turns.",
            "Someone watches."
        ]);
        read["character_updates"] = json!([]);
        read["plan_verdict"] = json!({"verdict": "realized", "missed": []});
        read["loops_opened"] = if t % 2 == 1 {
            let thing = THINGS[(t as usize / 2) % THINGS.len()];
            json!([{"description": format!("Who hid the {thing} at the harbour wall?"),
                    "category": "mystery", "importance": IMPORTANCE[(t as usize / 2) % 3]}])
        } else {
            json!([])
        };
        let (advanced, resolved) = match &target {
            Some(l) if t % 3 == 0 && l.importance != "critical" => {
                (json!([]), json!([{"id": l.id, "note": "answered"}]))
            }
            Some(l) => (json!([{"id": l.id, "note": "a step closer"}]), json!([])),
            None => (json!([]), json!([])),
        };
        read["loops_advanced"] = advanced;
        read["loops_resolved"] = resolved;
        let prose = format!("{PROSE}\n\nOn the {t}th night the harbour kept its own counsel.");
        let model = ScriptedModel::new()
            .reply_json(&plan)
            .reply(prose)
            .reply_json(&read);
        tick(&mut novel, &model, &events).await.unwrap();
        assert_eq!(
            model.calls(),
            3,
            "scene {t}: a clean tick makes three calls"
        );
    }
    audit::audit(novel.store().conn(), None, None).unwrap()
}

struct Figures {
    opened: usize,
    closed: usize,
    abandoned_with_reason: usize,
    longest_important_silence: u32,
    realized: usize,
}

fn figures(report: &audit::AuditReport) -> Figures {
    // The seed's goal is the book's spine, not a thread a scene opened.
    let opened: Vec<_> = report.loops.iter().filter(|l| l.opened > 0).collect();
    Figures {
        opened: opened.len(),
        closed: opened.iter().filter(|l| l.status != "open").count(),
        abandoned_with_reason: opened.iter().filter(|l| l.status == "abandoned").count(),
        longest_important_silence: report
            .loops
            .iter()
            .filter(|l| l.importance == "high" || l.importance == "critical")
            .map(|l| l.longest_silence)
            .max()
            .unwrap_or(0),
        realized: report
            .scene_rows
            .iter()
            .filter(|s| s.plan == audit::PlanOutcome::Realized)
            .count(),
    }
}

#[tokio::test]
async fn a_planner_that_takes_what_the_engine_offers_closes_its_threads() {
    let tending = figures(&write_book(Planner::Tending).await);
    let newest = figures(&write_book(Planner::Newest).await);
    for (name, f) in [("tending", &tending), ("newest first", &newest)] {
        println!(
            "{name}: {} loops opened, {} closed ({:.0}%; {} abandoned with a reason), longest silence of an important loop {} scenes, {} of {SCENES} plans realized",
            f.opened,
            f.closed,
            100.0 * f.closed as f64 / f.opened.max(1) as f64,
            f.abandoned_with_reason,
            f.longest_important_silence,
            f.realized
        );
    }
    assert!(tending.opened >= 10);
    assert!(
        tending.closed * 10 >= tending.opened * 6,
        "at least 60% of the loops opened are closed: {} of {}",
        tending.closed,
        tending.opened
    );
    assert!(
        tending.longest_important_silence <= 10,
        "no important loop untouched for more than 10 scenes: {}",
        tending.longest_important_silence
    );
    assert_eq!(tending.realized, SCENES as usize);
    assert!(
        newest.longest_important_silence > 10,
        "the planner that ignores the order leaves an important thread hanging: {}",
        newest.longest_important_silence
    );
}
