fn load_w(r: u32, k: u32) -> f32 {
    return bitcast<f32>(w[r * p.row_words + k]);
}
