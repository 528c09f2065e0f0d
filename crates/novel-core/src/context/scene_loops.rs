//! The extractor's list of open loops: ranked by how much the scene it reads (the prose and its
//! plan) touches each one, and fitted to the loops budget so that the loops the scene touches
//! are always in. The planner's list is ordered by need and cut at the same budget, so a quiet,
//! low-importance thread could fall out of it; an extractor reading that list would open the
//! thread again when a scene answered it. Here every open loop is listed — in full while the
//! budget lasts, then as its id and the start of its question — and when even that does not fit,
//! the ranking decides which go.
//!
//! Relevance is keyword overlap: the twin guard's content words of the loop's question and last
//! note found in the scene, each weighted by how few loops share it (a word every loop has, the
//! city's name, says nothing about which one the scene touches), and the loop's id named in the
//! scene or its plan. Keywords rather than the search index or vectors: the scene is not indexed
//! until its tick commits, loops opened by this tick's tools have no vectors yet, and the
//! extractor's request is also built where no embedder runs (re-reading an edited scene).

use std::collections::{HashMap, HashSet};

use novel_llm::count_tokens;

use super::budget::{Keep, Section, fit_counting, fit_items};
use super::render;
use crate::memory::content_words;
use crate::model::OpenLoop;

/// What the scene naming a loop's id counts for: more than any overlap of words does.
const NAMED_BY_ID: f64 = 100.0;

/// Opens the brief part of a list that shows the most touched loops in full.
const ALSO_OPEN: &str = "Also open:";

/// The open loops, most touched by `scene` first; ties (and loops it does not touch) in the
/// planner's order of need. `next_tick` is the scene being read.
pub(crate) fn ranked<'a>(loops: &'a [OpenLoop], scene: &str, next_tick: u32) -> Vec<&'a OpenLoop> {
    let scene_words: HashSet<String> = content_words(scene).into_iter().collect();
    let tokens: HashSet<&str> = scene
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let words: HashMap<&str, Vec<String>> = loops
        .iter()
        .map(|l| (l.id.as_str(), content_words(&question_of(l))))
        .collect();
    let mut shared_by: HashMap<&str, usize> = HashMap::new();
    for ws in words.values() {
        for w in ws {
            *shared_by.entry(w.as_str()).or_default() += 1;
        }
    }
    let n = loops.len().max(1) as f64;
    let score = |l: &OpenLoop| -> f64 {
        let overlap: f64 = words[l.id.as_str()]
            .iter()
            .filter(|w| scene_words.contains(*w))
            .map(|w| (1.0 + n / shared_by[w.as_str()] as f64).ln())
            .sum();
        let named = if tokens.contains(l.id.as_str()) {
            NAMED_BY_ID
        } else {
            0.0
        };
        overlap + named
    };
    let mut order: Vec<(&OpenLoop, f64)> = render::by_need(loops, next_tick)
        .into_iter()
        .map(|l| (l, score(l)))
        .collect();
    // Stable: equal scores keep the order of need.
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order.into_iter().map(|(l, _)| l).collect()
}

/// What a loop asks, for matching: its question and its latest note.
fn question_of(l: &OpenLoop) -> String {
    match l.notes.last() {
        Some(note) => format!("{} {}", l.description, note.note),
        None => l.description.clone(),
    }
}

/// `ranked` loops within `budget` tokens: all in full when they fit; else the first ones in
/// full and every other one in brief (id and the start of its question), as many in full as
/// the budget allows; else the briefs alone, cut from the least touched end.
pub(crate) fn fit(ranked: &[&OpenLoop], budget: u32) -> Section {
    let full: Vec<String> = ranked.iter().map(|l| render::loop_line(l)).collect();
    let (section, kept) = fit_counting(full.clone(), budget, Keep::Head);
    if kept == full.len() {
        return section;
    }
    let briefs: Vec<String> = ranked.iter().map(|l| render::loop_brief(l)).collect();
    let cost = |t: &str| count_tokens(t) + 1;
    let full_cost: Vec<u32> = full.iter().map(|t| cost(t)).collect();
    let brief_cost: Vec<u32> = briefs.iter().map(|t| cost(t)).collect();
    let all_briefs: u32 = cost(ALSO_OPEN) + brief_cost.iter().sum::<u32>();
    if all_briefs <= budget {
        // The per-line estimate picks how many go in full; the joined text's count decides.
        let mut used = all_briefs;
        let mut in_full = 0;
        while in_full + 1 < full.len() && used - brief_cost[in_full] + full_cost[in_full] <= budget
        {
            used = used - brief_cost[in_full] + full_cost[in_full];
            in_full += 1;
        }
        loop {
            let text = mixed(&full, &briefs, in_full);
            let tokens = count_tokens(&text);
            if tokens <= budget {
                return Section {
                    text,
                    tokens,
                    trimmed: true,
                };
            }
            if in_full == 0 {
                break;
            }
            in_full -= 1;
        }
    }
    fit_items(briefs, budget, Keep::Head)
}

