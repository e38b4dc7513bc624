// The decoder's other kernels, each the twin of a function of `skillpg_decoder::model` or of
// the protocol: `rms_norm` (rms_norm_into), `silu_mul` (the SwiGLU gate), `rope_kv`
// (Decoder::rope with the CPU's sines and cosines, and the cache's append), `attention`
// (attend), `argmax` and `log_probs` (the protocol's greedy step and constrained choice, on the
// device so that a step reads back a few bytes, not the logits).

@group(0) @binding(2) var<storage, read> a: array<f32>;
@group(0) @binding(3) var<storage, read> ids: array<u32>;
@group(0) @binding(4) var<storage, read> b: array<f32>;
@group(0) @binding(6) var<storage, read_write> out: array<f32>;
@group(0) @binding(7) var<storage, read_write> out2: array<f32>;

var<workgroup> red: array<f32, 256>;
var<workgroup> red_i: array<u32, 256>;

// Sums red[0..size] into red[0] (size a power of two, every thread of the workgroup calling).
fn reduce_sum(lid: u32, size: u32) {
    for (var stride = size / 2u; stride > 0u; stride >>= 1u) {
        if (lid < stride) { red[lid] += red[lid + stride]; }
        workgroupBarrier();
    }
}

// The largest of red[0..size] into red[0].
fn reduce_max(lid: u32, size: u32) {
    for (var stride = size / 2u; stride > 0u; stride >>= 1u) {
        if (lid < stride) { red[lid] = max(red[lid], red[lid + stride]); }
        workgroupBarrier();
    }
}

// Row wid of a (p.cols wide, p.in_stride apart), normalized and scaled by the gains b, into row
// wid of out. A workgroup a row, the sum of squares reduced in workgroup memory.
@compute @workgroup_size(64)
fn rms_norm(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let row = group_index(wid);
    let src = row * p.in_stride;
    var sq = 0.0;
    for (var i = lid; i < p.cols; i += 64u) {
        let v = a[src + i];
        sq += v * v;
    }
    red[lid] = sq;
    workgroupBarrier();
    reduce_sum(lid, 64u);
    let inv = 1.0 / sqrt(red[0] / f32(p.cols) + p.eps);
    let dst = row * p.cols;
    for (var i = lid; i < p.cols; i += 64u) {
        out[dst + i] = a[src + i] * inv * b[i];
    }
}

// out[t][i] = silu(a[t][i]) · a[t][ff + i]: the SwiGLU gate of the fused [gate | up] product.
@compute @workgroup_size(64)
fn silu_mul(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.y * 65535u * 64u + gid.x;
    if (idx >= s.n * p.ff) { return; }
    let t = idx / p.ff;
    let i = idx % p.ff;
    let g = a[t * 2u * p.ff + i];
    out[idx] = g / (1.0 + exp(-g)) * a[t * 2u * p.ff + p.ff + i];
}

// Rotates the queries and keys of the fused [q | k | v] product a (p.in_stride a token) by the
// table b (each token's cos and sin for every pair), the queries into out2 (n × heads ·
// head_dim), the keys into the cache out at positions s.start.., and copies the values after
// them (out holds capacity keys, then capacity values). An invocation a rotated pair or a value.
@compute @workgroup_size(64)
fn rope_kv(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.y * 65535u * 64u + gid.x;
    let half = p.head_dim / 2u;
    let kv_dim = p.kv_heads * p.head_dim;
    let dim = p.heads * p.head_dim;
    let q_pairs = s.n * p.heads * half;
    let k_pairs = s.n * p.kv_heads * half;
    if (idx < q_pairs + k_pairs) {
        let is_key = idx >= q_pairs;
        let local = select(idx, idx - q_pairs, is_key);
        let heads = select(p.heads, p.kv_heads, is_key);
        let i = local % half;
        let th = local / half;
        let t = th / heads;
        let h = th % heads;
        var ia = h * p.head_dim + 2u * i;
        var ib = ia + 1u;
        if ((p.flags & FLAG_HALVES) != 0u) {
            ia = h * p.head_dim + i;
            ib = ia + half;
        }
        let src = t * p.in_stride + select(0u, dim, is_key);
        let co = b[2u * (t * half + i)];
        let si = b[2u * (t * half + i) + 1u];
        let x0 = a[src + ia];
        let x1 = a[src + ib];
        if (is_key) {
            let to = (s.start + t) * kv_dim;
            out[to + ia] = x0 * co - x1 * si;
            out[to + ib] = x0 * si + x1 * co;
        } else {
            out2[t * dim + ia] = x0 * co - x1 * si;
            out2[t * dim + ib] = x0 * si + x1 * co;
        }
        return;
    }
    let v = idx - q_pairs - k_pairs;
    if (v >= s.n * kv_dim) { return; }
    let t = v / kv_dim;
    let c = v % kv_dim;
    out[(p.capacity + s.start + t) * kv_dim + c] = a[t * p.in_stride + dim + kv_dim + c];
}

