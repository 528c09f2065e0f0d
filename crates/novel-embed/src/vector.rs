//! Vectors as the store keeps them: little-endian `f32` bytes, unit length, compared by dot
//! product (the cosine of unit vectors).

/// Scales `v` to unit length in place; a zero vector stays zero (it matches nothing).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// The dot product; the cosine similarity when both are unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    // Eight independent lanes over fixed-size blocks: the compiler turns the inner loop into
    // SIMD multiply-adds (a plain running sum would be one long dependency chain).
    let mut lanes = [0.0f32; 8];
    let blocks_a = a.chunks_exact(8);
    let blocks_b = b.chunks_exact(8);
    let tail: f32 = blocks_a
        .remainder()
        .iter()
        .zip(blocks_b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in blocks_a.zip(blocks_b) {
        let (Ok(x), Ok(y)) = (<&[f32; 8]>::try_from(x), <&[f32; 8]>::try_from(y)) else {
            continue; // chunks_exact(8) yields only blocks of 8
        };
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The bytes of a BLOB column.
pub fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A vector from a BLOB column; `None` when the length is not a whole number of `f32`s.
pub fn from_bytes(bytes: &[u8]) -> Option<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(floats(bytes).collect())
}

/// The `f32`s of a BLOB column, read in place (a trailing partial float is ignored: check the
/// length first, as [`from_bytes`] does).
pub fn floats(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_reject_ragged_blobs() {
        let v = vec![0.5f32, -1.25, 3.0e-7, f32::MAX];
        assert_eq!(from_bytes(&to_bytes(&v)).unwrap(), v);
        assert_eq!(to_bytes(&[1.0]), 1.0f32.to_le_bytes().to_vec());
        assert!(from_bytes(&[0, 0, 128]).is_none());
    }

    #[test]
    fn dot_of_normalized_vectors_is_their_cosine() {
        let mut a = vec![3.0, 4.0, 0.0, 0.0, 0.0];
        let mut b = vec![4.0, 3.0, 0.0, 0.0, 0.0];
        normalize(&mut a);
        normalize(&mut b);
        assert!((dot(&a, &a) - 1.0).abs() < 1e-6);
        assert!((dot(&a, &b) - 24.0 / 25.0).abs() < 1e-6);
        let mut zero = vec![0.0; 3];
        normalize(&mut zero);
        assert_eq!(zero, vec![0.0; 3]);
        // Lengths that are not a multiple of the block size count every element.
        let long: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let expected: f32 = long.iter().map(|x| x * x).sum();
        assert_eq!(dot(&long, &long), expected);
    }
}
