// The decoder's other kernels, each the twin of a function of `skillpg_decoder::model`:
// `rms_norm` (rms_norm_into), `rope` (Decoder::rope, with the CPU's sines and cosines),
// `attention` (attend, with an online softmax), `silu_mul` (the SwiGLU gate) and `add_into`
// (the residual stream).

@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> c: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

var<workgroup> partial: array<f32, 64>;

// Row p.in_row + wid.x of a (p.cols wide), normalized and scaled by the gains b, into row wid.x
// of out. A workgroup a row, the sum of squares reduced in workgroup memory.
@compute @workgroup_size(64)
fn rms_norm(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let src = (p.in_row + wid.x) * p.cols;
    var s = 0.0;
    for (var i = lid.x; i < p.cols; i += 64u) {
        let v = a[src + i];
        s += v * v;
    }
    partial[lid.x] = s;
    workgroupBarrier();
    for (var stride = 32u; stride > 0u; stride >>= 1u) {
        if (lid.x < stride) { partial[lid.x] += partial[lid.x + stride]; }
        workgroupBarrier();
    }
    let inv = 1.0 / sqrt(partial[0] / f32(p.cols) + p.eps);
    let dst = wid.x * p.cols;
    for (var i = lid.x; i < p.cols; i += 64u) {
        out[dst + i] = a[src + i] * inv * b[i];
    }
}

// Rotates pair i of head h of token t of a (p.heads heads of p.head_dim) into out; b holds each
// token's cosines and sines (cos, sin for each pair), computed on the CPU as the CPU path does.
@compute @workgroup_size(64)
fn rope(@builtin(global_invocation_id) gid: vec3<u32>) {
    let half = p.head_dim / 2u;
    let idx = flat(gid);
    if (idx >= p.n * p.heads * half) { return; }
    let i = idx % half;
    let th = idx / half;
    let t = th / p.heads;
    let base = th * p.head_dim;
    var ia = base + 2u * i;
    var ib = ia + 1u;
    if (p.flag == 1u) {
        ia = base + i;
        ib = base + i + half;
    }
    let co = b[2u * (t * half + i)];
    let si = b[2u * (t * half + i) + 1u];
    let x0 = a[ia];
    let x1 = a[ib];
    out[ia] = x0 * co - x1 * si;
    out[ib] = x0 * si + x1 * co;
}

// Causal grouped-query attention: query head h of token t (a: p.n × heads · head_dim) over the
// cached keys b and values c (positions × kv_heads · head_dim) up to its position
// p.start + t, into out. An invocation a (token, head), the softmax online (one pass).
@compute @workgroup_size(64)
fn attention(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = flat(gid);
    if (idx >= p.n * p.heads) { return; }
    let t = idx / p.heads;
    let h = idx % p.heads;
    let hd = p.head_dim;
    let kv_dim = p.kv_heads * hd;
    let kvh = h / (p.heads / p.kv_heads);
    let q0 = idx * hd;
    let scale = 1.0 / sqrt(f32(hd));
    var acc: array<f32, 256>;
    for (var d = 0u; d < hd; d++) { acc[d] = 0.0; }
    var m = -3.0e38;
    var l = 0.0;
    let seen = p.start + t + 1u;
    for (var j = 0u; j < seen; j++) {
        let k0 = j * kv_dim + kvh * hd;
        var s = 0.0;
        for (var d = 0u; d < hd; d++) { s += a[q0 + d] * b[k0 + d]; }
        s *= scale;
        let m2 = max(m, s);
        let corr = exp(m - m2);
        let e = exp(s - m2);
        l = l * corr + e;
        for (var d = 0u; d < hd; d++) { acc[d] = acc[d] * corr + e * c[k0 + d]; }
        m = m2;
    }
    for (var d = 0u; d < hd; d++) { out[q0 + d] = acc[d] / l; }
}

// out = silu(a) · b, element-wise over p.cols values.
@compute @workgroup_size(64)
fn silu_mul(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = flat(gid);
    if (i >= p.cols) { return; }
    let g = a[i];
    out[i] = g / (1.0 + exp(-g)) * b[i];
}

// out += a, element-wise over p.cols values.
@compute @workgroup_size(64)
fn add_into(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = flat(gid);
    if (i >= p.cols) { return; }
    out[i] = out[i] + a[i];
}
