// Two bfloat16 a word, the even value in the low half: a bfloat16 is an f32's upper 16 bits.
fn load_w(r: u32, k: u32) -> f32 {
    let word = w[r * p.row_words + k / 2u];
    return bitcast<f32>(select(word << 16u, word & 0xffff0000u, (k & 1u) == 1u));
}
