// Two bfloat16 a word, the even value in the low half: a bfloat16 is an f32's upper 16 bits.
fn load_w8(r: u32, k: u32) -> array<f32, 8> {
    let base = r * p.row_words + k / 2u;
    var v: array<f32, 8>;
    for (var i = 0u; i < 4u; i++) {
        let word = w[base + i];
        v[2u * i] = bitcast<f32>(word << 16u);
        v[2u * i + 1u] = bitcast<f32>(word & 0xffff0000u);
    }
    return v;
}
