//! Hierarchical summaries: every [`CHAPTER_SCENES`] scenes roll up into one chapter line and
//! every [`ARC_CHAPTERS`] chapters into one arc line, so the "story so far" of a 300-scene
//! novel is a handful of arc and chapter lines plus the latest scenes, not 300 lines.
//!
//! The lines are extractive and deterministic — the gist of the chapter's peak-tension scene
//! and of its last scene, and the loops it resolved — so they cost no LLM call and rebuild
//! exactly. They are derived data, written when a tick commits the scene that closes a chapter
//! and recreated by `reindex`.

use rusqlite::{Connection, Transaction, params};

use super::error::StoreResult;
use super::{list_loops, list_scenes, recent_scenes};
use crate::model::{LoopStatus, OpenLoop, Scene};
use crate::text::first_words;

/// One rolled-up line covering ticks `first_tick..=last_tick`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollup {
    pub level: u8,
    pub first_tick: u32,
    pub last_tick: u32,
    pub text: String,
}

pub fn put_rollup(tx: &Transaction<'_>, r: &Rollup) -> StoreResult<()> {
    tx.execute(
        "INSERT OR REPLACE INTO summary_rollups (level, first_tick, last_tick, text)
         VALUES (?1, ?2, ?3, ?4)",
        params![r.level, r.first_tick, r.last_tick, r.text],
    )?;
    Ok(())
}

/// All roll-ups, by level then start.
pub fn list_rollups(conn: &Connection) -> StoreResult<Vec<Rollup>> {
    let mut stmt = conn.prepare(
        "SELECT level, first_tick, last_tick, text FROM summary_rollups ORDER BY level, first_tick",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Rollup {
            level: r.get(0)?,
            first_tick: r.get(1)?,
            last_tick: r.get(2)?,
            text: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn clear_rollups(tx: &Transaction<'_>) -> StoreResult<()> {
    tx.execute("DELETE FROM summary_rollups", [])?;
    Ok(())
}

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
pub fn roll_up_after(tx: &Transaction<'_>, tick: u32) -> StoreResult<()> {
    if tick == 0 || !tick.is_multiple_of(CHAPTER_SCENES) {
        return Ok(());
    }
    let resolved = list_loops(tx, Some(LoopStatus::Resolved))?;
    let chapter_first = tick + 1 - CHAPTER_SCENES;
    let scenes = scenes_between(tx, chapter_first, tick)?;
    if let Some(line) = rollup_line(1, chapter_first, tick, &scenes, &resolved) {
        put_rollup(tx, &line)?;
    }
    let arc_span = CHAPTER_SCENES * ARC_CHAPTERS;
    if tick.is_multiple_of(arc_span) {
        let arc_first = tick + 1 - arc_span;
        let scenes = scenes_between(tx, arc_first, tick)?;
        if let Some(line) = rollup_line(2, arc_first, tick, &scenes, &resolved) {
            put_rollup(tx, &line)?;
        }
    }
    Ok(())
}

/// Recreates every roll-up from the committed scenes.
pub fn rebuild_rollups(tx: &Transaction<'_>) -> StoreResult<usize> {
    clear_rollups(tx)?;
    let last = recent_scenes(tx, 1)?.first().map_or(0, |s| s.tick);
    let mut tick = CHAPTER_SCENES;
    while tick <= last {
        roll_up_after(tx, tick)?;
        tick += CHAPTER_SCENES;
    }
    Ok(list_rollups(tx)?.len())
}

fn scenes_between(conn: &Connection, first: u32, last: u32) -> StoreResult<Vec<Scene>> {
    // Reading all scenes is fine at one chapter per ten ticks; a range query would be faster
    // but the scene list is what the store offers.
    Ok(list_scenes(conn)?
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
    first_words(gist_text(scene), GIST_WORDS)
}

/// What a scene is remembered by: its first summary bullet, or its title.
fn gist_text(scene: &Scene) -> &str {
    let text = scene
        .summary
        .first()
        .map_or(scene.title.as_str(), String::as_str);
    text.trim().trim_end_matches('.')
}

/// Words of a gist kept in a proposed chapter title.
const TITLE_WORDS: usize = 8;

/// The title a run of scenes is proposed under: the gist a roll-up gives its peak-tension
/// scene (the earliest among equals), cut to whole words without an ellipsis. `None` for no
/// scenes.
pub fn proposed_title(scenes: &[Scene]) -> Option<String> {
    let peak = scenes
        .iter()
        .min_by_key(|s| (std::cmp::Reverse(s.tension.unwrap_or(0)), s.tick))?;
    let words: Vec<&str> = gist_text(peak).split_whitespace().collect();
    let mut title = words[..words.len().min(TITLE_WORDS)].join(" ");
    // A cut title should not end on a comma or a dangling dash.
    while title.ends_with([',', ';', ':', '-', '–', '—']) {
        title.pop();
    }
    Some(title).filter(|t| !t.is_empty())
}
