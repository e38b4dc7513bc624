//! The fast CPU forward pass: the same model as `cpu.rs`, arranged for speed, and tested
//! against it (scores within 1e-4).
//!
//! - Every text of a call is batched: the linear layers run over the rows of all texts at once
//!   (attention stays per text).
//! - Weights are packed once, at construction, in panels of [`NR`] outputs: panel `p` holds, for
//!   each input `k`, the weights `W[p·NR + j][k]` side by side. The micro-kernel keeps an
//!   `MR × NR` block of outputs in registers and, for each `k`, multiplies [`NR`] contiguous
//!   weights by one broadcast activation per row: the shape LLVM turns into `f32x4` SIMD
//!   (`simd128` in wasm with the target feature `.cargo/config.toml` turns on; SSE natively).
//!   Each panel (12 KB for 384 inputs) stays in L1 while every row of the batch passes over
//!   it, so each weight is read from memory once per batch.
//! - Query, key and value are one packed matrix (one pass over the activations); bias, GELU and
//!   the residual are applied as each output block is written.
//! - With int8 weights in the page, the linear layers run on integers instead (`q8.rs`:
//!   `i32x4.dot_i16x8_s`, eight multiply-adds an instruction); see [`Kernel`].
//! - GELU and the softmax use an inlined `exp` ([`exp_nonpositive`]), not libm's call.
//! - Buffers live in a workspace that grows to the largest batch and is reused: no allocation
//!   inside a forward once it has grown.

use std::cell::RefCell;

use crate::Embedder;
use crate::cpu::{Layer, Model};
use crate::weights::{Config, LAYER_NORM_EPS};
use crate::wordpiece::WordPiece;

pub use crate::epilogue::{Epilogue, NR, exp_nonpositive, gelu};

/// Rows per micro-kernel call: 4 × 2 accumulators, 2 weight registers and a broadcast fit in
/// the 16 SIMD registers of x86-64 (and V8's wasm code on it).
const MR: usize = 4;

/// A linear layer's weights packed in panels of [`NR`] outputs, with its bias (zero-padded to a
/// whole number of panels).
#[derive(Debug, Clone)]
pub struct PackedLinear {
    n_in: usize,
    n_out: usize,
    panels: Vec<f32>,
    bias: Vec<f32>,
}

impl PackedLinear {
    /// Packs `w` (`[n_out, n_in]`, row-major as safetensors stores it) and `b`.
    pub fn new(w: &[f32], b: &[f32], n_in: usize, n_out: usize) -> PackedLinear {
        let n_panels = n_out.div_ceil(NR);
        let mut panels = vec![0.0f32; n_panels * n_in * NR];
        for (o, row) in w.chunks_exact(n_in).take(n_out).enumerate() {
            let (p, j) = (o / NR, o % NR);
            let panel = &mut panels[p * n_in * NR..(p + 1) * n_in * NR];
            for (k, &v) in row.iter().enumerate() {
                panel[k * NR + j] = v;
            }
        }
        let mut bias = b[..n_out].to_vec();
        bias.resize(n_panels * NR, 0.0);
        PackedLinear {
            n_in,
            n_out,
            panels,
            bias,
        }
    }
}

/// The `M × NR` block of `x[rows] · panel` (each `x` row cut to the panel's depth).
#[inline(always)]
fn micro_kernel<const M: usize>(xs: [&[f32]; M], panel: &[f32]) -> [[f32; NR]; M] {
    let mut acc = [[0.0f32; NR]; M];
    for (k, w) in panel.chunks_exact(NR).enumerate() {
        for r in 0..M {
            let xv = xs[r][k];
            for j in 0..NR {
                acc[r][j] += xv * w[j];
            }
        }
    }
    acc
}

