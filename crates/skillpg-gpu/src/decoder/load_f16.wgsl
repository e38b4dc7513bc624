// Two IEEE halves a word, the even value in the low half (the file's little-endian order).
fn load_w(r: u32, k: u32) -> f32 {
    let pair = unpack2x16float(w[r * p.row_words + k / 2u]);
    return select(pair.x, pair.y, (k & 1u) == 1u);
}
