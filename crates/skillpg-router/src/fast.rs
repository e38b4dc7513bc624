//! The fast CPU forward pass: the same model as `cpu.rs`, arranged for speed, and tested
//! against it (scores within 1e-4).
//!
//! - Every text of a call is batched: the linear layers run over the rows of all texts at once,
//!   so each weight row is read once per batch, not once per token (attention stays per text).
//! - The matrix multiply keeps eight independent lanes per dot product and four rows per weight
//!   row, a shape LLVM turns into SIMD (SSE/AVX natively, `simd128` in wasm with the target
//!   feature `.cargo/config.toml` turns on).
//! - Buffers live in a workspace that grows to the largest batch and is reused: no allocation
//!   inside a forward once it has grown.

use std::cell::RefCell;

use crate::Embedder;
use crate::cpu::{Model, erf};
use crate::weights::LAYER_NORM_EPS;
use crate::wordpiece::WordPiece;

/// `y[r][o] = x[r] · w[o] + b[o]` for `rows` rows of width `n_in`; `w` is `[n_out, n_in]`.
/// Four rows share each pass over a weight row; each dot product runs in eight lanes.
pub fn linear_into(x: &[f32], rows: usize, n_in: usize, w: &[f32], b: &[f32], n_out: usize, y: &mut [f32]) {
    const LANES: usize = 8;
    let body = n_in - n_in % LANES;
    for (o, wr) in w.chunks_exact(n_in).take(n_out).enumerate() {
        let bias = b[o];
        let mut r = 0;
        while r + 4 <= rows {
            let x0 = &x[r * n_in..(r + 1) * n_in];
            let x1 = &x[(r + 1) * n_in..(r + 2) * n_in];
            let x2 = &x[(r + 2) * n_in..(r + 3) * n_in];
            let x3 = &x[(r + 3) * n_in..(r + 4) * n_in];
            let mut acc = [[0.0f32; LANES]; 4];
            let mut k = 0;
            while k < body {
                let wk = &wr[k..k + LANES];
                for l in 0..LANES {
                    acc[0][l] += x0[k + l] * wk[l];
                    acc[1][l] += x1[k + l] * wk[l];
                    acc[2][l] += x2[k + l] * wk[l];
                    acc[3][l] += x3[k + l] * wk[l];
                }
                k += LANES;
            }
            for (i, xi) in [x0, x1, x2, x3].into_iter().enumerate() {
                let mut s = reduce(&acc[i]);
                for k in body..n_in {
                    s += xi[k] * wr[k];
                }
                y[(r + i) * n_out + o] = s + bias;
            }
            r += 4;
        }
        while r < rows {
            let xr = &x[r * n_in..(r + 1) * n_in];
            y[r * n_out + o] = dot(xr, wr) + bias;
            r += 1;
        }
    }
}

/// A dot product in eight lanes.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut acc = [0.0f32; LANES];
    let mut chunks_a = a.chunks_exact(LANES);
    let mut chunks_b = b.chunks_exact(LANES);
    for (ca, cb) in (&mut chunks_a).zip(&mut chunks_b) {
        for l in 0..LANES {
            acc[l] += ca[l] * cb[l];
        }
    }
    let mut s = reduce(&acc);
    for (x, y) in chunks_a.remainder().iter().zip(chunks_b.remainder()) {
        s += x * y;
    }
    s
}

fn reduce(acc: &[f32; 8]) -> f32 {
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
}

/// LayerNorm of each row, in place (as `cpu::layer_norm`).
fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    crate::cpu::layer_norm(x, width, gamma, beta, LAYER_NORM_EPS);
}

/// Reusable buffers, sized for the largest batch seen.
#[derive(Debug, Default)]
struct Workspace {
    x: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    ctx: Vec<f32>,
    a: Vec<f32>,
    up: Vec<f32>,
    scores: Vec<f32>,
}

fn grow(buf: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buf.len() < len {
        buf.resize(len, 0.0);
    }
    &mut buf[..len]
}

/// The fast embedder: the CPU reference's model and tokenizer, run batched.
#[derive(Debug)]
pub struct FastEmbedder {
    pub tokenizer: WordPiece,
    pub model: Model,
    work: RefCell<Workspace>,
}

impl FastEmbedder {
    pub fn new(tokenizer: WordPiece, model: Model) -> FastEmbedder {
        FastEmbedder { tokenizer, model, work: RefCell::new(Workspace::default()) }
    }