/// `y = epilogue(x · Wᵀ + b)` for `rows` rows; `y` is `[rows, n_out]`.
pub fn linear_packed(
    x: &[f32],
    rows: usize,
    p: &PackedLinear,
    epilogue: Epilogue<'_>,
    y: &mut [f32],
) {
    let (n_in, n_out) = (p.n_in, p.n_out);
    let x = &x[..rows * n_in];
    let y = &mut y[..rows * n_out];
    for (pi, panel) in p.panels.chunks_exact(n_in * NR).enumerate() {
        let o0 = pi * NR;
        let bias = &p.bias[o0..o0 + NR];
        // The epilogue written out here, not through `write_block`: LLVM vectorizes it better
        // in this loop (natively 13.1 against 21.2 ms a request).
        let width = NR.min(n_out - o0);
        let mut write = |r: usize, acc: &[f32; NR]| {
            let out = &mut y[r * n_out + o0..r * n_out + o0 + width];
            match epilogue {
                Epilogue::Bias => out
                    .iter_mut()
                    .zip(acc)
                    .zip(bias)
                    .for_each(|((o, a), b)| *o = a + b),
                Epilogue::BiasGelu => out
                    .iter_mut()
                    .zip(acc)
                    .zip(bias)
                    .for_each(|((o, a), b)| *o = gelu(a + b)),
                Epilogue::BiasResidual(res) => {
                    let res = &res[r * n_out + o0..r * n_out + o0 + width];
                    out.iter_mut()
                        .zip(acc)
                        .zip(bias)
                        .zip(res)
                        .for_each(|(((o, a), b), s)| *o = a + b + s);
                }
            }
        };
        let row = |r: usize| &x[r * n_in..(r + 1) * n_in];
        let mut r = 0;
        while r + MR <= rows {
            let acc = micro_kernel::<MR>([row(r), row(r + 1), row(r + 2), row(r + 3)], panel);
            for (i, a) in acc.iter().enumerate() {
                write(r + i, a);
            }
            r += MR;
        }
        // The last one to three rows in one pass, not one pass each.
        match rows - r {
            3 => micro_kernel::<3>([row(r), row(r + 1), row(r + 2)], panel)
                .iter()
                .enumerate()
                .for_each(|(i, a)| write(r + i, a)),
            2 => micro_kernel::<2>([row(r), row(r + 1)], panel)
                .iter()
                .enumerate()
                .for_each(|(i, a)| write(r + i, a)),
            1 => write(r, &micro_kernel::<1>([row(r)], panel)[0]),
            _ => {}
        }
    }
}

/// A linear layer as the fast path runs it: on integers when its weights are int8 blocks, else
/// in f32.
#[derive(Debug, Clone)]
enum Linear {
    F32(PackedLinear),
    Q8(crate::q8::Q8Linear),
}

/// Which kernel runs the linear layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Integers where the weights are int8 blocks and the target has a SIMD integer dot
    /// product (wasm `simd128`: the page); f32 elsewhere (natively the portable integer kernel
    /// is slower than the f32 one: 22.3 against 13.5 ms a request).
    Auto,
    /// f32 always.
    F32,
    /// Integers wherever the weights are int8 blocks (the tests use it natively).
    Integer,
}

impl Linear {
    fn new(w: &[f32], b: &[f32], n_in: usize, n_out: usize, kernel: Kernel) -> Linear {
        let integers = match kernel {
            Kernel::Auto => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            Kernel::F32 => false,
            Kernel::Integer => true,
        };
        match integers
            .then(|| crate::q8::Q8Linear::exact(w, b, n_in, n_out))
            .flatten()
        {
            Some(q) => Linear::Q8(q),
            None => Linear::F32(PackedLinear::new(w, b, n_in, n_out)),
        }
    }

    fn run(
        &self,
        x: &[f32],
        rows: usize,
        epilogue: Epilogue<'_>,
        y: &mut [f32],
        scratch: &mut crate::q8::QuantizedRows,
    ) {
        match self {
            Linear::F32(p) => linear_packed(x, rows, p, epilogue, y),
            Linear::Q8(q) => q.run(x, rows, epilogue, y, scratch),
        }
    }

    /// Whether this layer runs on integers.
    fn is_q8(&self) -> bool {
        matches!(self, Linear::Q8(_))
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
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (x, y) in chunks_a.remainder().iter().zip(chunks_b.remainder()) {
        s += x * y;
    }
    s
}

/// LayerNorm of each row, in place (as `cpu::layer_norm`).
fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    crate::cpu::layer_norm(x, width, gamma, beta, LAYER_NORM_EPS);
}

/// One encoder layer, packed.
#[derive(Debug, Clone)]
struct PackedLayer {
    qkv: Linear,
    o: Linear,
    ln1: (Vec<f32>, Vec<f32>),
    up: Linear,
    down: Linear,
    ln2: (Vec<f32>, Vec<f32>),
}

