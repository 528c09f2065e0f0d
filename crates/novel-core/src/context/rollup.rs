//! Hierarchical summaries: every [`CHAPTER_SCENES`] scenes roll up into one chapter line and
//! every [`ARC_CHAPTERS`] chapters into one arc line, so the "story so far" of a 300-scene
//! novel is a handful of arc and chapter lines plus the latest scenes, not 300 lines.
//!
//! The lines are extractive and deterministic — the gist of the chapter's peak-tension scene
//! and of its last scene, and the loops it resolved — so they cost no LLM call and rebuild
//! exactly. They are derived data, written when a tick commits the scene that closes a chapter
//! and recreated by `reindex`; the [`Rollups`] summary source reads them.

use rusqlite::{Connection, Transaction};

use super::summary::{FirstBullets, SummaryLine, SummarySource};
use crate::model::{LoopStatus, OpenLoop, Scene};
use crate::store::{self, Rollup, StoreError};

/// Scenes per chapter line.
pub const CHAPTER_SCENES: u32 = 10;
/// Chapters per arc line.
pub const ARC_CHAPTERS: u32 = 10;
/// Words kept of each picked scene's gist. Lines stay short (about 50 tokens) so that the
/// arcs, the latest chapters and the latest scenes all fit the summary budget together.
const GIST_WORDS: usize = 10;
/// Words kept of each resolved loop.
const LOOP_WORDS: usize = 8;
/// Scenes named per line (the peak and the last).
const PICKS: usize = 2;
/// Resolved loops named per line.
const LOOP_PICKS: usize = 1;

/// Writes the chapter (and arc) lines that the scene of `tick` completes, if any.
pub fn roll_up_after(tx: &Transaction<'_>, tick: u32) -> Result<(), StoreError> {
    if tick == 0 || !tick.is_multiple_of(CHAPTER_SCENES) {
        return Ok(());
    }
    let resolved = store::list_loops(tx, Some(LoopStatus::Resolved))?;
    let chapter_first = tick + 1 - CHAPTER_SCENES;
    let scenes = scenes_between(tx, chapter_first, tick)?;
    if let Some(line) = rollup_line(1, chapter_first, tick, &scenes, &resolved) {
        store::put_rollup(tx, &line)?;
    }
    let arc_span = CHAPTER_SCENES * ARC_CHAPTERS;
    if tick.is_multiple_of(arc_span) {
        let arc_first = tick + 1 - arc_span;
        let scenes = scenes_between(tx, arc_first, tick)?;
        if let Some(line) = rollup_line(2, arc_first, tick, &scenes, &resolved) {
            store::put_rollup(tx, &line)?;
        }
    }
    Ok(())
}

/// Recreates every roll-up from the committed scenes.
pub fn rebuild_rollups(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    store::clear_rollups(tx)?;
    let last = store::recent_scenes(tx, 1)?.first().map_or(0, |s| s.tick);
    let mut tick = CHAPTER_SCENES;
    while tick <= last {
        roll_up_after(tx, tick)?;
        tick += CHAPTER_SCENES;
    }
    Ok(store::list_rollups(tx)?.len())
}

fn scenes_between(conn: &Connection, first: u32, last: u32) -> Result<Vec<Scene>, StoreError> {
    // Reading all scenes is fine at one chapter per ten ticks; a range query would be faster
    // but the scene list is what the store offers.
    Ok(store::list_scenes(conn)?
        .into_iter()
        .filter(|s| (first..=last).contains(&s.tick))
        .collect())
}

/// One roll-up line: the peak-tension scene and the last scene of the span, and the loops it
/// resolved.
fn rollup_line(
    level: u8,
    first: u32,
    last: u32,
    scenes: &[Scene],
    resolved: &[OpenLoop],
) -> Option<Rollup> {
    let picks = PICKS;
    let final_scene = scenes.last()?;
    let mut by_tension: Vec<&Scene> = scenes[..scenes.len() - 1].iter().collect();
    // Highest tension first; among equals the earlier scene, so rebuilds pick the same ones.
    by_tension.sort_by_key(|s| (std::cmp::Reverse(s.tension.unwrap_or(0)), s.tick));
    let mut chosen: Vec<&Scene> = by_tension
        .into_iter()
        .take(picks.saturating_sub(1))
        .collect();
    chosen.push(final_scene);
    chosen.sort_by_key(|s| s.tick);
    let events: Vec<String> = chosen
        .iter()
        .map(|s| format!("{} (tick {})", gist(s), s.tick))
        .collect();
    let loops: Vec<String> = resolved
        .iter()
        .filter(|l| l.resolved_tick.is_some_and(|t| (first..=last).contains(&t)))
        .take(LOOP_PICKS)
        .map(|l| first_words(l.description.trim(), LOOP_WORDS))
        .collect();
    let mut text = format!("Ticks {first}–{last}: {}.", events.join("; "));
    if !loops.is_empty() {
        text.push_str(&format!(" Resolved: {}.", loops.join("; ")));
    }
    Some(Rollup {
        level,
        first_tick: first,
        last_tick: last,
        text,
    })
}

fn gist(scene: &Scene) -> String {
    let text = scene
        .summary
        .first()
        .map_or(scene.title.as_str(), String::as_str);
    first_words(text.trim().trim_end_matches('.'), GIST_WORDS)
}

fn first_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        words.join(" ")
    } else {
        format!("{}…", words[..n].join(" "))
    }
}

/// The story so far from roll-ups: arc lines, then chapter lines after the last arc, then
/// scene lines after the last chapter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rollups;

impl SummarySource for Rollups {
    fn summary_lines(&self, conn: &Connection) -> Result<Vec<SummaryLine>, StoreError> {
        let rollups = store::list_rollups(conn)?;
        let mut lines = Vec::new();
        let mut covered = 0;
        for level in [2u8, 1] {
            for r in rollups.iter().filter(|r| r.level == level) {
                if r.first_tick <= covered {
                    continue;
                }
                lines.push(SummaryLine {
                    first_tick: r.first_tick,
                    last_tick: r.last_tick,
                    text: r.text.clone(),
                });
                covered = r.last_tick;
            }
        }
        lines.extend(
            FirstBullets
                .summary_lines(conn)?
                .into_iter()
                .filter(|l| l.first_tick > covered),
        );
        Ok(lines)
    }
}
