//! The story so far as prose: one paragraph per chapter, chapters gathered into arcs (the
//! book's parts when it has them, otherwise runs of [`ARC_CHAPTERS`] chapters, the roll-ups'
//! arc size). Each paragraph is told from the scenes' own summaries — the lead line of every
//! scene, the second line of the chapter's peak-tension scene — and closes on the threads the
//! chapter settled or dropped, so a writer reads what happened, not a list of scene bullets.
//!
//! Like the roll-ups it is extractive and deterministic: no model call, and the same book
//! always reads the same.

use rusqlite::Connection;
use serde::Serialize;

use crate::model::{LoopStatus, OpenLoop, Scene};
use crate::store::{self, ARC_CHAPTERS, ChapterSpan, StoreError};

/// The whole synopsis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Synopsis {
    pub scenes: u32,
    pub words: u32,
    pub arcs: Vec<SynopsisArc>,
}

/// A part of the book, or a run of chapters in a book without parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SynopsisArc {
    /// The part's heading, or "Chapters 1–10" for a book without parts.
    pub title: String,
    pub chapters: Vec<SynopsisChapter>,
}

/// One chapter told in a paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SynopsisChapter {
    pub number: u32,
    pub title: String,
    pub first_tick: u32,
    pub last_tick: u32,
    pub text: String,
}

/// The synopsis of the book as it stands on the current branch.
pub fn synopsis(conn: &Connection) -> Result<Synopsis, StoreError> {
    let scenes = store::list_scenes(conn)?;
    let spans = store::book_chapters(conn, &scenes)?;
    let loops = store::list_loops(conn, None)?;
    let chapters: Vec<(Option<String>, SynopsisChapter)> = spans
        .iter()
        .map(|span| (span.part_title.clone(), tell_chapter(span, &scenes, &loops)))
        .collect();
    Ok(Synopsis {
        scenes: u32::try_from(scenes.len()).unwrap_or(u32::MAX),
        words: scenes
            .iter()
            .fold(0u32, |w, s| w.saturating_add(s.word_count)),
        arcs: into_arcs(chapters),
    })
}

/// Parts start where a chapter opens one; a book with no part headings is cut every
/// [`ARC_CHAPTERS`] chapters instead.
fn into_arcs(chapters: Vec<(Option<String>, SynopsisChapter)>) -> Vec<SynopsisArc> {
    let has_parts = chapters.iter().any(|(part, _)| part.is_some());
    let mut arcs: Vec<SynopsisArc> = Vec::new();
    for (i, (part, chapter)) in chapters.into_iter().enumerate() {
        let opens = if has_parts {
            part.clone()
        } else if i % ARC_CHAPTERS as usize == 0 {
            Some(String::new())
        } else {
            None
        };
        match (opens, arcs.last_mut()) {
            (None, Some(arc)) => arc.chapters.push(chapter),
            (opens, _) => arcs.push(SynopsisArc {
                title: opens.unwrap_or_default(),
                chapters: vec![chapter],
            }),
        }
    }
    for arc in arcs.iter_mut().filter(|a| a.title.is_empty()) {
        let first = arc.chapters.first().map_or(0, |c| c.number);
        let last = arc.chapters.last().map_or(0, |c| c.number);
        arc.title = if first == last {
            format!("Chapter {first}")
        } else {
            format!("Chapters {first}–{last}")
        };
    }
    arcs
}

fn tell_chapter(span: &ChapterSpan, scenes: &[Scene], loops: &[OpenLoop]) -> SynopsisChapter {
    let members: Vec<&Scene> = scenes.iter().filter(|s| span.contains(s.tick)).collect();
    let peak = members
        .iter()
        .min_by_key(|s| (std::cmp::Reverse(s.tension.unwrap_or(0)), s.tick))
        .map(|s| s.tick);
    let mut sentences: Vec<String> = Vec::new();
    for scene in &members {
        let lines = if Some(scene.tick) == peak { 2 } else { 1 };
        let told: Vec<String> = scene
            .summary
            .iter()
            .filter_map(|line| sentence(line))
            .take(lines)
            .collect();
        if told.is_empty() {
            sentences.extend(sentence(&scene.title));
        } else {
            sentences.extend(told);
        }
    }
    let within = |tick: Option<u32>| tick.is_some_and(|t| span.contains(t));
    let settled: Vec<&str> = loops
        .iter()
        .filter(|l| l.status == LoopStatus::Resolved && within(l.resolved_tick))
        .map(|l| l.description.trim())
        .collect();
    let dropped: Vec<&str> = loops
        .iter()
        .filter(|l| l.status == LoopStatus::Abandoned && within(l.resolved_tick))
        .map(|l| l.description.trim())
        .collect();
    if !settled.is_empty() {
        sentences.push(format!("Settled here: {}.", clause_list(&settled)));
    }
    if !dropped.is_empty() {
        sentences.push(format!("Left behind: {}.", clause_list(&dropped)));
    }
    SynopsisChapter {
        number: span.number,
        title: span.title.clone(),
        first_tick: span.first_tick,
        last_tick: span.last_tick,
        text: sentences.join(" "),
    }
}

