// The linear kernel with its weights stored in f16 (where the adapter offers `shader-f16`):
// half the memory and bandwidth; arithmetic stays in f32. Loaded as `enable f16;`, then
// common.wgsl, then this file; same bindings and parameters as kernels.wgsl.

@group(0) @binding(2) var<storage, read> w: array<f16>;

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
    finish_linear(idx, o, acc);
}