impl PackedLayer {
    fn new(l: Layer, c: Config, kernel: Kernel) -> PackedLayer {
        let h = c.hidden;
        // Query, key and value stacked: one pass over the activations.
        let qkv_w: Vec<f32> = [&l.q, &l.k, &l.v]
            .iter()
            .flat_map(|p| p.0[..h * h].iter().copied())
            .collect();
        let qkv_b: Vec<f32> = [&l.q, &l.k, &l.v]
            .iter()
            .flat_map(|p| p.1[..h].iter().copied())
            .collect();
        PackedLayer {
            qkv: Linear::new(&qkv_w, &qkv_b, h, 3 * h, kernel),
            o: Linear::new(&l.o.0, &l.o.1, h, h, kernel),
            ln1: l.ln1,
            up: Linear::new(&l.up.0, &l.up.1, h, c.intermediate, kernel),
            down: Linear::new(&l.down.0, &l.down.1, c.intermediate, h, kernel),
            ln2: l.ln2,
        }
    }
}

/// Reusable buffers, sized for the largest batch seen.
#[derive(Debug, Default)]
struct Workspace {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    a: Vec<f32>,
    up: Vec<f32>,
    scores: Vec<f32>,
    quantized: crate::q8::QuantizedRows,
}

fn grow(buf: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buf.len() < len {
        buf.resize(len, 0.0);
    }
    &mut buf[..len]
}

/// The fast embedder: the reference's tokenizer and weights, packed and run batched.
#[derive(Debug)]
pub struct FastEmbedder {
    /// The tokenizer.
    pub tokenizer: WordPiece,
    /// The embedding tables (the model's layers are moved into `layers`, packed).
    embeddings: Model,
    layers: Vec<PackedLayer>,
    work: RefCell<Workspace>,
}

impl FastEmbedder {
    /// Takes the model's weights and packs its layers (the unpacked copies are dropped), with
    /// the kernel that is fastest on this target.
    pub fn new(tokenizer: WordPiece, model: Model) -> FastEmbedder {
        FastEmbedder::with_kernel(tokenizer, model, Kernel::Auto)
    }

    /// The same with a chosen kernel.
    pub fn with_kernel(tokenizer: WordPiece, mut model: Model, kernel: Kernel) -> FastEmbedder {
        let c = model.config;
        let layers = std::mem::take(&mut model.layers)
            .into_iter()
            .map(|l| PackedLayer::new(l, c, kernel))
            .collect();
        FastEmbedder {
            tokenizer,
            embeddings: model,
            layers,
            work: RefCell::new(Workspace::default()),
        }
    }

    /// Whether every linear layer runs on integers (the weights were int8 blocks).
    pub fn runs_on_integers(&self) -> bool {
        self.layers
            .iter()
            .all(|l| [&l.qkv, &l.o, &l.up, &l.down].iter().all(|x| x.is_q8()))
    }

