//! Scene rows: committed prose in tick order.

use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use super::error::StoreResult;
use super::json::{from_json, to_json};
use crate::model::Scene;

const COLUMNS: &str =
    "id, tick, title, pov_character, location, prose, word_count, summary, tension, created_at";

pub fn insert_scene(tx: &Transaction<'_>, s: &Scene) -> StoreResult<()> {
    tx.execute(
        &format!("INSERT INTO scenes ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
        params![
            s.id,
            s.tick,
            s.title,
            s.pov_character,
            s.location,
            s.prose,
            s.word_count,
            to_json(&s.summary)?,
            s.tension,
            s.created_at
        ],
    )?;
    Ok(())
}

/// Replaces a scene's prose (a writer's edit) and its word count, and re-indexes its passages
/// (changed ones wait for new vectors until the next tick or `reindex`).
pub fn update_scene_prose(
    tx: &Transaction<'_>,
    id: &str,
    prose: &str,
    word_count: u32,
) -> StoreResult<bool> {
    let n = tx.execute(
        "UPDATE scenes SET prose = ?2, word_count = ?3 WHERE id = ?1",
        params![id, prose, word_count],
    )?;
    if let Some(scene) = get_scene(tx, id)? {
        super::index_scene(tx, &scene)?;
    }
    Ok(n == 1)
}

/// Replaces a scene's summary and tension (re-reading an edited scene), and re-indexes it.
pub fn update_scene_summary(
    tx: &Transaction<'_>,
    id: &str,
    summary: &[String],
    tension: Option<u8>,
) -> StoreResult<bool> {
    let n = tx.execute(
        "UPDATE scenes SET summary = ?2, tension = ?3 WHERE id = ?1",
        params![id, super::to_json(&summary)?, tension],
    )?;
    if let Some(scene) = get_scene(tx, id)? {
        super::index_scene(tx, &scene)?;
    }
    Ok(n == 1)
}

/// Renames a scene (and re-indexes it: its title heads every passage).
pub fn update_scene_title(tx: &Transaction<'_>, id: &str, title: &str) -> StoreResult<bool> {
    let n = tx.execute(
        "UPDATE scenes SET title = ?2 WHERE id = ?1",
        params![id, title],
    )?;
    if let Some(scene) = get_scene(tx, id)? {
        super::index_scene(tx, &scene)?;
    }
    Ok(n == 1)
}

/// Replaces a scene's prose, word count, title and summary at once (a writer's change across
/// the book), and re-indexes it.
pub fn update_scene_text(tx: &Transaction<'_>, scene: &Scene) -> StoreResult<bool> {
    let n = tx.execute(
        "UPDATE scenes SET prose = ?2, word_count = ?3, title = ?4, summary = ?5 WHERE id = ?1",
        params![
            scene.id,
            scene.prose,
            scene.word_count,
            scene.title,
            to_json(&scene.summary)?
        ],
    )?;
    super::index_scene(tx, scene)?;
    Ok(n == 1)
}

fn read_scene(row: &Row<'_>) -> rusqlite::Result<(Scene, String)> {
    let id: String = row.get(0)?;
    Ok((
        Scene {
            id: id.clone(),
            tick: row.get(1)?,
            title: row.get(2)?,
            pov_character: row.get(3)?,
            location: row.get(4)?,
            prose: row.get(5)?,
            word_count: row.get(6)?,
            summary: Vec::new(),
            tension: row.get(8)?,
            created_at: row.get(9)?,
        },
        row.get(7)?,
    ))
}

fn finish((mut scene, summary): (Scene, String)) -> StoreResult<Scene> {
    scene.summary = from_json(&scene.id, &summary)?;
    Ok(scene)
}

pub fn get_scene(conn: &Connection, id: &str) -> StoreResult<Option<Scene>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM scenes WHERE id = ?1"),
        [id],
        read_scene,
    )
    .optional()?
    .map(finish)
    .transpose()
}

/// All scenes in tick order.
pub fn list_scenes(conn: &Connection) -> StoreResult<Vec<Scene>> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM scenes ORDER BY tick"))?;
    let rows = stmt.query_map([], read_scene)?;
    rows.map(|r| finish(r?)).collect()
}

/// The first summary bullet (or, without one, the title) of every scene after tick `after`, in
/// tick order: what the story so far is made of, without reading any prose.
pub fn scene_gists_after(conn: &Connection, after: u32) -> StoreResult<Vec<(u32, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT tick, coalesce(json_extract(summary, '$[0]'), title) FROM scenes
         WHERE tick > ?1 ORDER BY tick",
    )?;
    let rows = stmt.query_map([after], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The scenes of ticks `from..to`, in tick order.
pub fn scenes_between(conn: &Connection, from: u32, to: u32) -> StoreResult<Vec<Scene>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM scenes WHERE tick >= ?1 AND tick < ?2 ORDER BY tick"
    ))?;
    let rows = stmt.query_map([from, to], read_scene)?;
    rows.map(|r| finish(r?)).collect()
}

/// The last `n` scenes, oldest first.
pub fn recent_scenes(conn: &Connection, n: u32) -> StoreResult<Vec<Scene>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM (SELECT * FROM scenes ORDER BY tick DESC LIMIT ?1) ORDER BY tick"
    ))?;
    let rows = stmt.query_map([n], read_scene)?;
    rows.map(|r| finish(r?)).collect()
}
