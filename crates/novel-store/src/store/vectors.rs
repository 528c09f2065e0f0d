//! Stored embeddings: one vector per passage with the model that made it, the model the novel's
//! vectors belong to, and the counter that tells in-memory copies they are stale. Passages
//! without a vector are "pending": keyword search finds them, semantic search not yet.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::chunks::{Chunk, ChunkPart};
use super::error::StoreResult;

/// Which model the stored vectors belong to, and how often vectors were written or removed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VectorMeta {
    pub model: Option<String>,
    pub dim: Option<usize>,
    pub generation: i64,
    /// Vectors stored.
    pub count: usize,
}

pub fn vector_meta(conn: &Connection) -> StoreResult<VectorMeta> {
    let (model, dim, generation, count): (Option<String>, Option<i64>, i64, i64) = conn
        .prepare_cached("SELECT model, dim, generation, vectors FROM search_meta WHERE id = 1")?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    Ok(VectorMeta {
        model,
        dim: dim.map(|d| d as usize),
        generation,
        count: count as usize,
    })
}

/// Forgets every vector and records that vectors from now on are `model`'s (a model change,
/// or a rebuild).
pub fn reset_vectors(tx: &Transaction<'_>, model: &str, dim: usize) -> StoreResult<()> {
    tx.execute("DELETE FROM search_vectors", [])?;
    tx.execute(
        "UPDATE search_meta SET model = ?1, dim = ?2 WHERE id = 1",
        params![model, dim as i64],
    )?;
    Ok(())
}

/// Up to `limit` passages without a vector, oldest first.
pub fn pending_chunks(conn: &Connection, limit: usize) -> StoreResult<Vec<Chunk>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.entity_id, c.kind, c.part, c.seq, c.tick, c.title, c.body
         FROM search_chunks c LEFT JOIN search_vectors v ON v.chunk_id = c.id
         WHERE v.chunk_id IS NULL ORDER BY c.id LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        let part: String = r.get(3)?;
        Ok(Chunk {
            id: r.get(0)?,
            entity_id: r.get(1)?,
            kind: r.get(2)?,
            part: ChunkPart::parse(&part).unwrap_or(ChunkPart::Record),
            seq: r.get(4)?,
            tick: r.get(5)?,
            title: r.get(6)?,
            body: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn count_pending(conn: &Connection) -> StoreResult<usize> {
    Ok(conn.query_row(
        "SELECT count(*) FROM search_chunks c LEFT JOIN search_vectors v ON v.chunk_id = c.id
         WHERE v.chunk_id IS NULL",
        [],
        |r| r.get::<_, i64>(0),
    )? as usize)
}

/// Stores vectors for passages (replacing any they had).
pub fn put_vectors(
    tx: &Transaction<'_>,
    model: &str,
    vectors: &[(i64, Vec<f32>)],
) -> StoreResult<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT OR REPLACE INTO search_vectors (chunk_id, model, dim, vector) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (chunk_id, v) in vectors {
        stmt.execute(params![
            chunk_id,
            model,
            v.len() as i64,
            novel_embed::vector::to_bytes(v)
        ])?;
    }
    Ok(())
}

/// One stored vector as read, borrowed from the row: the passage's id, kind and tick and the
/// vector's bytes (little-endian `f32`s).
pub struct VectorRow<'a> {
    pub chunk_id: i64,
    pub kind: &'a str,
    pub tick: Option<u32>,
    pub bytes: &'a [u8],
}

/// Calls `each` with every vector of `model`, by passage id; vectors of other models are stale
/// and left out. The rows are lent, not copied: the in-memory index is rebuilt from them after
/// every tick that adds vectors, and a copy of each row first was three small allocations per
/// passage, thousands each time.
pub fn for_each_vector(
    conn: &Connection,
    model: &str,
    mut each: impl FnMut(VectorRow<'_>),
) -> StoreResult<()> {
    let mut stmt = conn.prepare(
        "SELECT v.chunk_id, c.kind, c.tick, v.vector FROM search_vectors v
         JOIN search_chunks c ON c.id = v.chunk_id WHERE v.model = ?1 ORDER BY v.chunk_id",
    )?;
    let mut rows = stmt.query([model])?;
    while let Some(row) = rows.next()? {
        each(VectorRow {
            chunk_id: row.get(0)?,
            kind: row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?,
            tick: row.get(2)?,
            bytes: row.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?,
        });
    }
    Ok(())
}

/// The vector of one passage, if it has one.
pub fn get_vector(conn: &Connection, chunk_id: i64) -> StoreResult<Option<Vec<f32>>> {
    let bytes: Option<Vec<u8>> = conn
        .query_row(
            "SELECT vector FROM search_vectors WHERE chunk_id = ?1",
            [chunk_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(bytes.and_then(|b| novel_embed::vector::from_bytes(&b)))
}

/// The vector of each scene's summary passage under the stored model, by tick: what the book
/// audit compares to find scenes that say the same thing. Empty when no vectors were made.
pub fn scene_summary_vectors(conn: &Connection) -> StoreResult<Vec<(u32, Vec<f32>)>> {
    let mut stmt = conn.prepare(
        "SELECT c.tick, v.vector FROM search_vectors v
         JOIN search_chunks c ON c.id = v.chunk_id
         JOIN search_meta m ON m.id = 1 AND m.model = v.model
         WHERE c.part = 'summary' AND c.tick IS NOT NULL ORDER BY c.tick, c.seq",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, Vec<u8>>(1)?)))?;
    let mut out: Vec<(u32, Vec<f32>)> = Vec::new();
    for row in rows {
        let (tick, bytes) = row?;
        if out.last().is_some_and(|(t, _)| *t == tick) {
            continue;
        }
        if let Some(v) = novel_embed::vector::from_bytes(&bytes) {
            out.push((tick, v));
        }
    }
    Ok(out)
}
