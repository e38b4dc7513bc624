//! The integer kernel of the fast CPU path: a linear layer whose weights are int8 in blocks of
//! 32 inputs (the `i8` file's Q8_0-like blocks, each `q · d`) runs on 16-bit integers.
//!
//! Activations are quantized per row and per block of 32 to i16 (scale `max|x| / 32767`: about
//! 4.6 significant digits, far finer than the weights' int8), and each block's integer dot
//! products are summed in i32 (at most 32 · 127 · 32767 < 2³¹: no overflow), then scaled by
//! the weight block's and the activation block's scales into an f32 sum.
//! Pairs of inputs are the unit: in wasm, `i32x4.dot_i16x8_s` multiplies four outputs' two
//! weights by the same two activations and adds the pairs, eight multiply-adds in one
//! instruction where f32 SIMD does four (and needs a separate add). Natively, LLVM turns the
//! portable kernel into `pmaddwd`.
//!
//! Only weights that are exactly int8 blocks take this path ([`Q8Linear::exact`]); f32 and f16
//! weights keep the f32 kernel, so `--weights f32` stays f32.

use crate::epilogue::{Epilogue, NR, write_block};
use crate::weights::Q8_BLOCK;
use skillpg_math::to_i16;

/// Pairs of inputs per block.
const PAIRS: usize = Q8_BLOCK / 2;
/// Rows per pass over a panel: 8 accumulators, 2 weight registers and a broadcast. Six rows (12
/// accumulators) measured slower in Chromium (12.9 against 10.5 ms a request): V8 spills.
const ROWS: usize = 4;

/// A linear layer's int8-block weights, widened to i16 and packed in panels of [`NR`] outputs:
/// for each panel, block and pair of inputs, the [`NR`] outputs' two weights side by side.
#[derive(Debug, Clone)]
pub struct Q8Linear {
    n_in: usize,
    n_out: usize,
    n_blocks: usize,
    /// `[panel][block][pair][output][2]`.
    q: Vec<i16>,
    /// `[panel][block][output]`: each block's scale.
    d: Vec<f32>,
    /// Zero-padded to whole panels.
    bias: Vec<f32>,
}

/// The scale and integers of a block that is exactly `q · d` with `|q| ≤ 127`, if it is one.
fn exact_block(block: &[f32]) -> Option<(f32, [i8; Q8_BLOCK])> {
    let max = block.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let mut q = [0i8; Q8_BLOCK];
    if max == 0.0 {
        return Some((0.0, q));
    }
    // The block's largest integer is 127 when its scale was max/127 exactly, 126 or so when
    // the stored f16 scale rounded up; any exact representation gives the same products.
    'scale: for n in (64..=127).rev() {
        let d = max / n as f32;
        for (v, o) in block.iter().zip(&mut q) {
            let r = (v / d).round();
            if r.abs() > 127.0 || r * d != *v {
                continue 'scale;
            }
            *o = r as i8;
        }
        return Some((d, q));
    }
    None
}

impl Q8Linear {
    /// Packs `w` (`[n_out, n_in]`) if every block of 32 inputs is exactly int8 times a scale;
    /// `None` for weights that are not (f32 and f16 files), which keep the f32 kernel.
    pub fn exact(w: &[f32], b: &[f32], n_in: usize, n_out: usize) -> Option<Q8Linear> {
        if n_in == 0 || !n_in.is_multiple_of(Q8_BLOCK) {
            return None;
        }
        let n_blocks = n_in / Q8_BLOCK;
        let n_panels = n_out.div_ceil(NR);
        let mut q = vec![0i16; n_panels * n_blocks * Q8_BLOCK * NR];
        let mut d = vec![0.0f32; n_panels * n_blocks * NR];
        for (o, row) in w.chunks_exact(n_in).take(n_out).enumerate() {
            let (p, j) = (o / NR, o % NR);
            for (bi, block) in row.chunks_exact(Q8_BLOCK).enumerate() {
                let (scale, ints) = exact_block(block)?;
                let pb = p * n_blocks + bi;
                d[pb * NR + j] = scale;
                for (k, v) in ints.iter().enumerate() {
                    q[pb * Q8_BLOCK * NR + (k / 2) * 2 * NR + j * 2 + k % 2] = i16::from(*v);
                }
            }
        }
        let mut bias = b[..n_out].to_vec();
        bias.resize(n_panels * NR, 0.0);
        Some(Q8Linear {
            n_in,
            n_out,
            n_blocks,
            q,
            d,
            bias,
        })
    }

