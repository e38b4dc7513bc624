//! A prompt's products with AVX-512 (pulp's `V4`: AVX-512 F, BW, CD, DQ, VL): two inputs a
//! 512-bit vector, so that one `vpmaddwd` does 32 multiply-adds where AVX2's does 16.
//!
//! The bits are [`super::super::dot_scalar`]'s, as every kernel's: lanes 0–7 of a vector are the
//! first input's eight lanes and lanes 8–15 the second's, each summing its blocks in order, so a
//! lane does exactly what the AVX2 kernel's lane does. For that the inputs are laid out two by two
//! ([`Pairs`]), and each weight block's halves are broadcast to both 256-bit halves.
//!
//! Only a prompt's products run here (its rows unpacked once for all its inputs, in tiles:
//! [`super::super::prompt`]); a token's reads its blocks as stored with AVX2, which is bound by
//! memory, not by multiplies.

use super::super::kinds::Unpacked;
use super::super::prompt::{PromptDots, tiled};
use super::super::{BLOCK, QuantizedActs};
use super::{Blocks, Product, dots1, finish};
use pulp::NullaryFnOnce;
use pulp::x86::V4;
use std::arch::x86_64::{__m256i, __m512, __m512i};

/// Inputs two by two: for pair `p` and block `b`, 64 values (the first input's first half, the
/// second's first half, the first's second half, the second's second half) and sixteen scales
/// (the first input's block scale eight times, then the second's). The inputs past the last
/// group of eight are left to the AVX2 kernel.
struct Pairs {
    x: Vec<i16>,
    d: Vec<f32>,
}

impl Pairs {
    /// The pairs of `acts`'s inputs of `blocks` blocks, in every whole group of eight inputs.
    fn of(acts: &QuantizedActs, blocks: usize) -> Pairs {
        let cols = blocks * BLOCK;
        let pairs = acts.d.len() / blocks / 8 * 4;
        let mut x = Vec::with_capacity(pairs * 2 * cols);
        let mut d = Vec::with_capacity(pairs * blocks * 16);
        for p in 0..pairs {
            let (first, second) = (
                &acts.q[2 * p * cols..(2 * p + 1) * cols],
                &acts.q[(2 * p + 1) * cols..(2 * p + 2) * cols],
            );
            let (d_first, d_second) = (
                &acts.d[2 * p * blocks..(2 * p + 1) * blocks],
                &acts.d[(2 * p + 1) * blocks..(2 * p + 2) * blocks],
            );
            for b in 0..blocks {
                let at = b * BLOCK;
                x.extend_from_slice(&first[at..at + 16]);
                x.extend_from_slice(&second[at..at + 16]);
                x.extend_from_slice(&first[at + 16..at + 32]);
                x.extend_from_slice(&second[at + 16..at + 32]);
                d.extend_from_slice(&[d_first[b]; 8]);
                d.extend_from_slice(&[d_second[b]; 8]);
            }
        }
        Pairs { x, d }
    }

    /// Pair `p`'s values and scales.
    fn pair(&self, p: usize, blocks: usize) -> (&[i16], &[f32]) {
        (
            &self.x[p * blocks * 64..(p + 1) * blocks * 64],
            &self.d[p * blocks * 16..(p + 1) * blocks * 16],
        )
    }
}

#[inline(always)]
fn shorts32(b: &[i16]) -> __m512i {
    let a: [i16; 32] = b[..32].try_into().unwrap_or([0; 32]);
    pulp::cast(a)
}

#[inline(always)]
fn floats16(b: &[f32]) -> __m512 {
    let a: [f32; 16] = b[..16].try_into().unwrap_or([0.0; 16]);
    pulp::cast(a)
}

/// One block of a pair of inputs added into the pair's sixteen lanes: `x` is the pair's 64
/// values, `d` its sixteen scales; `wl`, `wh` a weight block's halves in both 256-bit halves,
/// `sl`, `sh` their scales in every lane. The operations of [`super::step`], lane for lane.
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "a block's weights and scales, the pair's block and scales"
)]
fn pair_step<B: Blocks>(
    simd: V4,
    acc: __m512,
    wl: __m512i,
    wh: __m512i,
    sl: __m512,
    sh: __m512,
    x: &[i16],
    d: &[f32],
) -> __m512 {
    let (f, bw) = (simd.avx512f, simd.avx512bw);
    let (pl, ph) = (
        bw._mm512_madd_epi16(wl, shorts32(x)),
        bw._mm512_madd_epi16(wh, shorts32(&x[32..])),
    );
    let d = floats16(d);
    let v = if B::HALVES_APART {
        f._mm512_add_ps(
            f._mm512_mul_ps(f._mm512_cvtepi32_ps(pl), f._mm512_mul_ps(sl, d)),
            f._mm512_mul_ps(f._mm512_cvtepi32_ps(ph), f._mm512_mul_ps(sh, d)),
        )
    } else {
        f._mm512_mul_ps(
            f._mm512_cvtepi32_ps(f._mm512_add_epi32(pl, ph)),
            f._mm512_mul_ps(sl, d),
        )
    };
    f._mm512_add_ps(acc, v)
}

