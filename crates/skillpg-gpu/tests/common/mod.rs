//! What the GPU tests share: deterministic random inputs and the worst difference.

use itertools::Itertools;
/// Deterministic values in [-1, 1).
pub fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

pub fn max_abs(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip_eq(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}
