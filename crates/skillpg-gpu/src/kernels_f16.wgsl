// The kernels that read weights, with the weights stored in f16 (where the adapter offers
// `shader-f16`): half the memory and bandwidth; arithmetic stays in f32. Same bindings and
// parameters as kernels.wgsl.
enable f16;

struct Params {
    rows: u32,
    n_in: u32,
    n_out: u32,
    flag: u32,
    heads: u32,
    head_dim: u32,
    eps: f32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f16>;
@group(0) @binding(3) var<storage, read> c: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

fn erf_approx(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.5 * abs(x));
    let y = t * exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
        + t * (-0.82215223 + t * 0.17087277)))))))));
    return select(y - 1.0, 1.0 - y, x >= 0.0);
}

// out[r, o] = a[r, :] · w[o, :] + c[o], w in f16.
@compute @workgroup_size(64)
fn linear_f16(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x + gid.y * 65535u * 64u;
    if (idx >= p.rows * p.n_out) { return; }
    let r = idx / p.n_out;
    let o = idx % p.n_out;
    var acc = 0.0;
    for (var k = 0u; k < p.n_in; k++) {
        acc += a[r * p.n_in + k] * f32(w[o * p.n_in + k]);
    }
    var y = acc + c[o];
    if (p.flag == 1u) {
        y = 0.5 * y * (1.0 + erf_approx(y * 0.70710678118654752));
    }
    out[idx] = y;
}