/// Block `b` of `row`: its halves, each in both 256-bit halves, and their scales in every lane.
#[inline(always)]
fn weights<B: Blocks>(simd: V4, row: &B, b: usize) -> (__m512i, __m512i, __m512, __m512) {
    let f = simd.avx512f;
    let (wl, wh): (__m256i, __m256i) = row.weights(*simd, b);
    let (slo, shi) = row.scales(b);
    (
        f._mm512_broadcast_i64x4(wl),
        f._mm512_broadcast_i64x4(wh),
        f._mm512_set1_ps(slo),
        f._mm512_set1_ps(shi),
    )
}

/// A pair's sixteen lanes as two inputs' products: `out[t * width]` and `out[(t + 1) * width]`
/// (`minima`: the two inputs' minima sums, where the prompt's tile has them).
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "the row, the pair's lanes, and where they go"
)]
fn finish_pair<B: Blocks>(
    simd: V4,
    row: &B,
    acc: __m512,
    blocks: usize,
    acts: &QuantizedActs,
    t: usize,
    out: &mut [f32],
    width: usize,
    minima: Option<[f32; 2]>,
) {
    let first = simd.avx512f._mm512_castps512_ps256(acc);
    let second = simd.avx512dq._mm512_extractf32x8_ps::<1>(acc);
    out[t * width] = finish(*simd, row, first, blocks, acts, t, minima.map(|m| m[0]));
    out[(t + 1) * width] = finish(
        *simd,
        row,
        second,
        blocks,
        acts,
        t + 1,
        minima.map(|m| m[1]),
    );
}

/// Row `row` times pairs `p..p + 4` (eight inputs), sharing each block's weights and keeping
/// four chains of additions in flight (named, not an array, so that they stay in registers).
#[inline(always)]
#[allow(
    clippy::too_many_arguments,
    reason = "the row, the pairs, and where the products go"
)]
fn dots_pairs4<B: Blocks>(
    simd: V4,
    row: &B,
    blocks: usize,
    pairs: &Pairs,
    p: usize,
    acts: &QuantizedActs,
    out: &mut [f32],
    width: usize,
    minima: Option<&[f32]>,
) {
    // Each pair's blocks as an iterator: no index to check in the loop.
    let pair = |k: usize| {
        let (x, d) = pairs.pair(p + k, blocks);
        x.chunks_exact(64).zip(d.chunks_exact(16))
    };
    let zero = simd.avx512f._mm512_setzero_ps();
    let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
    for (b, ((((x0, d0), (x1, d1)), (x2, d2)), (x3, d3))) in
        pair(0).zip(pair(1)).zip(pair(2)).zip(pair(3)).enumerate()
    {
        let (wl, wh, sl, sh) = weights(simd, row, b);
        a0 = pair_step::<B>(simd, a0, wl, wh, sl, sh, x0, d0);
        a1 = pair_step::<B>(simd, a1, wl, wh, sl, sh, x1, d1);
        a2 = pair_step::<B>(simd, a2, wl, wh, sl, sh, x2, d2);
        a3 = pair_step::<B>(simd, a3, wl, wh, sl, sh, x3, d3);
    }
    for (k, a) in [a0, a1, a2, a3].into_iter().enumerate() {
        finish_pair(
            simd,
            row,
            a,
            blocks,
            acts,
            2 * (p + k),
            out,
            width,
            minima.map(|m| [m[2 * k], m[2 * k + 1]]),
        );
    }
}

/// A prompt's products on AVX-512: eight inputs (four pairs) at a time, then one at a time
/// with AVX2 ([`super::super::prompt::tiled`]).
struct Prompt<'a> {
    simd: V4,
    blocks: usize,
    pairs: &'a Pairs,
    acts: &'a QuantizedActs,
    width: usize,
}

impl PromptDots for Prompt<'_> {
    const GROUP: usize = 8;
    #[inline(always)]
    fn group<const MIN: bool, const APART: bool>(
        &self,
        row: &Unpacked<'_, MIN, APART>,
        t: usize,
        out: &mut [f32],
        minima: Option<&[f32]>,
    ) {
        dots_pairs4(
            self.simd,
            row,
            self.blocks,
            self.pairs,
            t / 2,
            self.acts,
            out,
            self.width,
            minima,
        );
    }
    #[inline(always)]
    fn one<const MIN: bool, const APART: bool>(
        &self,
        row: &Unpacked<'_, MIN, APART>,
        t: usize,
        out: &mut [f32],
        minima: Option<&[f32]>,
    ) {
        dots1(
            *self.simd,
            row,
            self.blocks,
            self.acts,
            t,
            out,
            self.width,
            minima,
        );
    }
}

/// Rows times a prompt's inputs on AVX-512, each row unpacked once for all of them.
pub(in crate::qdot) struct Avx512Rows<'a>(pub V4, pub Product<'a>);

impl NullaryFnOnce for Avx512Rows<'_> {
    type Output = ();
    #[inline(always)]
    fn call(self) {
        let Avx512Rows(
            simd,
            Product {
                ty,
                bytes,
                row_bytes,
                acts,
                out,
                width,
                unpacked,
            },
        ) = self;
        let (per, size) = ty.block();
        let blocks = row_bytes / size * per / BLOCK;
        let pairs = Pairs::of(acts, blocks);
        let prompt = Prompt {
            simd,
            blocks,
            pairs: &pairs,
            acts,
            width,
        };
        tiled(&prompt, ty, bytes, row_bytes, acts, blocks, out, unpacked);
    }
}
