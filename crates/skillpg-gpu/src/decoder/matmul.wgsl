// y[t][out_offset + o] = W[o] · x[t] (+ bias[out_offset + o]) for the p.n tokens and this chunk's
// p.rows outputs. The weights stay in the file's storage (f32, f16, bf16, or blocks of 32 with a
// scale and a minimum: `q8`, `q4`) and each module defines `load_w(row, k)`, which dequantizes one
// value; the arithmetic is f32. Tiled: a workgroup of 16 × 16 computes 16 tokens × 16 outputs,
// x and W passing through workgroup memory 16 inputs at a time.

@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<u32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

var<workgroup> tile_x: array<array<f32, 16>, 16>;
var<workgroup> tile_w: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn matmul(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let t0 = wid.y * 16u;
    let o0 = wid.x * 16u;
    var acc = 0.0;
    for (var k0 = 0u; k0 < p.cols; k0 += 16u) {
        let k = k0 + lid.x;
        var xv = 0.0;
        if (t0 + lid.y < p.n && k < p.cols) { xv = x[(t0 + lid.y) * p.cols + k]; }
        tile_x[lid.y][lid.x] = xv;
        var wv = 0.0;
        if (o0 + lid.y < p.rows && k < p.cols) { wv = load_w(o0 + lid.y, k); }
        tile_w[lid.y][lid.x] = wv;
        workgroupBarrier();
        for (var kk = 0u; kk < 16u; kk++) {
            acc += tile_x[lid.y][kk] * tile_w[lid.x][kk];
        }
        workgroupBarrier();
    }
    let t = t0 + lid.y;
    let o = o0 + lid.x;
    if (t < p.n && o < p.rows) {
        var v = acc;
        if (p.flag == 1u) { v += bias[p.out_offset + o]; }
        y[t * p.out_stride + p.out_offset + o] = v;
    }
}