    /// Sentence embeddings of token-id sequences, all in one batch.
    pub fn forward_batch(&self, batch: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let m = &self.embeddings;
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
                for (pos, &id) in ids.iter().enumerate() {
                    let id = (id as usize).min(c.vocab - 1);
                    let pos = pos.min(c.max_positions - 1);
                    let out = &mut x[(row + pos) * h..(row + pos + 1) * h];
                    let (w, p) = (
                        &m.word[id * h..(id + 1) * h],
                        &m.position[pos * h..(pos + 1) * h],
                    );
                    for (((o, a), b), t) in out.iter_mut().zip(w).zip(p).zip(&m.token_type0) {
                        *o = a + b + t;
                    }
                }
                row += ids.len();
            }
            layer_norm(x, h, &m.ln.0, &m.ln.1);
        }
        for l in &self.layers {
            l.qkv.run(
                &ws.x,
                rows,
                Epilogue::Bias,
                grow(&mut ws.qkv, rows * 3 * h),
                &mut ws.quantized,
            );
            // Attention, text by text (no mask within a text; none across texts). Row `i` of
            // `qkv` is `[q | k | v]`.
            {
                let ctx = grow(&mut ws.ctx, rows * h);
                ctx.fill(0.0);
                let max_seq = batch.iter().map(Vec::len).max().unwrap_or(0);
                let scores = grow(&mut ws.scores, max_seq);
                let qkv = &ws.qkv[..rows * 3 * h];
                let scale = 1.0 / (hd as f32).sqrt();
                let mut start = 0;
                for ids in batch {
                    let seq = ids.len();
                    for head in 0..heads {
                        let off = head * hd;
                        let part = |row: usize, which: usize| {
                            &qkv[row * 3 * h + which * h + off..row * 3 * h + which * h + off + hd]
                        };
                        for i in 0..seq {
                            let qi = part(start + i, 0);
                            let mut max = f32::NEG_INFINITY;
                            for (j, score) in scores[..seq].iter_mut().enumerate() {
                                *score = dot(qi, part(start + j, 1)) * scale;
                                max = max.max(*score);
                            }
                            let mut sum = 0.0;
                            for s in scores[..seq].iter_mut() {
                                *s = exp_nonpositive(*s - max);
                                sum += *s;
                            }
                            let inv = 1.0 / sum;
                            let o = &mut ctx[(start + i) * h + off..(start + i) * h + off + hd];
                            for (j, score) in scores[..seq].iter().enumerate() {
                                let p = score * inv;
                                for (od, vd) in o.iter_mut().zip(part(start + j, 2)) {
                                    *od += p * vd;
                                }
                            }
                        }
                    }
                    start += seq;
                }
            }
            // Output projection plus the residual, then LayerNorm.
            let a = grow(&mut ws.a, rows * h);
            l.o.run(
                &ws.ctx,
                rows,
                Epilogue::BiasResidual(&ws.x[..rows * h]),
                a,
                &mut ws.quantized,
            );
            layer_norm(a, h, &l.ln1.0, &l.ln1.1);
            // Feed-forward: bias and GELU fused into the up projection, the residual into the
            // down projection; LayerNorm; back into x.
            l.up.run(
                &ws.a,
                rows,
                Epilogue::BiasGelu,
                grow(&mut ws.up, rows * c.intermediate),
                &mut ws.quantized,
            );
            let x = grow(&mut ws.x, rows * h);
            l.down.run(
                &ws.up,
                rows,
                Epilogue::BiasResidual(&ws.a[..rows * h]),
                x,
                &mut ws.quantized,
            );
            layer_norm(x, h, &l.ln2.0, &l.ln2.1);
        }
        let mut res = Vec::with_capacity(batch.len());
        let mut start = 0;
        for ids in batch {
            res.push(if ids.is_empty() {
                vec![0.0; h]
            } else {
                crate::cpu::mean_pool_normalize(
                    &ws.x[start * h..(start + ids.len()) * h],
                    ids.len(),
                    h,
                )
            });
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
    fn f32_gelu_matches_the_reference() {
        let mut worst = 0.0f32;
        for i in -12_000..=12_000 {
            let v = i as f32 / 1000.0;
            let mut want = [v];
            crate::cpu::gelu(&mut want);
            worst = worst.max((gelu(v) - want[0]).abs() / (1.0 + want[0].abs()));
        }
        assert!(worst <= 1e-6, "worst relative difference {worst:e}");
    }

    #[test]
    fn packed_linear_matches_the_reference_at_odd_shapes() {
        let mut x_state: u64 = 0x1234_5678;
        let mut rnd = move || {
            x_state ^= x_state << 13;
            x_state ^= x_state >> 7;
            x_state ^= x_state << 17;
            (x_state % 2000) as f32 / 1000.0 - 1.0
        };
        for (rows, n_in, n_out) in [
            (1, 1, 1),
            (3, 7, 5),
            (4, 8, 3),
            (5, 17, 9),
            (9, 384, 13),
            (2, 1536, 4),
            (8, 16, 16),
        ] {
            let x: Vec<f32> = (0..rows * n_in).map(|_| rnd()).collect();
            let w: Vec<f32> = (0..n_out * n_in).map(|_| rnd()).collect();
            let b: Vec<f32> = (0..n_out).map(|_| rnd()).collect();
            let res: Vec<f32> = (0..rows * n_out).map(|_| rnd()).collect();
            let want = crate::cpu::linear(&x, rows, n_in, &w, &b, n_out);
            let p = PackedLinear::new(&w, &b, n_in, n_out);
            let close = |g: f32, w: f32| (g - w).abs() <= 1e-4 * (1.0 + w.abs());
            let mut got = vec![f32::NAN; rows * n_out];
            linear_packed(&x, rows, &p, Epilogue::Bias, &mut got);
            for (g, w) in got.iter().zip(&want) {
                assert!(close(*g, *w), "{rows}x{n_in}x{n_out}: {g} vs {w}");
            }
            linear_packed(&x, rows, &p, Epilogue::BiasResidual(&res), &mut got);
            for ((g, w), s) in got.iter().zip(&want).zip(&res) {
                assert!(
                    close(*g, w + s),
                    "residual {rows}x{n_in}x{n_out}: {g} vs {}",
                    w + s
                );
            }
            linear_packed(&x, rows, &p, Epilogue::BiasGelu, &mut got);
            let mut gelu_want = want.clone();
            crate::cpu::gelu(&mut gelu_want);
            for (g, w) in got.iter().zip(&gelu_want) {
                assert!(close(*g, *w), "gelu {rows}x{n_in}x{n_out}: {g} vs {w}");
            }
        }
    }
}
