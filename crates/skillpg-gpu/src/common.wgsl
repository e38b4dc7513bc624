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

