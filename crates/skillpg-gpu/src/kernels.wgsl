// all-MiniLM-L6-v2's forward pass as compute kernels, over every text of a batch at once (packed
// sequences: rows of all texts stacked, attention and pooling per sequence). The linear kernel
// is tiled in workgroup memory (common.wgsl); the others compute one output element or row an
// invocation in workgroups of 64. Every kernel checks its bounds, so any shape works. This module stores weights in f32 (SwiftShader, the browser's CPU
// adapter, has no shader-f16); kernels_f16.wgsl is its twin with f16 weights, f32 arithmetic.

// Prefixed with common.wgsl at load time.

@group(0) @binding(2) var<storage, read> b: array<f32>;

// The weights as `linear_tiled` reads them (common.wgsl): f32 here.
fn load_w(i: u32) -> f32 { return b[i]; }

// out[r, o] = a[r, :] · b[o, :] + c[o]   (a: x [rows, n_in], b: W [n_out, n_in], c: bias)
@compute @workgroup_size(256)
fn linear(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    linear_tiled(lid, wid);
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

// Self-attention without a mask over packed sequences. a = [q | k | v] per row
// ([rows, 3 · heads · head_dim]); b = per row, its sequence's first row and length (u32 bit
// patterns). One invocation per (head, row); a row attends only to its own sequence, of at
// most 256 rows (the forward pass's limit).
@compute @workgroup_size(64)
fn attention(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x;
    if (idx >= p.rows * p.heads) { return; }
    let h = idx / p.rows;
    let i = idx % p.rows;
    let start = bitcast<u32>(b[2u * i]);
    let len = bitcast<u32>(b[2u * i + 1u]);
    let width = p.heads * p.head_dim;
    let stride = 3u * width;
    let qo = i * stride + h * p.head_dim;
    let ko = width + h * p.head_dim;
    let vo = 2u * width + h * p.head_dim;
    let scale = 1.0 / sqrt(f32(p.head_dim));
    var scores: array<f32, 256>;
    var m = -3.4e38;
    for (var j = 0u; j < len; j++) {
        var s = 0.0;
        for (var d = 0u; d < p.head_dim; d++) {
            s += a[qo + d] * a[(start + j) * stride + ko + d];
        }
        s *= scale;
        scores[j] = s;
        m = max(m, s);
    }
    var sum = 0.0;
    for (var j = 0u; j < len; j++) {
        scores[j] = exp(scores[j] - m);
        sum += scores[j];
    }
    for (var d = 0u; d < p.head_dim; d++) {
        var acc = 0.0;
        for (var j = 0u; j < len; j++) {
            acc += scores[j] * a[(start + j) * stride + vo + d];
        }
        out[i * width + h * p.head_dim + d] = acc / sum;
    }
}

// out[row, d] = word[id, d] + position[pos, d] + type0[d]; a = word, b = position,
// c = [type0 (n_in values), then each row's id, then each row's position, as u32 bit patterns].
@compute @workgroup_size(64)
fn embed(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x + gid.y * 65535u * 64u;
    let h = p.n_in;
    if (idx >= p.rows * h) { return; }
    let row = idx / h;
    let d = idx % h;
    let id = bitcast<u32>(c[h + row]);
    let pos = bitcast<u32>(c[h + p.rows + row]);
    out[idx] = a[id * h + d] + b[pos * h + d] + c[d];
}

// out[s, 0..n] = normalize(mean of a's rows start..start+len); b = per sequence, its first row
// and length (u32 bit patterns); p.rows = the number of sequences. One invocation a sequence.
@compute @workgroup_size(64)
fn mean_pool(@builtin(global_invocation_id) gid: vec3<u32>) {
    let sq = gid.x;
    if (sq >= p.rows) { return; }
    let start = bitcast<u32>(b[2u * sq]);
    let len = bitcast<u32>(b[2u * sq + 1u]);
    let n = p.n_in;
    var norm = 0.0;
    for (var d = 0u; d < n; d++) {
        var s = 0.0;
        for (var r = 0u; r < len; r++) { s += a[(start + r) * n + d]; }
        s /= f32(len);
        out[sq * n + d] = s;
        norm += s * s;
    }
    let inv = 1.0 / max(sqrt(norm), 1e-12);
    for (var d = 0u; d < n; d++) { out[sq * n + d] = out[sq * n + d] * inv; }
}
