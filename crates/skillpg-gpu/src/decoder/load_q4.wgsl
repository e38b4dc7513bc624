// Blocks of 32 values in 6 words: scale d (f32), minimum m (f32), then 16 bytes of nibbles in
// ggml's order (value j < 16 in the low nibble of byte j, value j ≥ 16 in the high nibble of
// byte j - 16); value = d · q + m (Q4_0: m = -8d; Q4_1: the block's m).
fn load_w(r: u32, k: u32) -> f32 {
    let base = r * p.row_words + (k / 32u) * 6u;
    let j = k % 32u;
    let byte = j % 16u;
    let q = extractBits(w[base + 2u + byte / 4u], (byte % 4u) * 8u + (j / 16u) * 4u, 4u);
    return bitcast<f32>(w[base]) * f32(q) + bitcast<f32>(w[base + 1u]);
}
