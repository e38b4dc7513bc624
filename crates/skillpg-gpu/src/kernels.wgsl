// all-MiniLM-L6-v2's forward pass as compute kernels. One invocation computes one output
// element (or one row); workgroups of 64; every kernel checks its bounds, so any shape works,
// multiples of 64 or not. This module stores weights in f32 (SwiftShader, the browser's CPU
// adapter, has no shader-f16); kernels_f16.wgsl is its twin with f16 weights, f32 arithmetic.

// Prefixed with common.wgsl at load time.

@group(0) @binding(2) var<storage, read> b: array<f32>;

// out[r, o] = a[r, :] · b[o, :] + c[o]   (a: x [rows, n_in], b: W [n_out, n_in], c: bias)
@compute @workgroup_size(64)
fn linear(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x + gid.y * 65535u * 64u;
    if (idx >= p.rows * p.n_out) { return; }
    let r = idx / p.n_out;
    let o = idx % p.n_out;
    var acc = 0.0;
    for (var k = 0u; k < p.n_in; k++) {
        acc += a[r * p.n_in + k] * b[o * p.n_in + k];
    }
    finish_linear(idx, o, acc);
}

// out[r, :] = LayerNorm(a[r, :] (+ b[r, :])) with gamma = c[0..n], beta = c[n..2n]
@compute @workgroup_size(64)
fn layer_norm(@builtin(global_invocation_id) gid: vec3<u32>) {
    let r = gid.x;
    if (r >= p.rows) { return; }
    let n = p.n_in;
    var mean = 0.0;
    for (var i = 0u; i < n; i++) {
        var v = a[r * n + i];
        if (p.flag == 1u) { v += b[r * n + i]; }
        mean += v;
    }
    mean /= f32(n);
    var var_sum = 0.0;
    for (var i = 0u; i < n; i++) {
        var v = a[r * n + i];
        if (p.flag == 1u) { v += b[r * n + i]; }
        var_sum += (v - mean) * (v - mean);
    }
    let inv = 1.0 / sqrt(var_sum / f32(n) + p.eps);
    for (var i = 0u; i < n; i++) {
        var v = a[r * n + i];
        if (p.flag == 1u) { v += b[r * n + i]; }
        out[r * n + i] = (v - mean) * inv * c[i] + c[n + i];
    }
}

// Self-attention without a mask. a = q, b = k, c = v, each [rows, heads * head_dim].
// One invocation per (head, query row); at most 256 rows (the tokenizer's limit).
@compute @workgroup_size(64)
fn attention(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x;
    if (idx >= p.rows * p.heads) { return; }
    let h = idx / p.rows;
    let i = idx % p.rows;
    let width = p.heads * p.head_dim;
    let scale = 1.0 / sqrt(f32(p.head_dim));
    var scores: array<f32, 256>;
    var m = -3.4e38;
    for (var j = 0u; j < p.rows; j++) {
        var s = 0.0;
        for (var d = 0u; d < p.head_dim; d++) {
            s += a[i * width + h * p.head_dim + d] * b[j * width + h * p.head_dim + d];
        }
        s *= scale;
        scores[j] = s;
        m = max(m, s);
    }
    var sum = 0.0;
    for (var j = 0u; j < p.rows; j++) {
        scores[j] = exp(scores[j] - m);
        sum += scores[j];
    }
    for (var d = 0u; d < p.head_dim; d++) {
        var acc = 0.0;
        for (var j = 0u; j < p.rows; j++) {
            acc += scores[j] * c[j * width + h * p.head_dim + d];
        }
        out[i * width + h * p.head_dim + d] = acc / sum;
    }
}

// out[pos, d] = word[ids[pos], d] + position[pos, d] + type0[d]; a = word, b = position,
// c = [type0 (n_in values), then the ids as f32 bit patterns].
@compute @workgroup_size(64)
fn embed(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x;
    let h = p.n_in;
    if (idx >= p.rows * h) { return; }
    let pos = idx / h;
    let d = idx % h;
    let id = bitcast<u32>(c[h + pos]);
    out[idx] = a[id * h + d] + b[pos * h + d] + c[d];
}

// out[0..n] = normalize(mean over rows of a[rows, n]); a single invocation.
@compute @workgroup_size(1)
fn mean_pool(@builtin(global_invocation_id) gid: vec3<u32>) {
    let n = p.n_in;
    var norm = 0.0;
    for (var d = 0u; d < n; d++) {
        var s = 0.0;
        for (var r = 0u; r < p.rows; r++) { s += a[r * n + d]; }
        s /= f32(p.rows);
        out[d] = s;
        norm += s * s;
    }
    let inv = 1.0 / max(sqrt(norm), 1e-12);
    for (var d = 0u; d < n; d++) { out[d] = out[d] * inv; }
}
