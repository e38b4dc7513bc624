// The register tile both models' products share (the embedding model's `linear`, the decoder's
// `tiled`): a workgroup of 256 invocations computes 64 rows × 64 outputs, each invocation 4 × 4
// of them held in registers. A step puts 32 inputs of the tile's rows and of its outputs'
// weights into workgroup memory (`tile_put`, each invocation eight of each), then every
// invocation adds their products (`tile_accumulate`): each value read from storage once a tile,
// each read from workgroup memory serving four products.

var<workgroup> tile_x: array<vec4<f32>, 512>;
var<workgroup> tile_w: array<vec4<f32>, 512>;

// Puts input `kk` (0..32) of the tile's row `lr` (0..64): `x` the row's value, `w` the weight of
// output `lr` of the tile.
fn tile_put(kk: u32, lr: u32, x: f32, w: f32) {
    tile_x[kk * 16u + lr / 4u][lr % 4u] = x;
    tile_w[kk * 16u + lr / 4u][lr % 4u] = w;
}

// Adds the 32 inputs in workgroup memory to the outputs of rows ty·4.. and outputs tx·4...
fn tile_accumulate(ty: u32, tx: u32, acc: ptr<function, array<vec4<f32>, 4>>) {
    for (var kk = 0u; kk < 32u; kk++) {
        let a = tile_x[kk * 16u + ty];
        let b = tile_w[kk * 16u + tx];
        (*acc)[0] += a.x * b;
        (*acc)[1] += a.y * b;
        (*acc)[2] += a.z * b;
        (*acc)[3] += a.w * b;
    }
}
