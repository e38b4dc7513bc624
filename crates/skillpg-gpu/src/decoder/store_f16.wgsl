// Two IEEE halves a word, the even value in the low half (the file's little-endian order).
fn load_w8(r: u32, k: u32) -> array<f32, 8> {
    let base = r * p.row_words + k / 2u;
    var v: array<f32, 8>;
    for (var i = 0u; i < 4u; i++) {
        let pair = unpack2x16float(w[base + i]);
        v[2u * i] = pair.x;
        v[2u * i + 1u] = pair.y;
    }
    return v;
}