    /// Sentence embeddings of token-id sequences, all in one batch.
    pub fn forward_batch(&self, batch: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let m = &self.model;
        let c = m.config;
        let h = c.hidden;
        let heads = c.heads;
        let hd = h / heads;
        let rows: usize = batch.iter().map(Vec::len).sum();
        if rows == 0 {
            return batch.iter().map(|_| vec![0.0; h]).collect();
        }
        let mut guard = self.work.borrow_mut();
        let ws = &mut *guard;
        // Embeddings of every token of every text, stacked.
        {
            let x = grow(&mut ws.x, rows * h);
            let mut row = 0;
            for ids in batch {
                let e = m.embed_ids(ids);
                x[row * h..(row + ids.len()) * h].copy_from_slice(&e);
                row += ids.len();
            }
        }
        for l in &m.layers {
            let x = &ws.x[..rows * h];
            linear_into(x, rows, h, &l.q.0, &l.q.1, h, grow(&mut ws.q, rows * h));
            linear_into(x, rows, h, &l.k.0, &l.k.1, h, grow(&mut ws.k, rows * h));
            linear_into(x, rows, h, &l.v.0, &l.v.1, h, grow(&mut ws.v, rows * h));
            // Attention, text by text (no mask within a text; none across texts).
            {
                let ctx = grow(&mut ws.ctx, rows * h);
                ctx.fill(0.0);
                let max_seq = batch.iter().map(Vec::len).max().unwrap_or(0);
                let scores = grow(&mut ws.scores, max_seq);
                let (q, k, v) = (&ws.q[..rows * h], &ws.k[..rows * h], &ws.v[..rows * h]);
                let scale = 1.0 / (hd as f32).sqrt();
                let mut start = 0;
                for ids in batch {
                    let seq = ids.len();
                    for head in 0..heads {
                        let off = head * hd;
                        for i in 0..seq {
                            let qi = &q[(start + i) * h + off..(start + i) * h + off + hd];
                            let mut max = f32::NEG_INFINITY;
                            for j in 0..seq {
                                let kj = &k[(start + j) * h + off..(start + j) * h + off + hd];
                                let s = dot(qi, kj) * scale;
                                scores[j] = s;
                                max = max.max(s);
                            }
                            let mut sum = 0.0;
                            for s in scores[..seq].iter_mut() {
                                *s = (*s - max).exp();
                                sum += *s;
                            }
                            let inv = 1.0 / sum;
                            let o = &mut ctx[(start + i) * h + off..(start + i) * h + off + hd];
                            for j in 0..seq {
                                let p = scores[j] * inv;
                                let vj = &v[(start + j) * h + off..(start + j) * h + off + hd];
                                for (od, vd) in o.iter_mut().zip(vj) {
                                    *od += p * vd;
                                }
                            }
                        }
                    }
                    start += seq;
                }
            }
            // Output projection, residual, LayerNorm.
            {
                let a = grow(&mut ws.a, rows * h);
                linear_into(&ws.ctx[..rows * h], rows, h, &l.o.0, &l.o.1, h, a);
                for (ai, xi) in a.iter_mut().zip(&ws.x[..rows * h]) {
                    *ai += xi;
                }
                layer_norm(a, h, &l.ln1.0, &l.ln1.1);
            }
            // Feed-forward with the exact GELU, residual, LayerNorm, back into x.
            {
                let up = grow(&mut ws.up, rows * c.intermediate);
                linear_into(&ws.a[..rows * h], rows, h, &l.up.0, &l.up.1, c.intermediate, up);
                for u in up.iter_mut() {
                    *u = 0.5 * *u * (1.0 + erf(*u / std::f32::consts::SQRT_2));
                }
                let x = grow(&mut ws.x, rows * h);
                linear_into(&ws.up[..rows * c.intermediate], rows, c.intermediate, &l.down.0, &l.down.1, h, x);
                for (xi, ai) in x.iter_mut().zip(&ws.a[..rows * h]) {
                    *xi += ai;
                }
                layer_norm(x, h, &l.ln2.0, &l.ln2.1);
            }
        }
        let mut res = Vec::with_capacity(batch.len());
        let mut start = 0;
        for ids in batch {
            res.push(if ids.is_empty() { vec![0.0; h] } else { crate::cpu::mean_pool_normalize(&ws.x[start * h..(start + ids.len()) * h], ids.len(), h) });
            start += ids.len();
        }
        res
    }
}

impl Embedder for FastEmbedder {
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>> {
        let batch: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenizer.encode(t)).collect();
        self.forward_batch(&batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_matches_the_reference_at_odd_shapes() {
        let mut x_state: u64 = 0x1234_5678;
        let mut rnd = move || {
            x_state ^= x_state << 13;
            x_state ^= x_state >> 7;
            x_state ^= x_state << 17;
            (x_state % 2000) as f32 / 1000.0 - 1.0
        };
        for (rows, n_in, n_out) in [(1, 1, 1), (3, 7, 5), (4, 8, 3), (5, 17, 9), (9, 384, 13), (2, 1536, 4)] {
            let x: Vec<f32> = (0..rows * n_in).map(|_| rnd()).collect();
            let w: Vec<f32> = (0..n_out * n_in).map(|_| rnd()).collect();
            let b: Vec<f32> = (0..n_out).map(|_| rnd()).collect();
            let want = crate::cpu::linear(&x, rows, n_in, &w, &b, n_out);
            let mut got = vec![0.0; rows * n_out];
            linear_into(&x, rows, n_in, &w, &b, n_out, &mut got);
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-4 * (1.0 + w.abs()), "{rows}x{n_in}x{n_out}: {g} vs {w}");
            }
        }
    }
}