/// The first `in_full` loops in full, then the rest in brief (under [`ALSO_OPEN`] after any in
/// full).
fn mixed(full: &[String], briefs: &[String], in_full: usize) -> String {
    let mut lines: Vec<&str> = full[..in_full].iter().map(String::as_str).collect();
    if in_full > 0 {
        lines.push(ALSO_OPEN);
    }
    lines.extend(briefs[in_full..].iter().map(String::as_str));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Importance, LoopNote, LoopStatus};

    fn open(id: &str, description: &str, importance: Importance, opened: u32) -> OpenLoop {
        OpenLoop {
            id: id.into(),
            description: description.into(),
            category: "mystery".into(),
            importance,
            status: LoopStatus::Open,
            opened_tick: opened,
            resolved_tick: None,
            notes: Vec::new(),
        }
    }

    /// Twenty important threads and one quiet old one, which the order of need puts last.
    fn crowded() -> Vec<OpenLoop> {
        let mut loops = vec![open(
            "O1",
            "Who took the brass compass from the lighthouse keeper?",
            Importance::Low,
            1,
        )];
        for i in 0..20 {
            loops.push(open(
                &format!("O{}", i + 2),
                &format!("Why did the smugglers bury crate {i} under the harbour quay?"),
                Importance::High,
                1,
            ));
        }
        loops
    }

    fn ids(ranked: &[&OpenLoop]) -> Vec<String> {
        ranked.iter().map(|l| l.id.clone()).collect()
    }

    #[test]
    fn the_loop_a_scene_touches_leads_whatever_its_importance_or_wait() {
        let loops = crowded();
        let scene = "She found the keeper's compass wrapped in oilcloth by the harbour.";
        let order = ranked(&loops, scene, 10);
        assert_eq!(order[0].id, "O1");
        // Untouched loops keep the order of need: important and waiting longest first.
        let untouched = ranked(&loops, "Rain.", 10);
        assert_eq!(untouched.last().unwrap().id, "O1");
        assert_eq!(order.len(), loops.len());
    }

    #[test]
    fn a_word_every_loop_shares_says_less_than_one_only_a_few_have() {
        let loops = crowded();
        // "harbour" and "quay" are in twenty questions, "lighthouse" in one.
        let order = ranked(
            &loops,
            "The harbour quay was empty; the lighthouse dark.",
            10,
        );
        assert_eq!(order[0].id, "O1");
    }

    #[test]
    fn a_loop_the_plan_names_by_id_and_its_last_note_count() {
        let mut loops = crowded();
        loops[5].notes.push(LoopNote {
            tick: 9,
            note: "the ferryman's widow knows".into(),
        });
        let by_note = ranked(&loops, "The widow of the ferryman would not speak.", 10);
        assert_eq!(by_note[0].id, loops[5].id);
        let by_id = ranked(&loops, "Tamsin presses on with O12.", 10);
        assert_eq!(ids(&by_id)[0], "O12");
    }

    #[test]
    fn every_open_loop_is_listed_at_least_in_brief_when_the_briefs_fit() {
        let loops = crowded();
        let order = ranked(&loops, "The keeper's compass.", 10);
        let section = fit(&order, 480);
        assert!(section.trimmed && section.tokens <= 480);
        let lines: Vec<&str> = section.text.lines().collect();
        assert!(
            lines[0].starts_with("- O1 [low, mystery] Who took"),
            "{lines:?}"
        );
        for l in &loops {
            assert!(
                lines
                    .iter()
                    .any(|line| line.starts_with(&format!("- {} ", l.id))),
                "{} is listed: {}",
                l.id,
                section.text
            );
        }
        assert!(lines.contains(&ALSO_OPEN));
    }

    #[test]
    fn a_budget_too_small_for_every_brief_keeps_the_touched_loops() {
        let loops = crowded();
        let order = ranked(&loops, "The keeper's compass.", 10);
        let section = fit(&order, 60);
        assert!(section.tokens <= 60);
        assert!(section.text.starts_with("- O1 Who took the brass compass"));
        assert!(section.text.ends_with(super::super::TRIM_MARKER));
        // Everything fits in full: nothing changes but the order.
        let few = &loops[..3];
        let section = fit(&super::ranked(few, "compass", 10), 400);
        assert!(!section.trimmed);
        assert_eq!(section.text.lines().count(), 3);
    }
}