    /// `y = epilogue(x · Wᵀ + b)` for `rows` rows; `scratch` holds the quantized activations.
    pub fn run(
        &self,
        x: &[f32],
        rows: usize,
        epilogue: Epilogue<'_>,
        y: &mut [f32],
        scratch: &mut QuantizedRows,
    ) {
        let (n_in, n_out, nb) = (self.n_in, self.n_out, self.n_blocks);
        scratch.quantize(&x[..rows * n_in], rows, n_in);
        let (pairs, scales) = (&scratch.pairs, &scratch.scales);
        let y = &mut y[..rows * n_out];
        let panel_len = nb * Q8_BLOCK * NR;
        for (pi, panel) in self.q.chunks_exact(panel_len).enumerate() {
            let o0 = pi * NR;
            let bias = &self.bias[o0..o0 + NR];
            let d = &self.d[pi * nb * NR..(pi + 1) * nb * NR];
            let row_pairs = |r: usize| &pairs[r * n_in / 2..(r + 1) * n_in / 2];
            let row_scales = |r: usize| &scales[r * nb..(r + 1) * nb];
            let mut r = 0;
            while r < rows {
                let m = (rows - r).min(ROWS);
                let mut acc = [[0.0f32; NR]; ROWS];
                let p = |i: usize| row_pairs(r + i.min(m - 1));
                let s = |i: usize| row_scales(r + i.min(m - 1));
                match m {
                    4 => panel_rows::<4>(
                        std::array::from_fn(p),
                        std::array::from_fn(s),
                        panel,
                        d,
                        &mut acc,
                    ),
                    3 => panel_rows::<3>(
                        std::array::from_fn(p),
                        std::array::from_fn(s),
                        panel,
                        d,
                        &mut acc,
                    ),
                    2 => panel_rows::<2>(
                        std::array::from_fn(p),
                        std::array::from_fn(s),
                        panel,
                        d,
                        &mut acc,
                    ),
                    _ => panel_rows::<1>(
                        std::array::from_fn(p),
                        std::array::from_fn(s),
                        panel,
                        d,
                        &mut acc,
                    ),
                }
                for (i, a) in acc.iter().take(m).enumerate() {
                    write_block(y, n_out, r + i, o0, a, bias, epilogue);
                }
                r += m;
            }
        }
    }
}

/// `M` rows against one panel, block by block: integer dot products per block, then scaled and
/// summed in f32 into `acc`.
#[inline(always)]
fn panel_rows<const M: usize>(
    pairs: [&[i32]; M],
    scales: [&[f32]; M],
    panel: &[i16],
    d: &[f32],
    acc: &mut [[f32; NR]; ROWS],
) {
    for (b, (w, db)) in panel
        .chunks_exact(Q8_BLOCK * NR)
        .zip(d.chunks_exact(NR))
        .enumerate()
    {
        let xs: [&[i32]; M] = std::array::from_fn(|r| &pairs[r][b * PAIRS..(b + 1) * PAIRS]);
        let ints = block_dot::<M>(xs, w);
        for r in 0..M {
            let s = scales[r][b];
            for j in 0..NR {
                acc[r][j] += ints[r][j] as f32 * (db[j] * s);
            }
        }
    }
}

/// One block: `M` rows' 16 input pairs against the panel's `[pair][output][2]` weights.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn block_dot<const M: usize>(xs: [&[i32]; M], w: &[i16]) -> [[i32; NR]; M] {
    let mut acc = [[0i32; NR]; M];
    for (kp, wk) in w.chunks_exact(2 * NR).enumerate() {
        for r in 0..M {
            let pair = xs[r][kp];
            let (lo, hi) = (i32::from(pair as i16), pair >> 16);
            for j in 0..NR {
                acc[r][j] += i32::from(wk[2 * j]) * lo + i32::from(wk[2 * j + 1]) * hi;
            }
        }
    }
    acc
}

/// One block in wasm SIMD: `i32x4.dot_i16x8_s` of four outputs' weight pairs and a broadcast
/// activation pair, eight multiply-adds an instruction.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block_dot<const M: usize>(xs: [&[i32]; M], w: &[i16]) -> [[i32; NR]; M] {
    use core::arch::wasm32::{i16x8, i32x4_add, i32x4_dot_i16x8, i32x4_extract_lane, i32x4_splat};
    let mut lo = [i32x4_splat(0); M];
    let mut hi = [i32x4_splat(0); M];
    for (kp, wk) in w.chunks_exact(2 * NR).enumerate() {
        let w0 = i16x8(wk[0], wk[1], wk[2], wk[3], wk[4], wk[5], wk[6], wk[7]);
        let w1 = i16x8(wk[8], wk[9], wk[10], wk[11], wk[12], wk[13], wk[14], wk[15]);
        for r in 0..M {
            let x = i32x4_splat(xs[r][kp]);
            lo[r] = i32x4_add(lo[r], i32x4_dot_i16x8(w0, x));
            hi[r] = i32x4_add(hi[r], i32x4_dot_i16x8(w1, x));
        }
    }
    std::array::from_fn(|r| {
        let (a, b) = (lo[r], hi[r]);
        [
            i32x4_extract_lane::<0>(a),
            i32x4_extract_lane::<1>(a),
            i32x4_extract_lane::<2>(a),
            i32x4_extract_lane::<3>(a),
            i32x4_extract_lane::<0>(b),
            i32x4_extract_lane::<1>(b),
            i32x4_extract_lane::<2>(b),
            i32x4_extract_lane::<3>(b),
        ]
    })
}

