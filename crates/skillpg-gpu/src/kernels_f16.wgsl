// The linear kernel with its weights stored in f16 (where the adapter offers `shader-f16`):
// half the memory and bandwidth; arithmetic stays in f32. Loaded as `enable f16;`, then
// common.wgsl, then this file; same bindings and parameters as kernels.wgsl.

@group(0) @binding(2) var<storage, read> w: array<f16>;

// The weights as `linear_tiled` reads them (common.wgsl): f16, widened.
fn load_w(i: u32) -> f32 { return f32(w[i]); }

// out[r, o] = a[r, :] · w[o, :] + c[o], w in f16.
@compute @workgroup_size(256)
fn linear_f16(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    linear_tiled(lid, wid);
}
