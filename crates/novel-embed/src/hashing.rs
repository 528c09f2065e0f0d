//! A deterministic stand-in embedder: words and their character trigrams hashed into a fixed
//! number of dimensions (feature hashing). Texts sharing words or word pieces come out similar;
//! it knows nothing of meaning, so it stands in for the real model where a test needs vectors
//! that are stable everywhere (plumbing, rebuilds, benchmarks of the index itself).

use crate::vector::normalize;
use crate::{EmbedError, Embedder};

#[derive(Debug, Clone)]
pub struct HashEmbedder {
    id: String,
    dimension: usize,
}

impl HashEmbedder {
    pub fn new(id: impl Into<String>, dimension: usize) -> HashEmbedder {
        HashEmbedder {
            id: id.into(),
            dimension: dimension.max(1),
        }
    }

    /// One vector, without the trait's batch shape.
    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0f32; self.dimension];
        let lower = text.to_lowercase();
        for word in lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            self.add(&mut v, word.as_bytes(), 1.0);
            let padded: Vec<char> = format!("^{word}$").chars().collect();
            for tri in padded.windows(3) {
                let s: String = tri.iter().collect();
                self.add(&mut v, s.as_bytes(), 0.25);
            }
        }
        normalize(&mut v);
        v
    }

    fn add(&self, v: &mut [f32], feature: &[u8], weight: f32) {
        let h = fnv1a(feature);
        let index = (h % self.dimension as u64) as usize;
        // A second bit of the hash picks the sign, so collisions cancel rather than pile up.
        let sign = if (h >> 63) & 1 == 0 { 1.0 } else { -1.0 };
        v[index] += sign * weight;
    }
}

impl Default for HashEmbedder {
    fn default() -> Self {
        HashEmbedder::new("hash-trigram-v1", 384)
    }
}

impl Embedder for HashEmbedder {
    fn model_id(&self) -> &str {
        &self.id
    }

    fn dimension(&self) -> usize {
        self.dimension
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| self.vector(t)).collect())
    }
}

/// FNV-1a: stable across platforms and releases, unlike `std`'s hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::dot;

    #[test]
    fn same_text_same_vector_and_shared_words_score_higher() {
        let e = HashEmbedder::default();
        let a = e.vector("The lighthouse keeper hid the brass key");
        assert_eq!(a, e.vector("The lighthouse keeper hid the brass key"));
        assert!((dot(&a, &a) - 1.0).abs() < 1e-5);
        let near = e.vector("a brass key in the lighthouse");
        let far = e.vector("Marcus sold fish at dawn");
        assert!(dot(&a, &near) > dot(&a, &far) + 0.2);
    }
}
