// y[t][out_offset + o] = W[o] · in(x[t]) (+ bias) for this chunk's p.rows outputs, the weights in
// the file's storage (each storage module defines `load_w8(row, k)`: eight values dequantized),
// f32 arithmetic. Two kernels:
// - `matvec`, for a pass of at most MV tokens (decoding, a candidate's few tokens, the logits'
//   rows): a workgroup of 64 computes 4 output rows, 16 threads a row, each thread every 16th
//   run of 8 values (the row's threads read neighbouring words), every token's product from the
//   one read of the weights; the 16 partial sums of a row meet in workgroup memory after one
//   barrier. Four rows a workgroup keep a large GPU busy on the small products of a 0.5B model
//   (a layer's 576 outputs are 144 workgroups) while a row's threads still share its blocks.
//   It can RMSNorm its input rows itself (FLAG_NORM) and read the SwiGLU gate's silu(gate)·up
//   (FLAG_SILU), so the norm and the gate need no pass of their own.
// - `tiled`, for prefill: the register tile of tile.wgsl (64 tokens × 64 outputs a workgroup of
//   256, each thread 4 × 4 of them), 32 inputs (one block) a step.
// Both add the bias (FLAG_BIAS) and write, or add into the residual stream (FLAG_ACCUMULATE).

@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> w: array<u32>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read> gains: array<f32>;
@group(0) @binding(6) var<storage, read_write> y: array<f32>;

const MV: u32 = 8u;
// Rows a `matvec` workgroup computes, and threads a row.
const MV_ROWS: u32 = 4u;
const MV_LANES: u32 = 16u;

var<workgroup> red: array<array<f32, 8>, 64>;
var<workgroup> inv_rms: array<f32, 8>;

// The value a product writes at y[index]: written, or added to what is there.
fn store(index: u32, value: f32) {
    if ((p.flags & FLAG_ACCUMULATE) != 0u) {
        y[index] = y[index] + value;
    } else {
        y[index] = value;
    }
}

@compute @workgroup_size(64)
fn matvec(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let r = group_index(wid) * MV_ROWS + lid / MV_LANES;
    let lane = lid % MV_LANES;
    var first = 0u;
    var n = s.n;
    if ((p.flags & FLAG_LOGITS) != 0u) {
        first = s.first;
        n = s.rows;
    }
    n = min(n, MV);
    // RMSNorm's scale of each input row, by the whole workgroup (uniform control flow: the flag
    // is the same for every thread): each thread sums every 64th square, one thread a token the
    // 64 sums.
    if ((p.flags & FLAG_NORM) != 0u) {
        for (var t = 0u; t < MV; t++) {
            var sq = 0.0;
            if (t < n) {
                let row = (first + t) * p.in_stride;
                for (var k = lid; k < p.cols; k += 64u) {
                    let v = x[row + k];
                    sq += v * v;
                }
            }
            red[lid][t] = sq;
        }
        workgroupBarrier();
        if (lid < MV) {
            var sum = 0.0;
            for (var i = 0u; i < 64u; i++) { sum += red[i][lid]; }
            inv_rms[lid] = 1.0 / sqrt(sum / f32(p.cols) + p.eps);
        }
        workgroupBarrier();
    }
    var acc: array<f32, 8>;
    if (r < p.rows) {
        for (var k = lane * 8u; k < p.cols; k += 8u * MV_LANES) {
            let wv = load_w8(r, k);
            let live = min(8u, p.cols - k);
            for (var t = 0u; t < n; t++) {
                let row = (first + t) * p.in_stride;
                var dot = 0.0;
                for (var i = 0u; i < live; i++) {
                    var v = x[row + k + i];
                    if ((p.flags & FLAG_SILU) != 0u) {
                        v = v / (1.0 + exp(-v)) * x[row + p.ff + k + i];
                    }
                    if ((p.flags & FLAG_NORM) != 0u) {
                        v = v * inv_rms[t] * gains[k + i];
                    }
                    dot += wv[i] * v;
                }
                acc[t] += dot;
            }
        }
    }
    // Norm's partial sums are read: the row's partial sums may take their place.
    workgroupBarrier();
    for (var t = 0u; t < MV; t++) { red[lid][t] = acc[t]; }
    workgroupBarrier();
    if (r < p.rows && lane == 0u) {
        for (var t = 0u; t < n; t++) {
            var v = 0.0;
            for (var i = 0u; i < MV_LANES; i++) { v += red[lid + i][t]; }
            if ((p.flags & FLAG_BIAS) != 0u) { v += bias[p.out_offset + r]; }
            store(t * p.out_stride + p.out_offset + r, v);
        }
    }
}

@compute @workgroup_size(256)
fn tiled(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let o0 = wid.x * 64u;
    let t0 = wid.y * 64u;
    let tx = lid % 16u;
    let ty = lid / 16u;
    // What this thread loads each step: 8 inputs of one row of the tile.
    let lr = lid / 4u;
    let lk = (lid % 4u) * 8u;
    var acc: array<vec4<f32>, 4>;
    for (var k0 = 0u; k0 < p.cols; k0 += 32u) {
        let k = k0 + lk;
        var wv: array<f32, 8>;
        if (o0 + lr < p.rows && k < p.cols) { wv = load_w8(o0 + lr, k); }
        let t = t0 + lr;
        for (var i = 0u; i < 8u; i++) {
            var a = 0.0;
            if (t < s.n && k + i < p.cols) { a = x[t * p.in_stride + k + i]; }
            // Past the row's end a load reads the next row's words: no part of the product.
            var w = wv[i];
            if (k + i >= p.cols) { w = 0.0; }
            tile_put(lk + i, lr, a, w);
        }
        workgroupBarrier();
        tile_accumulate(ty, tx, &acc);
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        let t = t0 + ty * 4u + i;
        for (var j = 0u; j < 4u; j++) {
            let o = o0 + tx * 4u + j;
            if (t < s.n && o < p.rows) {
                var v = acc[i][j];
                if ((p.flags & FLAG_BIAS) != 0u) { v += bias[p.out_offset + o]; }
                store(t * p.out_stride + p.out_offset + o, v);
            }
        }
    }
}
