//! The novel's vectors in memory, for brute-force cosine search: one contiguous matrix of unit
//! vectors with each row's passage id, kind and tick. At 20,000 passages of 384 dimensions that
//! is 30 MB and a few milliseconds per query — no approximate index needed at a novel's scale.
//! It is loaded once and reused until the store's vector counter says it is stale.

use rusqlite::Connection;

use crate::ids::EntityKind;
use crate::store::{self, SearchFilter, StoreResult};

/// What identifies a loaded copy: the model, the store's vector write counter and count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexKey {
    pub model: String,
    pub generation: i64,
    pub count: usize,
}

#[derive(Debug)]
pub(crate) struct VectorIndex {
    pub key: IndexKey,
    dim: usize,
    ids: Vec<i64>,
    kinds: Vec<Option<EntityKind>>,
    ticks: Vec<Option<u32>>,
    data: Vec<f32>,
}

impl VectorIndex {
    /// The key the store's current vectors of `model` would have.
    pub fn current_key(conn: &Connection, model: &str) -> StoreResult<IndexKey> {
        let meta = store::vector_meta(conn)?;
        Ok(IndexKey {
            model: model.to_string(),
            generation: meta.generation,
            count: meta.count,
        })
    }

    pub fn load(conn: &Connection, key: IndexKey, dim: usize) -> StoreResult<VectorIndex> {
        let rows = store::load_vectors(conn, &key.model)?;
        let mut index = VectorIndex {
            key,
            dim,
            ids: Vec::with_capacity(rows.len()),
            kinds: Vec::with_capacity(rows.len()),
            ticks: Vec::with_capacity(rows.len()),
            data: Vec::with_capacity(rows.len() * dim),
        };
        for row in rows {
            // A vector of another size belongs to no model we can compare against.
            if row.vector.len() != dim {
                continue;
            }
            index.ids.push(row.chunk_id);
            index.kinds.push(EntityKind::parse_word(&row.kind));
            index.ticks.push(row.tick);
            index.data.extend_from_slice(&row.vector);
        }
        Ok(index)
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// The `k` passages most similar to `query` that pass `filter`, best first, as
    /// `(passage id, cosine)`.
    pub fn top_k(&self, query: &[f32], filter: &SearchFilter, k: usize) -> Vec<(i64, f32)> {
        if query.len() != self.dim || k == 0 {
            return Vec::new();
        }
        let admits_kind = |kind: Option<EntityKind>| {
            filter.kinds.is_empty() || kind.is_some_and(|k| filter.kinds.contains(&k))
        };
        let mut scored: Vec<(i64, f32)> = Vec::with_capacity(self.ids.len());
        for (row, vector) in self.data.chunks_exact(self.dim).enumerate() {
            let tick_ok = self.ticks[row].is_none_or(|t| {
                filter.from_tick.is_none_or(|f| t >= f) && filter.to_tick.is_none_or(|to| t <= to)
            });
            if tick_ok && admits_kind(self.kinds[row]) {
                scored.push((self.ids[row], novel_embed::vector::dot(query, vector)));
            }
        }
        let by_score = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if scored.len() > k {
            scored.select_nth_unstable_by(k - 1, by_score);
            scored.truncate(k);
        }
        scored.sort_by(by_score);
        scored
    }
}
