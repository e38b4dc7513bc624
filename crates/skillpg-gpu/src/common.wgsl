// Shared by kernels.wgsl (f32 weights) and kernels_f16.wgsl (f16 weights): the parameters,
// the bindings both use, erf, and the end of a linear output (bias, optional GELU, store).
// Binding 2 is declared by each module: `b: array<f32>` or `w: array<f16>`.

struct Params {
    rows: u32,
    n_in: u32,
    n_out: u32,
    flag: u32,   // linear: 1 = apply GELU; layer_norm: 1 = add the residual first
    heads: u32,
    head_dim: u32,
    eps: f32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> c: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

// erf to about 1e-7 (the erfc approximation of Numerical Recipes), as the CPU reference.
fn erf_approx(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.5 * abs(x));
    let y = t * exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
        + t * (-0.82215223 + t * 0.17087277)))))))));
    return select(y - 1.0, 1.0 - y, x >= 0.0);
}

// Adds the bias, applies GELU when asked (p.flag == 1), and stores output `idx` of `linear`.
fn finish_linear(idx: u32, o: u32, acc: f32) {
    var y = acc + c[o];
    if (p.flag == 1u) {
        y = 0.5 * y * (1.0 + erf_approx(y * 0.70710678118654752));
    }
    out[idx] = y;
}


// The tiled matrix multiply behind both linear kernels, on the register tile of tile.wgsl:
// `load_w` is the module's weight read (f32, or f16 widened). Out-of-range rows, outputs and
// inputs load zeros; every invocation reaches every barrier.
const TILE: u32 = 64u;

fn linear_tiled(lid: u32, wid: vec3<u32>) {
    let row0 = wid.y * TILE;
    let out0 = wid.x * TILE;
    let tx = lid % 16u;
    let ty = lid / 16u;
    // What this invocation loads each step: 8 inputs of row (or output) `lr` of the tile.
    let lr = lid / 4u;
    let lk = (lid % 4u) * 8u;
    var acc: array<vec4<f32>, 4>;
    for (var k0 = 0u; k0 < p.n_in; k0 += 32u) {
        for (var i = 0u; i < 8u; i++) {
            let k = k0 + lk + i;
            var xv = 0.0;
            if (row0 + lr < p.rows && k < p.n_in) { xv = a[(row0 + lr) * p.n_in + k]; }
            var wv = 0.0;
            if (out0 + lr < p.n_out && k < p.n_in) { wv = load_w((out0 + lr) * p.n_in + k); }
            tile_put(lk + i, lr, xv, wv);
        }
        workgroupBarrier();
        tile_accumulate(ty, tx, &acc);
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        let r = row0 + ty * 4u + i;
        for (var j = 0u; j < 4u; j++) {
            let o = out0 + tx * 4u + j;
            if (r < p.rows && o < p.n_out) { finish_linear(r * p.n_out + o, o, acc[i][j]); }
        }
    }
}
