// Blocks of 32 values in 6 words: scale d (f32), minimum m (f32), then 16 bytes of nibbles in
// ggml's order (value j < 16 in the low nibble of byte j, value j ≥ 16 in the high nibble of
// byte j - 16); value = d · q + m (Q4_0: m = -8d; Q4_1: the block's m). Values k..k+8 (k a
// multiple of 8) are one nibble of each of eight bytes: two words.
fn load_w8(r: u32, k: u32) -> array<f32, 8> {
    let base = r * p.row_words + (k / 32u) * 6u;
    let d = bitcast<f32>(w[base]);
    let m = bitcast<f32>(w[base + 1u]);
    let j = k % 32u;
    let at = base + 2u + (j % 16u) / 4u;
    let shift = (j / 16u) * 4u;
    var v: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
        let q = extractBits(w[at + i / 4u], (i % 4u) * 8u + shift, 4u);
        v[i] = d * f32(q) + m;
    }
    return v;
}