const CHUNK: u32 = 512u;
var<workgroup> scores: array<f32, 512>;

// Causal grouped-query attention of query head h of token t (a: n × heads · head_dim) over the
// cache b (capacity keys, then capacity values, kv_heads · head_dim a position) up to position
// s.start + t, into out. A workgroup a (token, head): its 64 threads score the positions of a
// chunk, the chunk's maximum and sum are reduced in workgroup memory, then each thread sums
// the values of its own dimensions; chunk by chunk, with an online softmax between them.
@compute @workgroup_size(64)
fn attention(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let idx = group_index(wid);
    let t = idx / p.heads;
    let h = idx % p.heads;
    let hd = p.head_dim;
    let kv_dim = p.kv_heads * hd;
    let kvh = h / (p.heads / p.kv_heads);
    let q0 = idx * hd;
    let scale = 1.0 / sqrt(f32(hd));
    let seen = s.start + t + 1u;
    let values = p.capacity * kv_dim;
    var m = -3.0e38;
    var l = 0.0;
    var acc: array<f32, 4>;
    for (var c0 = 0u; c0 < seen; c0 += CHUNK) {
        let len = min(CHUNK, seen - c0);
        var local_max = -3.0e38;
        for (var j = lid; j < len; j += 64u) {
            let k0 = (c0 + j) * kv_dim + kvh * hd;
            var dot = 0.0;
            for (var d = 0u; d < hd; d++) { dot += a[q0 + d] * b[k0 + d]; }
            let sc = dot * scale;
            scores[j] = sc;
            local_max = max(local_max, sc);
        }
        red[lid] = local_max;
        workgroupBarrier();
        reduce_max(lid, 64u);
        let m2 = max(m, red[0]);
        workgroupBarrier();
        var local_sum = 0.0;
        for (var j = lid; j < len; j += 64u) {
            let e = exp(scores[j] - m2);
            scores[j] = e;
            local_sum += e;
        }
        red[lid] = local_sum;
        workgroupBarrier();
        reduce_sum(lid, 64u);
        let corr = exp(m - m2);
        l = l * corr + red[0];
        for (var i = 0u; i < 4u; i++) {
            acc[i] *= corr;
            let d = lid + 64u * i;
            if (d < hd) {
                var sum = 0.0;
                for (var j = 0u; j < len; j++) { sum += scores[j] * b[values + (c0 + j) * kv_dim + kvh * hd + d]; }
                acc[i] += sum;
            }
        }
        m = m2;
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        let d = lid + 64u * i;
        if (d < hd) { out[q0 + d] = acc[i] / l; }
    }
}

// The index of the largest of the p.cols logits in a's last wanted row (s.rows - 1), the highest
// index among equals as the CPU's `max_by` takes it, into out[0] (its bits) and its value into
// out[1]. One workgroup of 256.
@compute @workgroup_size(256)
fn argmax(@builtin(local_invocation_index) lid: u32) {
    let row = (s.rows - 1u) * p.cols;
    var best = -3.4e38;
    var best_i = 0u;
    for (var i = lid; i < p.cols; i += 256u) {
        let v = a[row + i];
        if (v >= best) {
            best = v;
            best_i = i;
        }
    }
    red[lid] = best;
    red_i[lid] = best_i;
    workgroupBarrier();
    for (var stride = 128u; stride > 0u; stride >>= 1u) {
        if (lid < stride) {
            let o = lid + stride;
            if (red[o] > red[lid] || (red[o] == red[lid] && red_i[o] > red_i[lid])) {
                red[lid] = red[o];
                red_i[lid] = red_i[o];
            }
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        out[0] = bitcast<f32>(red_i[0]);
        out[1] = red[0];
    }
}

// log_softmax of logits row ids[2g] of a (p.cols a row) at id ids[2g + 1], into out[g]: a
// workgroup a wanted (row, id), the maximum and the sum of exponentials reduced in it.
@compute @workgroup_size(256)
fn log_probs(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let g = group_index(wid);
    let row = ids[2u * g] * p.cols;
    var mx = -3.4e38;
    for (var i = lid; i < p.cols; i += 256u) { mx = max(mx, a[row + i]); }
    red[lid] = mx;
    workgroupBarrier();
    reduce_max(lid, 256u);
    let top = red[0];
    workgroupBarrier();
    var sum = 0.0;
    for (var i = lid; i < p.cols; i += 256u) { sum += exp(a[row + i] - top); }
    red[lid] = sum;
    workgroupBarrier();
    reduce_sum(lid, 256u);
    if (lid == 0u) {
        let id = ids[2u * g + 1u];
        var v = -3.4e38;
        if (id < p.cols) { v = a[row + id] - top - log(red[0]); }
        out[g] = v;
    }
}