/// A summary line as a sentence: bullet marks gone, a capital first letter, one full stop.
fn sentence(line: &str) -> Option<String> {
    let text = line
        .trim()
        .trim_start_matches(['-', '*', '•'])
        .trim()
        .trim_end_matches([';', ',', ':'])
        .trim();
    let mut chars = text.chars();
    let first = chars.next()?;
    let mut out: String = first.to_uppercase().chain(chars).collect();
    if !out.ends_with(['.', '!', '?', '…', '"', '”', '’']) {
        out.push('.');
    }
    Some(out)
}

/// `a; b; c` with each item's own closing stop removed, so the list reads as one sentence.
fn clause_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| i.trim_end_matches(['.', ';']))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines_become_sentences() {
        assert_eq!(
            sentence("- tamsin finds the ledger;").as_deref(),
            Some("Tamsin finds the ledger.")
        );
        assert_eq!(
            sentence("Bram lies about the tide!").as_deref(),
            Some("Bram lies about the tide!")
        );
        assert_eq!(sentence("  • ").as_deref(), None);
    }

    fn chapter(number: u32, part: Option<&str>) -> (Option<String>, SynopsisChapter) {
        (
            part.map(str::to_owned),
            SynopsisChapter {
                number,
                title: format!("C{number}"),
                first_tick: number,
                last_tick: number,
                text: String::new(),
            },
        )
    }

    #[test]
    fn arcs_follow_the_parts_or_else_runs_of_chapters() {
        let parted = into_arcs(vec![
            chapter(1, Some("Part One")),
            chapter(2, None),
            chapter(3, Some("Part Two")),
        ]);
        let shape: Vec<(String, usize)> = parted
            .iter()
            .map(|a| (a.title.clone(), a.chapters.len()))
            .collect();
        assert_eq!(
            shape,
            [("Part One".to_owned(), 2), ("Part Two".to_owned(), 1)]
        );

        let plain = into_arcs((1..=12).map(|n| chapter(n, None)).collect());
        let titles: Vec<&str> = plain.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(titles, ["Chapters 1–10", "Chapters 11–12"]);
    }
}

#[cfg(test)]
mod book_tests {
    use super::*;
    use crate::context::fixture;
    use crate::model::Importance;

    #[test]
    fn a_chapter_is_told_from_its_scenes_and_closes_on_the_threads_it_settled() {
        let fx = fixture::novel(12);
        let tx = fx.store.begin().unwrap();
        let mut thread = OpenLoop {
            id: "O70".into(),
            description: "Who tore the page from the ledger.".into(),
            category: "mystery".into(),
            importance: Importance::High,
            status: LoopStatus::Resolved,
            opened_tick: 2,
            resolved_tick: Some(4),
            notes: Vec::new(),
        };
        store::insert_loop(&tx, &thread).unwrap();
        thread.id = "O71".into();
        thread.description = "The ferryman's debt".into();
        thread.status = LoopStatus::Abandoned;
        thread.resolved_tick = Some(11);
        store::insert_loop(&tx, &thread).unwrap();

        let book = synopsis(&tx).unwrap();
        assert_eq!(book.scenes, 12);
        assert_eq!(book.arcs.len(), 1, "two chapters make one arc");
        let chapters = &book.arcs[0].chapters;
        assert_eq!(chapters.len(), 2, "ten scenes a proposed chapter");
        let first = &chapters[0].text;
        // Every scene's lead line, in order, as sentences.
        let mut at = 0;
        for tick in 1..=10 {
            let lead = format!("(tick {tick}).");
            let found = first[at..]
                .find(&lead)
                .unwrap_or_else(|| panic!("scene {tick} is told in order: {first}"));
            at += found + lead.len();
        }
        assert!(
            first.ends_with("Settled here: Who tore the page from the ledger."),
            "{first}"
        );
        // The peak scene (highest tension, the earliest among equals) adds its second line.
        assert_eq!(first.matches("Marcus warns her").count(), 1, "{first}");
        assert!(
            chapters[1]
                .text
                .ends_with("Left behind: The ferryman's debt."),
            "{}",
            chapters[1].text
        );
        assert!(!chapters[1].text.contains("Settled here"));
    }
}
