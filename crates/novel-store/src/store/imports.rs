//! The bookkeeping of a manuscript import: where it came from, and the manuscript split into
//! scenes with, for each, the tick it became once committed. A scene's tick is set in the
//! transaction that commits the scene, so an import stopped at any moment resumes exactly
//! where it stopped. Not story state: the change recorder never tracks these tables.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::StoreResult;

/// Where an import came from and how far it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportJob {
    /// The manuscript's file name.
    pub source: String,
    /// `markdown`, `text` or `docx`.
    pub format: String,
    pub scenes: u32,
    pub started_at: String,
    pub finished_at: Option<String>,
}

/// One scene of the imported manuscript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportScene {
    /// 1-based position in the manuscript.
    pub ordinal: u32,
    /// 1-based chapter of the manuscript it belongs to.
    pub chapter: u32,
    pub chapter_title: String,
    /// The heading of the part the chapter opens, on the chapter's first scene only.
    pub part_title: Option<String>,
    /// A heading the scene had in the manuscript.
    pub heading: Option<String>,
    pub text: String,
    /// The tick it was committed as; `None` while still to do.
    pub tick: Option<u32>,
}

/// Starts an import: its job row and every scene, none done.
pub fn start_import(
    tx: &Transaction<'_>,
    job: &ImportJob,
    scenes: &[ImportScene],
) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO import_job (id, source, format, scenes, started_at, finished_at)
         VALUES (1, ?1, ?2, ?3, ?4, NULL)",
        params![job.source, job.format, job.scenes, job.started_at],
    )?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO import_scenes (ordinal, chapter, chapter_title, part_title, heading, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for s in scenes {
        stmt.execute(params![
            s.ordinal,
            s.chapter,
            s.chapter_title,
            s.part_title,
            s.heading,
            s.text
        ])?;
    }
    Ok(())
}

pub fn import_job(conn: &Connection) -> StoreResult<Option<ImportJob>> {
    Ok(conn
        .query_row(
            "SELECT source, format, scenes, started_at, finished_at FROM import_job WHERE id = 1",
            [],
            |r| {
                Ok(ImportJob {
                    source: r.get(0)?,
                    format: r.get(1)?,
                    scenes: r.get(2)?,
                    started_at: r.get(3)?,
                    finished_at: r.get(4)?,
                })
            },
        )
        .optional()?)
}

/// Every scene of the import, in manuscript order.
pub fn import_scenes(conn: &Connection) -> StoreResult<Vec<ImportScene>> {
    let mut stmt = conn.prepare_cached(
        "SELECT ordinal, chapter, chapter_title, part_title, heading, text, tick
         FROM import_scenes ORDER BY ordinal",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(ImportScene {
            ordinal: r.get(0)?,
            chapter: r.get(1)?,
            chapter_title: r.get(2)?,
            part_title: r.get(3)?,
            heading: r.get(4)?,
            text: r.get(5)?,
            tick: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Marks scene `ordinal` as committed as `tick` (in the committing transaction).
pub fn mark_imported(tx: &Transaction<'_>, ordinal: u32, tick: u32, at: &str) -> StoreResult<()> {
    tx.execute(
        "UPDATE import_scenes SET tick = ?2, done_at = ?3 WHERE ordinal = ?1",
        params![ordinal, tick, at],
    )?;
    Ok(())
}

pub fn finish_import(tx: &Transaction<'_>, at: &str) -> StoreResult<()> {
    tx.execute("UPDATE import_job SET finished_at = ?1 WHERE id = 1", [at])?;
    Ok(())
}
