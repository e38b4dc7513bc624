// f32 rows, a word a value: values k..k+8 of row r (past the row's end: whatever the buffer
// holds there; the kernels zero what lies past p.cols).
fn load_w8(r: u32, k: u32) -> array<f32, 8> {
    let base = r * p.row_words + k;
    var v: array<f32, 8>;
    for (var i = 0u; i < 8u; i++) { v[i] = bitcast<f32>(w[base + i]); }
    return v;
}