/// Activations quantized for [`Q8Linear::run`]: per row and block of 32, an f32 scale and 32
/// i16 values stored as 16 pairs (`lo | hi << 16`). Reused across calls.
#[derive(Debug, Default, Clone)]
pub struct QuantizedRows {
    pairs: Vec<i32>,
    scales: Vec<f32>,
}

impl QuantizedRows {
    fn quantize(&mut self, x: &[f32], rows: usize, n_in: usize) {
        let nb = n_in / Q8_BLOCK;
        if self.pairs.len() < rows * n_in / 2 {
            self.pairs.resize(rows * n_in / 2, 0);
        }
        if self.scales.len() < rows * nb {
            self.scales.resize(rows * nb, 0.0);
        }
        for (block, (pairs, scale)) in x
            .chunks_exact(Q8_BLOCK)
            .zip(
                self.pairs
                    .chunks_exact_mut(PAIRS)
                    .zip(self.scales.iter_mut()),
            )
            .take(rows * nb)
        {
            let (s, inv) = skillpg_math::i16_block_scale(block);
            *scale = s;
            for (p, two) in pairs.iter_mut().zip(block.chunks_exact(2)) {
                let (lo, hi) = (to_i16(two[0], inv), to_i16(two[1], inv));
                *p = i32::from(lo as u16) | (i32::from(hi) << 16);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(seed: u64) -> impl FnMut() -> f32 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 20_001) as f32 / 10_000.0 - 1.0
        }
    }

    /// Weights made as the `i8` file makes them: a scale per block (rounded through f16), integers.
    fn int8_weights(n_out: usize, n_in: usize, rnd: &mut impl FnMut() -> f32) -> Vec<f32> {
        use crate::weights::{DType, Tensor, Weights};
        let data: Vec<f32> = (0..n_out * n_in).map(|_| rnd() * 0.1).collect();
        let mut w = Weights::default();
        w.tensors.insert(
            "w".into(),
            Tensor {
                shape: vec![n_out, n_in],
                data,
            },
        );
        Weights::from_spgm(&w.to_spgm(DType::I8))
            .expect("round trip")
            .tensors
            .remove("w")
            .expect("w")
            .data
    }

    #[test]
    fn int8_blocks_are_recognised_and_others_are_not() {
        let mut rnd = rng(7);
        let w = int8_weights(8, 64, &mut rnd);
        assert!(
            Q8Linear::exact(&w, &[0.0; 8], 64, 8).is_some(),
            "the i8 file's blocks are exact"
        );
        let f32w: Vec<f32> = (0..8 * 64).map(|_| rnd()).collect();
        assert!(
            Q8Linear::exact(&f32w, &[0.0; 8], 64, 8).is_none(),
            "f32 weights keep the f32 kernel"
        );
        assert!(
            Q8Linear::exact(&w[..8 * 48], &[0.0; 8], 48, 8).is_none(),
            "inputs not a whole number of blocks"
        );
    }

    #[test]
    fn integer_linear_matches_the_reference() {
        let mut rnd = rng(11);
        for (rows, n_in, n_out) in [
            (1, 32, 8),
            (3, 64, 5),
            (4, 384, 16),
            (7, 384, 13),
            (15, 1536, 24),
        ] {
            let w = int8_weights(n_out, n_in, &mut rnd);
            let b: Vec<f32> = (0..n_out).map(|_| rnd()).collect();
            // Activations with an outlier dimension, as BERT's have.
            let x: Vec<f32> = (0..rows * n_in)
                .map(|i| if i % n_in == 5 { 40.0 * rnd() } else { rnd() })
                .collect();
            let res: Vec<f32> = (0..rows * n_out).map(|_| rnd()).collect();
            let want = crate::cpu::linear(&x, rows, n_in, &w, &b, n_out);
            let lin = Q8Linear::exact(&w, &b, n_in, n_out).expect("int8 blocks");
            let mut scratch = QuantizedRows::default();
            let mut got = vec![f32::NAN; rows * n_out];
            lin.run(&x, rows, Epilogue::Bias, &mut got, &mut scratch);
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 2e-4 * (1.0 + w.abs()),
                    "{rows}x{n_in}x{n_out}: {g} vs {w}"
                );
            }
            lin.run(
                &x,
                rows,
                Epilogue::BiasResidual(&res),
                &mut got,
                &mut scratch,
            );
            for ((g, w), s) in got.iter().zip(&want).zip(&res) {
                assert!(
                    (g - (w + s)).abs() <= 2e-4 * (1.0 + w.abs()),
                    "residual {rows}x{n_in}x{n_out}"
                );
            }
        }
    }
}
