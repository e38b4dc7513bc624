// Blocks of 32 values in 10 words: scale d (f32), minimum m (f32), then 32 signed bytes;
// value = d · q + m (Q8_0: m = 0). Values k..k+8 (k a multiple of 8) are two words of one block.
fn load_w8(r: u32, k: u32) -> array<f32, 8> {
    let base = r * p.row_words + (k / 32u) * 10u;
    let d = bitcast<f32>(w[base]);
    let m = bitcast<f32>(w[base + 1u]);
    let at = base + 2u + (k % 32u) / 4u;
    var v: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) {
        let q = extractBits(bitcast<i32>(w[at + i / 4u]), (i % 4u) * 8u, 8u);
        v[i] = d * f32(q) + m;
    }
    return v;
}
