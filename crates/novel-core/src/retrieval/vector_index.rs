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

    /// Loads the store's vectors of `key.model`, into `spare`'s buffers when given (a stale
    /// copy no one else holds). The index is reloaded after every tick that adds vectors;
    /// allocating a new matrix of megabytes each time and freeing the old one left the freed
    /// heap behind in a long run (about 6 MB a hundred scenes beyond the vectors themselves,
    /// measured with `bench_tick`), while refilling the same buffers grows them only as the
    /// novel grows.
    pub fn load(
        conn: &Connection,
        key: IndexKey,
        dim: usize,
        spare: Option<VectorIndex>,
    ) -> StoreResult<VectorIndex> {
        let capacity = key.count;
        let mut index = match spare {
            Some(mut old) => {
                old.key = key;
                old.dim = dim;
                old.ids.clear();
                old.kinds.clear();
                old.ticks.clear();
                old.data.clear();
                old
            }
            None => VectorIndex {
                key,
                dim,
                ids: Vec::new(),
                kinds: Vec::new(),
                ticks: Vec::new(),
                data: Vec::new(),
            },
        };
        index.ids.reserve(capacity);
        index.kinds.reserve(capacity);
        index.ticks.reserve(capacity);
        index.data.reserve(capacity * dim);
        let model = index.key.model.clone();
        store::for_each_vector(conn, &model, |row| {
            // A vector of another size belongs to no model we can compare against (and a
            // damaged row, not whole f32s, is skipped rather than fatal).
            if row.bytes.len() != dim * 4 {
                return;
            }
            index.ids.push(row.chunk_id);
            index.kinds.push(EntityKind::parse_word(row.kind));
            index.ticks.push(row.tick);
            index.data.extend(novel_embed::vector::floats(row.bytes));
        })?;
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::retrieval::Retrieval;

    #[tokio::test]
    async fn a_refilled_index_holds_exactly_what_a_fresh_load_holds() {
        let mut f = crate::context::fixture::novel(2);
        let retrieval = Retrieval::with_embedder(Arc::new(novel_embed::HashEmbedder::new("h1", 8)));
        let tx = f.store.transaction().unwrap();
        retrieval.sync(&tx).await.unwrap();
        tx.commit().unwrap();
        let conn = f.store.conn();
        let key = VectorIndex::current_key(conn, "h1").unwrap();
        let fresh = VectorIndex::load(conn, key.clone(), 8, None).unwrap();
        assert!(fresh.len() > 1);
        // A stale copy, longer than the new one and of another size: none of it may remain.
        let stale = VectorIndex {
            key: IndexKey {
                model: "old".into(),
                generation: -1,
                count: 500,
            },
            dim: 3,
            ids: vec![-7; 500],
            kinds: vec![None; 500],
            ticks: vec![Some(99); 500],
            data: vec![9.0; 1500],
        };
        let refilled = VectorIndex::load(conn, key, 8, Some(stale)).unwrap();
        assert_eq!(refilled.key, fresh.key);
        assert_eq!(refilled.dim, fresh.dim);
        assert_eq!(refilled.ids, fresh.ids);
        assert_eq!(refilled.kinds, fresh.kinds);
        assert_eq!(refilled.ticks, fresh.ticks);
        assert_eq!(refilled.data, fresh.data);
    }
}
