// Blocks of 32 values in 10 words: scale d (f32), minimum m (f32), then 32 signed bytes;
// value = d · q + m (Q8_0: m = 0).
fn load_w(r: u32, k: u32) -> f32 {
    let base = r * p.row_words + (k / 32u) * 10u;
    let j = k % 32u;
    let q = extractBits(bitcast<i32>(w[base + 2u + j / 4u]), (j % 4u) * 8u, 8u);
    return bitcast<f32>(w[base]) * f32(q) + bitcast<f32>(w[base + 1u]);
}
