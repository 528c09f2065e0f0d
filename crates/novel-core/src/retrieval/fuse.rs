//! Reciprocal rank fusion: each ranking contributes `1 / (K + rank)` for every passage it
//! holds, and passages are ordered by the sum. It needs no score calibration between BM25 and
//! cosine (they are not comparable), and a passage both rankings like rises above one only a
//! single ranking likes a little more.

use std::collections::HashMap;

/// The usual constant: it damps the weight of the very top ranks so one list cannot dominate.
pub(crate) const RRF_K: f64 = 60.0;

/// A passage's place in each ranking (0-based) and its fused score.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fused {
    pub id: i64,
    pub score: f64,
    pub keyword_rank: Option<usize>,
    pub semantic_rank: Option<usize>,
}

/// Fuses two rankings of passage ids (best first) into one, best first; ties keep the keyword
/// ranking's order, then the lower id, so results are deterministic.
pub(crate) fn fuse(keyword: &[i64], semantic: &[i64]) -> Vec<Fused> {
    let mut by_id: HashMap<i64, Fused> = HashMap::new();
    for (rank, &id) in keyword.iter().enumerate() {
        let e = by_id.entry(id).or_insert(Fused {
            id,
            score: 0.0,
            keyword_rank: None,
            semantic_rank: None,
        });
        if e.keyword_rank.is_none() {
            e.keyword_rank = Some(rank);
            e.score += 1.0 / (RRF_K + rank as f64 + 1.0);
        }
    }
    for (rank, &id) in semantic.iter().enumerate() {
        let e = by_id.entry(id).or_insert(Fused {
            id,
            score: 0.0,
            keyword_rank: None,
            semantic_rank: None,
        });
        if e.semantic_rank.is_none() {
            e.semantic_rank = Some(rank);
            e.score += 1.0 / (RRF_K + rank as f64 + 1.0);
        }
    }
    let mut fused: Vec<Fused> = by_id.into_values().collect();
    fused.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(
                a.keyword_rank
                    .unwrap_or(usize::MAX)
                    .cmp(&b.keyword_rank.unwrap_or(usize::MAX)),
            )
            .then(a.id.cmp(&b.id))
    });
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_beats_a_single_first_place_and_every_passage_is_kept_once() {
        // 7 is first for keywords only; 3 is second in both lists.
        let fused = fuse(&[7, 3, 9], &[5, 3, 7, 1]);
        let ids: Vec<i64> = fused.iter().map(|f| f.id).collect();
        assert_eq!(ids[..2], [7, 3]);
        assert_eq!(ids.len(), 5);
        let three = fused.iter().find(|f| f.id == 3).unwrap();
        assert_eq!(
            (three.keyword_rank, three.semantic_rank),
            (Some(1), Some(1))
        );
        // 7 (ranks 0 and 2) and 3 (1 and 1) both beat 5 (semantic first only).
        let five = fused.iter().position(|f| f.id == 5).unwrap();
        assert!(five > 1);
        assert_eq!(fuse(&[], &[]), Vec::new());
        // One list alone keeps its order.
        let only: Vec<i64> = fuse(&[4, 2, 8], &[]).iter().map(|f| f.id).collect();
        assert_eq!(only, vec![4, 2, 8]);
    }
}
