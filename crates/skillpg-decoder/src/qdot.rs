//! Integer dot products of quantized weight rows with activations quantized per block of 32, as
//! llama.cpp multiplies its quantized types (`ggml_vec_dot_q4_1_q8_1` and its siblings): the
//! products are integers summed exactly in 32 bits, and only each block's sums are scaled in
//! floating point.
//!
//! A matrix product here runs in three steps:
//! 1. [`QuantizedActs::quantize`]: each input's blocks of 32 become 32 16-bit integers and a
//!    scale (`max |x| / 32767`), with the block's true sum kept for the types with a minimum
//!    (16 bits, not llama.cpp's 8: see [`QuantizedActs`]);
//! 2. a weight row's blocks are read as stored (Q4_0, Q4_1, Q8_0, for a token), or
//!    [`UnpackedRow::unpack`] turns them into 16-bit values and per-block scales (and minima),
//!    once a row whatever the number of inputs (a prompt's tokens share it);
//! 3. [`Kernel::rows`] sums each block's products exactly in eight lanes, scales each block's
//!    lanes and adds them in one fixed order ([`dot_scalar`] defines it).
//!
//! Invariants:
//! - every kernel (scalar, AVX2, wasm SIMD) returns the same bits: the integer sums are exact
//!   and the floating point is the same operations in the same order (no fused multiply-add),
//!   so a product does not depend on the CPU or on wasm;
//! - an unpacked row times its scales (plus its minimum) is [`crate::quant::dequantize_into`]'s
//!   value, bit for bit (tested for every type);
//! - sums never overflow: weights are within `[-128, 127]` and activations within
//!   `[-32767, 32767]`, so 16 products stay under 2^27.

use crate::quant::GgmlType;

/// Values a block of activations (and a weight block, or a sub-block of the K types) holds.
pub const BLOCK: usize = 32;

/// Every f16's value, by its bits.
type F16Table = [f32; 1 << 16];

/// f16 bits to f32, every value: a block's scale is one load (ggml keeps the same table where the
/// CPU has no F16C), the same on every CPU and in wasm. 256 KiB, made on first use; an array, so
/// that a lookup by 16 bits needs no bounds check.
fn f16_table() -> &'static F16Table {
    static TABLE: std::sync::LazyLock<Box<F16Table>> = std::sync::LazyLock::new(|| {
        let mut table = Box::new([0.0f32; 1 << 16]);
        for (bits, v) in (0..=u16::MAX).zip(table.iter_mut()) {
            *v = half::f16::from_bits(bits).to_f32();
        }
        table
    });
    &TABLE
}

/// The f16 at the start of `b`, through the table.
#[inline(always)]
fn f16_at(table: &F16Table, b: &[u8]) -> f32 {
    table[usize::from(u16::from_le_bytes([b[0], b[1]]))]
}

/// Whether rows of `ty` multiply through integer dot products (the quantized types); F32, F16
/// and BF16 rows are multiplied in f32.
pub fn supports(ty: GgmlType) -> bool {
    matches!(
        ty,
        GgmlType::Q8_0
            | GgmlType::Q4_0
            | GgmlType::Q4_1
            | GgmlType::Q5_0
            | GgmlType::Q5_1
            | GgmlType::Q4K
            | GgmlType::Q6K
    )
}

/// `n` inputs of `cols` values, each block of 32 as 16-bit integers and a scale.
///
/// Why 16 bits where llama.cpp quantizes activations to 8 (its `q8_0`, `q8_1`, `q8_K`): with 8
/// bits, SmolLM2's greedy answers changed at tokens whose f32 logits were 0.025 apart, and the
/// issue holds answers to the f32 arithmetic's wherever those are more than 0.01 apart. With 16
/// bits the products stay integer (`vpmaddwd`, `i32x4.dot_i16x8_s`), at about the same cost.
#[derive(Debug, Clone, Default)]
pub struct QuantizedActs {
    /// `n × cols` integers: `round(x / d)`, within `[-32767, 32767]`.
    pub q: Vec<i16>,
    /// `n × cols / 32` scales `d = max |x| / 32767` (0 for a block of zeros).
    pub d: Vec<f32>,
    /// `n × cols / 32` true sums of each block's values (what a weight's minimum multiplies).
    pub sum: Vec<f32>,
}

impl QuantizedActs {
    /// Quantizes `xs` (whole blocks of 32) into `self`, reusing its buffers. Inlined, so that
    /// under [`with_wide_vectors`] the rounding is one instruction, not a call.
    #[inline(always)]
    pub fn quantize(&mut self, xs: &[f32]) {
        let blocks = xs.len() / BLOCK;
        self.q.resize(xs.len(), 0);
        self.d.resize(blocks, 0.0);
        self.sum.resize(blocks, 0.0);
        for (((x, q), d), s) in xs
            .chunks_exact(BLOCK)
            .zip(self.q.chunks_exact_mut(BLOCK))
            .zip(&mut self.d)
            .zip(&mut self.sum)
        {
            let (scale, inv) = skillpg_math::i16_block_scale(x);
            *d = scale;
            for (q, v) in q.iter_mut().zip(x) {
                *q = skillpg_math::to_i16(*v, inv);
            }
            *s = x.iter().sum();
        }
    }
}

/// A weight row as integers with, per block of 32, the scale of each half and a minimum.
#[derive(Debug, Clone, Default)]
pub struct UnpackedRow {
    /// One value each, within `[-128, 127]`, kept in 16 bits: the width the kernels multiply in,
    /// so that a prompt's inputs share one widening of the row.
    pub q: Vec<i16>,
    /// Scale of each block's first 16 values.
    pub scale_lo: Vec<f32>,
    /// Scale of each block's last 16 values (the same as the first's except in Q6_K).
    pub scale_hi: Vec<f32>,
    /// Each block's minimum (value = scale · q + min); empty for the types without one.
    pub min: Vec<f32>,
    /// Whether a block's halves have scales of their own (Q6_K).
    pub halves_apart: bool,
}

impl UnpackedRow {
    /// Unpacks one row of `ty` (whole blocks; `supports(ty)`) into `self`, reusing its buffers.
    pub fn unpack(&mut self, ty: GgmlType, bytes: &[u8]) {
        let (per, size) = ty.block();
        let values = bytes.len() / size * per;
        let blocks = values / BLOCK;
        self.q.resize(values, 0);
        self.scale_lo.resize(blocks, 0.0);
        self.scale_hi.resize(blocks, 0.0);
        let has_min = matches!(ty, GgmlType::Q4_1 | GgmlType::Q5_1 | GgmlType::Q4K);
        self.min.resize(if has_min { blocks } else { 0 }, 0.0);
        self.halves_apart = ty == GgmlType::Q6K;
        let table = f16_table();
        let f16 = |b: &[u8]| f16_at(table, b);
        match ty {
            GgmlType::Q8_0 | GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q5_0 | GgmlType::Q5_1 => {
                for (i, (b, q)) in bytes
                    .chunks_exact(size)
                    .zip(self.q.chunks_exact_mut(BLOCK))
                    .enumerate()
                {
                    let d = f16(b);
                    self.scale_lo[i] = d;
                    self.scale_hi[i] = d;
                    match ty {
                        GgmlType::Q8_0 => {
                            for (q, &v) in q.iter_mut().zip(&b[2..34]) {
                                *q = i16::from(v as i8);
                            }
                        }
                        GgmlType::Q4_0 | GgmlType::Q4_1 => {
                            let (offset, nibbles) = if ty == GgmlType::Q4_0 {
                                (8, &b[2..18])
                            } else {
                                (0, &b[4..20])
                            };
                            let (lo, hi) = q.split_at_mut(16);
                            for ((l, h), &v) in lo.iter_mut().zip(hi).zip(nibbles) {
                                *l = i16::from(v & 0xF) - offset;
                                *h = i16::from(v >> 4) - offset;
                            }
                        }
                        _ => {
                            let (offset, rest) = if ty == GgmlType::Q5_0 {
                                (16, &b[2..22])
                            } else {
                                (0, &b[4..24])
                            };
                            let qh = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                            let (lo, hi) = q.split_at_mut(16);
                            for (j, ((l, h), &v)) in
                                lo.iter_mut().zip(hi).zip(&rest[4..20]).enumerate()
                            {
                                *l = i16::from((v & 0xF) | ((((qh >> j) << 4) & 0x10) as u8))
                                    - offset;
                                *h = i16::from((v >> 4) | (((qh >> (j + 12)) & 0x10) as u8))
                                    - offset;
                            }
                        }
                    }
                    if has_min {
                        self.min[i] = f16(&b[2..]);
                    }
                }
            }
            GgmlType::Q4K => {
                for (s, (b, q)) in bytes
                    .chunks_exact(size)
                    .zip(self.q.chunks_exact_mut(256))
                    .enumerate()
                {
                    let scales = crate::quant::q4_k_scales(b);
                    for (c, (chunk, q)) in b[16..144]
                        .chunks_exact(32)
                        .zip(q.chunks_exact_mut(64))
                        .enumerate()
                    {
                        let (lo, hi) = q.split_at_mut(32);
                        for ((l, h), &v) in lo.iter_mut().zip(hi).zip(chunk) {
                            *l = i16::from(v & 0xF);
                            *h = i16::from(v >> 4);
                        }
                        for k in 0..2 {
                            let (d, m) = scales[2 * c + k];
                            let i = s * 8 + 2 * c + k;
                            self.scale_lo[i] = d;
                            self.scale_hi[i] = d;
                            self.min[i] = -m;
                        }
                    }
                }
            }
            GgmlType::Q6K => {
                for (s, (b, q)) in bytes
                    .chunks_exact(size)
                    .zip(self.q.chunks_exact_mut(256))
                    .enumerate()
                {
                    let (ql_all, qh_all, sc) = (&b[..128], &b[128..192], &b[192..208]);
                    let d = f16(&b[208..]);
                    for half in 0..2 {
                        let (ql, qh) = (&ql_all[half * 64..], &qh_all[half * 32..]);
                        let q = &mut q[half * 128..];
                        for l in 0..32 {
                            q[l] = i16::from((ql[l] & 0xF) | ((qh[l] & 3) << 4)) - 32;
                            q[l + 32] =
                                i16::from((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                            q[l + 64] = i16::from((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                            q[l + 96] =
                                i16::from((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                        }
                    }
                    // Value g of the super-block has the scale of its sub-block of 16, g / 16.
                    for k in 0..8 {
                        self.scale_lo[s * 8 + k] = d * f32::from(sc[2 * k] as i8);
                        self.scale_hi[s * 8 + k] = d * f32::from(sc[2 * k + 1] as i8);
                    }
                }
            }
            GgmlType::F32 | GgmlType::F16 | GgmlType::Bf16 => {}
        }
    }
}

/// The instructions that multiply weight rows by quantized inputs, chosen once at run time by
/// the CPU's features (natively) or by the build (wasm): each returns the same bits, because the
/// integer sums are exact and the floating point is the same operations in the same order
/// ([`dot_scalar`] defines it; the SIMD kernels hold a block's eight lanes in vectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Plain loops (any CPU; the reference the others are tested against).
    Scalar,
    /// x86-64 AVX2 (`vpmaddwd`): a half block an instruction.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// x86-64 AVX-512 (F, BW, CD, DQ, VL): a prompt's products two inputs a 512-bit `vpmaddwd`
    /// (`qdot/x86/avx512.rs`); a token's as AVX2's.
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// wasm 128-bit SIMD (`i32x4.dot_i16x8_s`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernel {
    /// The fastest kernel this CPU (or this wasm build) runs.
    pub fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if pulp::x86::V4::is_available() {
            return Kernel::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if pulp::x86::V3::is_available() {
            return Kernel::Avx2;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Kernel::Simd128;
        #[allow(unreachable_code, reason = "every other target")]
        Kernel::Scalar
    }

    /// Every kernel this CPU runs, the scalar one first (for the tests that hold them equal).
    pub fn available() -> Vec<Kernel> {
        let mut all = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        if pulp::x86::V3::is_available() {
            all.push(Kernel::Avx2);
        }
        #[cfg(target_arch = "x86_64")]
        if pulp::x86::V4::is_available() {
            all.push(Kernel::Avx512);
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        all.push(Kernel::Simd128);
        all
    }

    /// The kernel's name, for the backend line and the benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "AVX2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => "AVX-512",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => "wasm SIMD",
        }
    }

    /// Rows of `ty` (`bytes`, `row_bytes` each, one after another) times every input of `acts`:
    /// input `t`'s product with row `r` goes to `out[t * width + r]`. `unpacked` is scratch.
    #[allow(
        clippy::too_many_arguments,
        reason = "the rows, the inputs, where the products go, and scratch"
    )]
    pub fn rows(
        self,
        ty: GgmlType,
        bytes: &[u8],
        row_bytes: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
        width: usize,
        unpacked: &mut UnpackedRow,
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                // A prompt's products (its rows unpacked once for all its inputs) two inputs a
                // vector; a token's, bound by memory, as AVX2 reads them.
                let (per, size) = ty.block();
                let inputs = acts.d.len() / (row_bytes / size * per / BLOCK).max(1);
                if let Some(simd) =
                    pulp::x86::V4::try_new().filter(|_| inputs >= 2 && !reads_as_stored(ty, inputs))
                {
                    return simd.vectorize(x86::avx512::Avx512Rows(
                        simd,
                        x86::Product {
                            ty,
                            bytes,
                            row_bytes,
                            acts,
                            out,
                            width,
                            unpacked,
                        },
                    ));
                }
                if let Some(simd) = pulp::x86::V3::try_new() {
                    return simd.vectorize(x86::Avx2Rows(
                        simd,
                        x86::Product {
                            ty,
                            bytes,
                            row_bytes,
                            acts,
                            out,
                            width,
                            unpacked,
                        },
                    ));
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                if let Some(simd) = pulp::x86::V3::try_new() {
                    return simd.vectorize(x86::Avx2Rows(
                        simd,
                        x86::Product {
                            ty,
                            bytes,
                            row_bytes,
                            acts,
                            out,
                            width,
                            unpacked,
                        },
                    ));
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => return wasm::rows(ty, bytes, row_bytes, acts, out, width, unpacked),
            Kernel::Scalar => {}
        }
        for (r, rb) in bytes.chunks_exact(row_bytes).enumerate() {
            unpacked.unpack(ty, rb);
            for t in 0..acts.d.len() * BLOCK / unpacked.q.len().max(1) {
                out[t * width + r] = dot_scalar(unpacked, acts, t);
            }
        }
    }
}

/// Work to run with wide vectors ([`with_wide_vectors`]). `run` must be `#[inline(always)]`,
/// and everything it calls in its hot loops too: code that is not inlined into the function
/// compiled for the features is compiled for baseline x86-64 (a closure would be, and was).
pub trait Wide {
    /// What the work returns.
    type Output;
    /// Does the work.
    fn run(self) -> Self::Output;
}

/// Runs `work` with the 256-bit vectors of AVX2 enabled where the CPU has them (the f32 parts of
/// the forward pass: attention, quantizing the inputs), inlined into one function compiled for
/// those features. The bits do not change: Rust never fuses a multiply and an add on its own, and
/// the code it vectorizes keeps its own lanes (`dot`'s eight accumulators), so wider vectors
/// compute the same operations in the same order as wasm's and baseline x86-64's.
#[inline(always)]
pub fn with_wide_vectors<W: Wide>(work: W) -> W::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(x86::AsNullary(work));
    }
    work.run()
}

/// Whether the kernels read `ty`'s rows as stored for `inputs` inputs, rather than unpacking
/// each row once: a token's product (one or two inputs) reads each weight byte once, from
/// memory, where unpacking would add a pass; a prompt's many inputs share one unpacking. Only
/// Q4_0, Q4_1 and Q8_0 have a reading as stored.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
fn reads_as_stored(ty: GgmlType, inputs: usize) -> bool {
    inputs <= 2 && matches!(ty, GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q8_0)
}

/// The eight lanes' fixed sum.
#[inline(always)]
fn reduce(a: [f32; 8]) -> f32 {
    ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]))
}

/// The row times input `t`, the definition every kernel computes, laid out as AVX2's
/// `vpmaddwd` lays out a block (eight lanes, lane `j` summing values `2j`, `2j + 1` of each half):
/// - lane `j` of block `b` has the exact integer sums `lo_j` (values `2j`, `2j + 1`) and `hi_j`
///   (values `16 + 2j`, `17 + 2j`) of the products;
/// - with `sl = scale_lo · d` and `sh = scale_hi · d`, lane `j` adds `(lo_j + hi_j) · sl`, or
///   `lo_j · sl + hi_j · sh` where the halves are scaled apart (Q6_K);
/// - a second set of eight lanes adds `min · sum` of block `b` into lane `b % 8`;
/// - the answer is the two sets' fixed sums ([`reduce`]), added.
///
/// The integer sums are exact (under 2^24, so exact as f32 too); every multiply and add is a
/// separate IEEE operation in this order, never fused, so any CPU and wasm give the same bits.
pub fn dot_scalar(row: &UnpackedRow, acts: &QuantizedActs, t: usize) -> f32 {
    let cols = row.q.len();
    let blocks = cols / BLOCK;
    let x = &acts.q[t * cols..(t + 1) * cols];
    let (mut acc, mut mins) = ([0.0f32; 8], [0.0f32; 8]);
    for (b, (wb, xb)) in row
        .q
        .chunks_exact(BLOCK)
        .zip(x.chunks_exact(BLOCK))
        .enumerate()
    {
        let d = acts.d[t * blocks + b];
        let (sl, sh) = (row.scale_lo[b] * d, row.scale_hi[b] * d);
        let pair = |i: usize| {
            i32::from(wb[i]) * i32::from(xb[i]) + i32::from(wb[i + 1]) * i32::from(xb[i + 1])
        };
        for (j, a) in acc.iter_mut().enumerate() {
            let (lo, hi) = (pair(2 * j), pair(16 + 2 * j));
            *a += if row.halves_apart {
                lo as f32 * sl + hi as f32 * sh
            } else {
                (lo + hi) as f32 * sl
            };
        }
        if let Some(m) = row.min.get(b) {
            mins[b % 8] += m * acts.sum[t * blocks + b];
        }
    }
    reduce(acc) + reduce(mins)
}

/// The row kinds the SIMD kernels read, and each block's scales and minimum: the one reading of
/// the scales for every architecture (each architecture adds how it loads the weights).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod kinds {
    use super::{F16Table, UnpackedRow, f16_at};

    /// A row's blocks: the scale of each half of block `b` and its minimum (types with one).
    pub(super) trait RowBlocks {
        const HAS_MIN: bool;
        const HALVES_APART: bool = false;
        fn scales(&self, b: usize) -> (f32, f32);
        fn min(&self, b: usize) -> f32;
        /// Blocks `b..b + 8`'s minima.
        #[inline(always)]
        fn mins8(&self, b: usize) -> [f32; 8] {
            std::array::from_fn(|k| self.min(b + k))
        }
    }

    /// A row kind read as stored (Q8_0, Q4_0, Q4_1): its blocks' bytes one after another, so
    /// that a loop can walk them in chunks of `SIZE` (no index to check a block).
    pub(super) trait Stored: RowBlocks {
        /// Bytes a block.
        const SIZE: usize;
        /// The row's bytes.
        fn bytes(&self) -> &[u8];
        /// A block's scale, from its `SIZE` bytes.
        fn scale_of(&self, block: &[u8]) -> f32;
    }

    /// Q8_0 as stored: 34-byte blocks, an f16 scale then 32 signed bytes.
    pub(super) struct Q8<'a> {
        pub row: &'a [u8],
        pub table: &'a F16Table,
    }

    impl RowBlocks for Q8<'_> {
        const HAS_MIN: bool = false;
        #[inline(always)]
        fn scales(&self, b: usize) -> (f32, f32) {
            let d = self.scale_of(&self.row[b * Self::SIZE..]);
            (d, d)
        }
        #[inline(always)]
        fn min(&self, _: usize) -> f32 {
            0.0
        }
    }

    impl Stored for Q8<'_> {
        const SIZE: usize = 34;
        #[inline(always)]
        fn bytes(&self) -> &[u8] {
            self.row
        }
        #[inline(always)]
        fn scale_of(&self, block: &[u8]) -> f32 {
            f16_at(self.table, block)
        }
    }

    /// Q4_0 (`MIN` false: 18-byte blocks, nibbles less 8) and Q4_1 (`MIN` true: 20-byte blocks,
    /// nibbles and a minimum) as stored; the low nibbles are the first half, the high the second.
    pub(super) struct Q4<'a, const MIN: bool> {
        pub row: &'a [u8],
        pub table: &'a F16Table,
    }

    impl<const MIN: bool> Q4<'_, MIN> {
        /// Where a block's 16 bytes of nibbles start.
        pub const NIBBLES_AT: usize = if MIN { 4 } else { 2 };
    }

    impl<const MIN: bool> Stored for Q4<'_, MIN> {
        const SIZE: usize = if MIN { 20 } else { 18 };
        #[inline(always)]
        fn bytes(&self) -> &[u8] {
            self.row
        }
        #[inline(always)]
        fn scale_of(&self, block: &[u8]) -> f32 {
            f16_at(self.table, block)
        }
    }

    impl<const MIN: bool> RowBlocks for Q4<'_, MIN> {
        const HAS_MIN: bool = MIN;
        #[inline(always)]
        fn scales(&self, b: usize) -> (f32, f32) {
            let d = self.scale_of(&self.row[b * Self::SIZE..]);
            (d, d)
        }
        #[inline(always)]
        fn min(&self, b: usize) -> f32 {
            f16_at(self.table, &self.row[b * 20 + 2..])
        }
        #[inline(always)]
        fn mins8(&self, b: usize) -> [f32; 8] {
            // One slice of the eight blocks: one bounds check, not one a block.
            let mut m = [0.0f32; 8];
            for (v, block) in m
                .iter_mut()
                .zip(self.row[b * 20..(b + 8) * 20].chunks_exact(20))
            {
                *v = f16_at(self.table, &block[2..4]);
            }
            m
        }
    }

    /// Any type, unpacked once for all the inputs: the row whose blocks start at block `first`
    /// of `rows` (a tile of rows unpacked together, [`super::prompt::tiled`]).
    pub(super) struct Unpacked<'a, const MIN: bool, const APART: bool> {
        pub rows: &'a UnpackedRow,
        pub first: usize,
    }

    impl<const MIN: bool, const APART: bool> Unpacked<'_, MIN, APART> {
        /// Block `b`'s 32 values.
        #[inline(always)]
        pub fn values(&self, b: usize) -> &[i16] {
            let at = (self.first + b) * super::BLOCK;
            &self.rows.q[at..at + super::BLOCK]
        }
    }

    impl<const MIN: bool, const APART: bool> RowBlocks for Unpacked<'_, MIN, APART> {
        const HAS_MIN: bool = MIN;
        const HALVES_APART: bool = APART;
        #[inline(always)]
        fn scales(&self, b: usize) -> (f32, f32) {
            let lo = self.rows.scale_lo[self.first + b];
            (
                lo,
                if APART {
                    self.rows.scale_hi[self.first + b]
                } else {
                    lo
                },
            )
        }
        #[inline(always)]
        fn min(&self, b: usize) -> f32 {
            self.rows.min[self.first + b]
        }
        #[inline(always)]
        fn mins8(&self, b: usize) -> [f32; 8] {
            let at = self.first + b;
            self.rows.min[at..at + 8].try_into().unwrap_or([0.0; 8])
        }
    }
}

/// A prompt's products, the one loop every SIMD kernel runs them in: rows are unpacked
/// [`TILE_ROWS`] at a time, then each group of inputs is multiplied by every row of the tile.
///
/// Why tiles: a prompt's inputs (354 tokens of 576 to 1536 values, 0.4 to 1.1 MB as 16-bit
/// integers) do not fit in the L1 cache, and multiplying one row by every input read them all from
/// L2 for each row: two bytes a multiply-add, which bounded the products at a third of what the
/// multiply units do. A group's inputs (four or eight, 5 to 24 KB) now stay in L1 while the tile's
/// rows stream past, each row read once a group.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod prompt {
    use super::kinds::Unpacked;
    use super::{GgmlType, QuantizedActs, UnpackedRow};

    /// Rows unpacked together: 32 rows of 1,536 values are 96 KB of 16-bit integers, which stay
    /// in L2 while every group of inputs passes over them.
    pub(super) const TILE_ROWS: usize = 32;

    /// What an architecture's [`PromptDots`] needs: its instruction set's token (`()` in wasm),
    /// the rows' blocks, the inputs, and the row stride of the products.
    pub(super) struct Prompt<'a, S> {
        #[cfg_attr(
            target_arch = "wasm32",
            allow(dead_code, reason = "wasm SIMD needs no token: `()`")
        )]
        pub simd: S,
        pub blocks: usize,
        pub acts: &'a QuantizedActs,
        pub width: usize,
    }

    /// How an architecture multiplies one unpacked row by a prompt's inputs, into `out[t * width]`
    /// for input `t`: `GROUP` inputs from `t` at a time, or one. `minima[i]`, where given, is the
    /// row's minima times input `t + i`'s block sums, already summed ([`Minima`]).
    pub(super) trait PromptDots {
        const GROUP: usize;
        fn group<const MIN: bool, const APART: bool>(
            &self,
            row: &Unpacked<'_, MIN, APART>,
            t: usize,
            out: &mut [f32],
            minima: Option<&[f32]>,
        );
        fn one<const MIN: bool, const APART: bool>(
            &self,
            row: &Unpacked<'_, MIN, APART>,
            t: usize,
            out: &mut [f32],
            minima: Option<&[f32]>,
        );
    }

    /// The `min · sum` half of [`super::dot_scalar`] for every row of a tile and every input,
    /// eight inputs a vector: lane `j` of the eight sums blocks `j`, `j + 8`, … in order, and the
    /// lanes are added in [`super::reduce`]'s tree, input by input, so the bits are the same as
    /// one input's eight lanes give. Computed a row at a time for one input, this half cost about
    /// as much as a fifth of the row's products (a few blocks of scalar work for every row and
    /// input, through memory).
    struct Minima {
        /// Each input's block sums by block: `sums[b * padded + t]`, zero past the last input.
        sums: Vec<f32>,
        /// The inputs rounded up to eight.
        padded: usize,
        /// Row `k` of the tile's minima times input `t`'s sums: `tile[k * padded + t]`.
        tile: Vec<f32>,
    }

    impl Minima {
        fn new(acts: &QuantizedActs, blocks: usize, inputs: usize) -> Minima {
            let padded = inputs.div_ceil(8) * 8;
            let mut sums = vec![0.0f32; blocks * padded];
            for (t, input) in acts.sum.chunks_exact(blocks).enumerate() {
                for (b, &v) in input.iter().enumerate() {
                    sums[b * padded + t] = v;
                }
            }
            Minima {
                sums,
                padded,
                tile: vec![0.0; TILE_ROWS * padded],
            }
        }

        /// `tile` for the `rows` rows of `unpacked`.
        #[inline(always)]
        fn of_tile(&mut self, unpacked: &UnpackedRow, rows: usize, blocks: usize) {
            let padded = self.padded;
            for (k, min) in unpacked.min.chunks_exact(blocks).take(rows).enumerate() {
                for t in (0..padded).step_by(8) {
                    // Whole groups of eight blocks, then the rest: `j` is a constant in each
                    // unrolled step, so the 64 lanes stay in registers.
                    let mut lanes = [[0.0f32; 8]; 8];
                    for (g, mins) in min.chunks(8).enumerate() {
                        for (j, lane) in lanes.iter_mut().enumerate() {
                            if let Some(&m) = mins.get(j) {
                                let at = (g * 8 + j) * padded + t;
                                let s: [f32; 8] =
                                    self.sums[at..at + 8].try_into().unwrap_or([0.0; 8]);
                                for (l, v) in lane.iter_mut().zip(s) {
                                    *l += m * v;
                                }
                            }
                        }
                    }
                    for (i, out) in self.tile[k * padded + t..k * padded + t + 8]
                        .iter_mut()
                        .enumerate()
                    {
                        *out = super::reduce(lanes.map(|lane| lane[i]));
                    }
                }
            }
        }
    }

    /// Rows of `ty` (`bytes`, `row_bytes` each, `blocks` blocks of 32) times `inputs` inputs, row
    /// `r`'s products into `out[t * width + r]`. `unpacked` holds a tile. Inlined into the
    /// architecture's kernel, whose target features it needs.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the rows, the inputs, where the products go, and scratch"
    )]
    pub(super) fn tiled<P: PromptDots>(
        dots: &P,
        ty: GgmlType,
        bytes: &[u8],
        row_bytes: usize,
        acts: &QuantizedActs,
        blocks: usize,
        out: &mut [f32],
        unpacked: &mut UnpackedRow,
    ) {
        let inputs = acts.d.len() / blocks.max(1);
        let mut minima: Option<Minima> = None;
        for (i, tile) in bytes.chunks(TILE_ROWS * row_bytes).enumerate() {
            unpacked.unpack(ty, tile);
            let rows = tile.len() / row_bytes;
            if !unpacked.min.is_empty() {
                minima
                    .get_or_insert_with(|| Minima::new(acts, blocks, inputs))
                    .of_tile(unpacked, rows, blocks);
            }
            let minima = minima.as_ref().map(|m| (m.tile.as_slice(), m.padded));
            let out = &mut out[i * TILE_ROWS..];
            match (!unpacked.min.is_empty(), unpacked.halves_apart) {
                (false, false) => {
                    tile_dots::<P, false, false>(dots, unpacked, rows, blocks, inputs, out, minima)
                }
                (true, false) => {
                    tile_dots::<P, true, false>(dots, unpacked, rows, blocks, inputs, out, minima)
                }
                (_, true) => {
                    tile_dots::<P, false, true>(dots, unpacked, rows, blocks, inputs, out, minima)
                }
            }
        }
    }

    /// A tile's `rows` rows times every input: each group of inputs by every row, then each
    /// remaining input by every row. `minima`: [`Minima::tile`] and its row length.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the tile, the inputs, where the products go, and the minima"
    )]
    fn tile_dots<P: PromptDots, const MIN: bool, const APART: bool>(
        dots: &P,
        tile: &UnpackedRow,
        rows: usize,
        blocks: usize,
        inputs: usize,
        out: &mut [f32],
        minima: Option<(&[f32], usize)>,
    ) {
        let mut t = 0;
        while t + P::GROUP <= inputs {
            for k in 0..rows {
                let m = minima.map(|(m, padded)| &m[k * padded + t..]);
                dots.group(
                    &Unpacked::<MIN, APART> {
                        rows: tile,
                        first: k * blocks,
                    },
                    t,
                    &mut out[k..],
                    m,
                );
            }
            t += P::GROUP;
        }
        while t < inputs {
            for k in 0..rows {
                let m = minima.map(|(m, padded)| &m[k * padded + t..]);
                dots.one(
                    &Unpacked::<MIN, APART> {
                        rows: tile,
                        first: k * blocks,
                    },
                    t,
                    &mut out[k..],
                    m,
                );
            }
            t += 1;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    pub(super) mod avx512;

    use super::kinds::{Q4, Q8, RowBlocks, Stored, Unpacked};
    use super::prompt::Prompt;
    use super::{BLOCK, QuantizedActs, UnpackedRow, f16_table, reduce};
    use crate::quant::GgmlType;
    use pulp::NullaryFnOnce;
    use pulp::x86::V3;
    use std::arch::x86_64::{__m128i, __m256, __m256i};

    /// [`super::Wide`] work as pulp runs it.
    pub(super) struct AsNullary<W>(pub W);

    impl<W: super::Wide> NullaryFnOnce for AsNullary<W> {
        type Output = W::Output;
        #[inline(always)]
        fn call(self) -> W::Output {
            self.0.run()
        }
    }

    #[inline(always)]
    fn bytes16(b: &[u8]) -> __m128i {
        let a: [u8; 16] = b[..16].try_into().unwrap_or([0; 16]);
        pulp::cast(a)
    }

    #[inline(always)]
    fn shorts16(b: &[i16]) -> __m256i {
        let a: [i16; 16] = b[..16].try_into().unwrap_or([0; 16]);
        pulp::cast(a)
    }

    /// How AVX2 reads a row kind's weights: block `b`'s as two halves of sixteen 16-bit integers.
    trait Blocks: RowBlocks {
        fn weights(&self, simd: V3, b: usize) -> (__m256i, __m256i);
    }

    /// Signed bytes widened to 16 bits, by halves.
    #[inline(always)]
    fn widen(simd: V3, bytes: &[u8]) -> (__m256i, __m256i) {
        (
            simd.avx2._mm256_cvtepi8_epi16(bytes16(bytes)),
            simd.avx2._mm256_cvtepi8_epi16(bytes16(&bytes[16..])),
        )
    }

    /// How AVX2 reads a stored block's weights from its bytes (a token's loop walks the blocks
    /// in chunks: [`rows4`]).
    trait StoredWeights: Stored {
        fn weights_of(simd: V3, block: &[u8]) -> (__m256i, __m256i);
    }

    impl Blocks for Q8<'_> {
        #[inline(always)]
        fn weights(&self, simd: V3, b: usize) -> (__m256i, __m256i) {
            Self::weights_of(simd, &self.row[b * Self::SIZE..(b + 1) * Self::SIZE])
        }
    }

    impl StoredWeights for Q8<'_> {
        #[inline(always)]
        fn weights_of(simd: V3, block: &[u8]) -> (__m256i, __m256i) {
            widen(simd, &block[2..34])
        }
    }

    impl<const MIN: bool> Blocks for Q4<'_, MIN> {
        #[inline(always)]
        fn weights(&self, simd: V3, b: usize) -> (__m256i, __m256i) {
            Self::weights_of(simd, &self.row[b * Self::SIZE..(b + 1) * Self::SIZE])
        }
    }

    impl<const MIN: bool> StoredWeights for Q4<'_, MIN> {
        #[inline(always)]
        fn weights_of(simd: V3, block: &[u8]) -> (__m256i, __m256i) {
            // The 16 bytes zero-extended to 16 bits: the low nibble is the first half's value,
            // the byte shifted right by four the second's.
            let z = simd
                .avx2
                ._mm256_cvtepu8_epi16(bytes16(&block[Self::NIBBLES_AT..Self::NIBBLES_AT + 16]));
            let lo = simd
                .avx2
                ._mm256_and_si256(z, simd.avx._mm256_set1_epi16(0x0F));
            let hi = simd.avx2._mm256_srli_epi16::<4>(z);
            if MIN {
                (lo, hi)
            } else {
                let eight = simd.avx._mm256_set1_epi16(8);
                (
                    simd.avx2._mm256_sub_epi16(lo, eight),
                    simd.avx2._mm256_sub_epi16(hi, eight),
                )
            }
        }
    }

    impl<const MIN: bool, const APART: bool> Blocks for Unpacked<'_, MIN, APART> {
        #[inline(always)]
        fn weights(&self, _: V3, b: usize) -> (__m256i, __m256i) {
            let w = self.values(b);
            (shorts16(w), shorts16(&w[16..]))
        }
    }

    /// One block of one input added into its eight lanes: [`super::dot_scalar`]'s operations.
    /// (No closures in this module: a closure would not inherit the kernel's target features,
    /// and every intrinsic in it would become a call.)
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a block's weights and scales, the input's block and scale"
    )]
    fn step<B: Blocks>(
        simd: V3,
        acc: __m256,
        wl: __m256i,
        wh: __m256i,
        slo: f32,
        shi: f32,
        x: &[i16],
        d: f32,
    ) -> __m256 {
        let (avx, avx2) = (simd.avx, simd.avx2);
        let (pl, ph) = (
            avx2._mm256_madd_epi16(wl, shorts16(x)),
            avx2._mm256_madd_epi16(wh, shorts16(&x[16..])),
        );
        let v = if B::HALVES_APART {
            avx._mm256_add_ps(
                avx._mm256_mul_ps(avx._mm256_cvtepi32_ps(pl), avx._mm256_set1_ps(slo * d)),
                avx._mm256_mul_ps(avx._mm256_cvtepi32_ps(ph), avx._mm256_set1_ps(shi * d)),
            )
        } else {
            avx._mm256_mul_ps(
                avx._mm256_cvtepi32_ps(avx2._mm256_add_epi32(pl, ph)),
                avx._mm256_set1_ps(slo * d),
            )
        };
        avx._mm256_add_ps(acc, v)
    }

    /// Row `row`'s block `b` (its weights and scales, read here) times an input's block, added
    /// into that row's chain.
    #[inline(always)]
    fn row_step<B: Blocks>(simd: V3, acc: __m256, row: &B, b: usize, x: &[i16], d: f32) -> __m256 {
        let (wl, wh) = row.weights(simd, b);
        let (slo, shi) = row.scales(b);
        step::<B>(simd, acc, wl, wh, slo, shi, x, d)
    }

    /// Input `t`'s product with the row from its eight lanes: the minima's lanes added, both
    /// reduced in the fixed tree; or, where `minima` gives the minima's sum already
    /// ([`super::prompt`]), the lanes reduced and that added.
    #[inline(always)]
    fn finish<B: Blocks>(
        simd: V3,
        row: &B,
        acc: __m256,
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        minima: Option<f32>,
    ) -> f32 {
        if let Some(m) = minima {
            return reduce(pulp::cast(acc)) + m;
        }
        let avx = simd.avx;
        let mut mins = [0.0f32; 8];
        if B::HAS_MIN {
            // Eight blocks' minima times the input's sums at a time, lane by block.
            let sums = &acts.sum[t * blocks..(t + 1) * blocks];
            let full = blocks / 8 * 8;
            let mut macc = avx._mm256_setzero_ps();
            for b in (0..full).step_by(8) {
                let s: [f32; 8] = sums[b..b + 8].try_into().unwrap_or([0.0; 8]);
                macc = avx._mm256_add_ps(
                    macc,
                    avx._mm256_mul_ps(pulp::cast(row.mins8(b)), pulp::cast(s)),
                );
            }
            mins = pulp::cast(macc);
            for (lane, b) in (full..blocks).enumerate() {
                mins[lane] += row.min(b) * sums[b];
            }
        }
        reduce(pulp::cast(acc)) + reduce(mins)
    }

    /// Row `row` times input `t`, into `out[t * width]` (`minima`: [`finish`]'s, for input `t`).
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the row, the input, where the product goes, and the minima"
    )]
    fn dots1<B: Blocks>(
        simd: V3,
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        out: &mut [f32],
        width: usize,
        minima: Option<&[f32]>,
    ) {
        let cols = blocks * BLOCK;
        let (x, d) = (
            &acts.q[t * cols..(t + 1) * cols],
            &acts.d[t * blocks..(t + 1) * blocks],
        );
        let mut acc = simd.avx._mm256_setzero_ps();
        for b in 0..blocks {
            acc = row_step(simd, acc, row, b, &x[b * BLOCK..], d[b]);
        }
        out[t * width] = finish(simd, row, acc, blocks, acts, t, minima.map(|m| m[0]));
    }

    /// Row `row` times inputs `t..t + 4`, sharing each block's weights and keeping four chains
    /// of additions in flight (named, not an array, so that they stay in registers).
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the row, the inputs, where the products go, and the minima"
    )]
    fn dots4<B: Blocks>(
        simd: V3,
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        out: &mut [f32],
        width: usize,
        minima: Option<&[f32]>,
    ) {
        // Each input's blocks and scales as iterators: no index to check in the loop, which had
        // kept its pointers on the stack.
        let cols = blocks * BLOCK;
        let input = |k: usize| {
            acts.q[(t + k) * cols..(t + k + 1) * cols]
                .chunks_exact(BLOCK)
                .zip(&acts.d[(t + k) * blocks..(t + k + 1) * blocks])
        };
        let zero = simd.avx._mm256_setzero_ps();
        let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
        for (b, ((((x0, d0), (x1, d1)), (x2, d2)), (x3, d3))) in input(0)
            .zip(input(1))
            .zip(input(2))
            .zip(input(3))
            .enumerate()
        {
            let (wl, wh) = row.weights(simd, b);
            let (slo, shi) = row.scales(b);
            a0 = step::<B>(simd, a0, wl, wh, slo, shi, x0, *d0);
            a1 = step::<B>(simd, a1, wl, wh, slo, shi, x1, *d1);
            a2 = step::<B>(simd, a2, wl, wh, slo, shi, x2, *d2);
            a3 = step::<B>(simd, a3, wl, wh, slo, shi, x3, *d3);
        }
        for (k, a) in [a0, a1, a2, a3].into_iter().enumerate() {
            out[(t + k) * width] = finish(simd, row, a, blocks, acts, t + k, minima.map(|m| m[k]));
        }
    }

    /// A stored block of `row` (`block`, its bytes) times an input's block, added into the row's
    /// chain.
    #[inline(always)]
    fn stored_step<B: Blocks + StoredWeights>(
        simd: V3,
        acc: __m256,
        row: &B,
        block: &[u8],
        x: &[i16],
        d: f32,
    ) -> __m256 {
        let (wl, wh) = B::weights_of(simd, block);
        let scale = row.scale_of(block);
        step::<B>(simd, acc, wl, wh, scale, scale, x, d)
    }

    /// Rows `rows` times input 0, into `out[0..4]`: a token's product, four rows sharing each
    /// block's input and keeping four chains of additions in flight. The blocks are walked in
    /// chunks (the input's, each row's), so that no index is checked in the loop.
    #[inline(always)]
    fn rows4<B: Blocks + StoredWeights>(
        simd: V3,
        rows: [B; 4],
        blocks: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
    ) {
        let input = acts.q[..blocks * BLOCK]
            .chunks_exact(BLOCK)
            .zip(&acts.d[..blocks]);
        let [r0, r1, r2, r3] = rows.each_ref().map(|r| r.bytes().chunks_exact(B::SIZE));
        let zero = simd.avx._mm256_setzero_ps();
        let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
        for ((x, &d), (((w0, w1), w2), w3)) in input.zip(r0.zip(r1).zip(r2).zip(r3)) {
            a0 = stored_step(simd, a0, &rows[0], w0, x, d);
            a1 = stored_step(simd, a1, &rows[1], w1, x, d);
            a2 = stored_step(simd, a2, &rows[2], w2, x, d);
            a3 = stored_step(simd, a3, &rows[3], w3, x, d);
        }
        for (k, a) in [a0, a1, a2, a3].into_iter().enumerate() {
            out[k] = finish(simd, &rows[k], a, blocks, acts, 0, None);
        }
    }

    /// A prompt's products on AVX2: four inputs at a time, then one ([`super::prompt::tiled`]).
    impl super::prompt::PromptDots for Prompt<'_, V3> {
        const GROUP: usize = 4;
        #[inline(always)]
        fn group<const MIN: bool, const APART: bool>(
            &self,
            row: &Unpacked<'_, MIN, APART>,
            t: usize,
            out: &mut [f32],
            minima: Option<&[f32]>,
        ) {
            dots4(
                self.simd,
                row,
                self.blocks,
                self.acts,
                t,
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
                self.simd,
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

    /// Row `row` (read as stored) times every input: one or two, a token's product (a prompt's
    /// products run in tiles, [`super::prompt::tiled`]).
    #[inline(always)]
    fn all_dots<B: Blocks>(
        simd: V3,
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
        width: usize,
    ) {
        for t in 0..acts.d.len() / blocks {
            dots1(simd, row, blocks, acts, t, out, width, None);
        }
    }

    /// [`super::Kernel::rows`]'s arguments, for the x86 kernels.
    pub(super) struct Product<'a> {
        pub ty: GgmlType,
        pub bytes: &'a [u8],
        pub row_bytes: usize,
        pub acts: &'a QuantizedActs,
        pub out: &'a mut [f32],
        pub width: usize,
        pub unpacked: &'a mut UnpackedRow,
    }

    /// Rows times inputs on AVX2. Q4_0, Q4_1 and Q8_0 rows are read straight from their blocks
    /// for a token (the nibbles widened in registers, the f16 scales through the table: each
    /// weight byte is read once); a prompt's many inputs, and the other types, share one
    /// unpacking of each row.
    pub(super) struct Avx2Rows<'a>(pub V3, pub Product<'a>);

    impl NullaryFnOnce for Avx2Rows<'_> {
        type Output = ();
        #[inline(always)]
        fn call(self) {
            let Avx2Rows(
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
            let table = f16_table();
            let (per, size) = ty.block();
            let blocks = row_bytes / size * per / BLOCK;
            let inputs = acts.d.len() / blocks.max(1);
            let direct = super::reads_as_stored(ty, inputs);
            let mut first = 0;
            if inputs == 1 {
                // A token's product, four rows at a time, the blocks read as stored.
                let quads = bytes.len() / row_bytes / 4;
                for (q, four) in bytes.chunks_exact(4 * row_bytes).take(quads).enumerate() {
                    // Ask for the rows four passes ahead now: a token's product streams the
                    // weights from memory once, and waits on them otherwise.
                    let ahead = bytes.as_ptr().wrapping_add((q + 4) * 4 * row_bytes);
                    let mut line = 0;
                    while line < 4 * row_bytes {
                        simd.sse._mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                            ahead.wrapping_add(line).cast(),
                        );
                        line += 64;
                    }
                    // The four rows' views are made here, outside the kernel's loops.
                    let row = |k: usize| &four[k * row_bytes..(k + 1) * row_bytes];
                    let out = &mut out[4 * q..];
                    match ty {
                        GgmlType::Q8_0 => rows4(
                            simd,
                            std::array::from_fn(|k| Q8 { row: row(k), table }),
                            blocks,
                            acts,
                            out,
                        ),
                        GgmlType::Q4_0 => rows4(
                            simd,
                            std::array::from_fn(|k| Q4::<false> { row: row(k), table }),
                            blocks,
                            acts,
                            out,
                        ),
                        GgmlType::Q4_1 => rows4(
                            simd,
                            std::array::from_fn(|k| Q4::<true> { row: row(k), table }),
                            blocks,
                            acts,
                            out,
                        ),
                        _ => break,
                    }
                    first = 4 * (q + 1);
                }
            }
            let (rest, out) = (&bytes[first * row_bytes..], &mut out[first..]);
            if !direct {
                let prompt = Prompt {
                    simd,
                    blocks,
                    acts,
                    width,
                };
                return super::prompt::tiled(
                    &prompt, ty, rest, row_bytes, acts, blocks, out, unpacked,
                );
            }
            for (r, row) in rest.chunks_exact(row_bytes).enumerate() {
                let out = &mut out[r..];
                match ty {
                    GgmlType::Q8_0 => all_dots(simd, &Q8 { row, table }, blocks, acts, out, width),
                    GgmlType::Q4_0 => {
                        all_dots(simd, &Q4::<false> { row, table }, blocks, acts, out, width)
                    }
                    GgmlType::Q4_1 => {
                        all_dots(simd, &Q4::<true> { row, table }, blocks, acts, out, width)
                    }
                    _ => debug_assert!(false, "reads_as_stored holds for Q4_0, Q4_1 and Q8_0 only"),
                }
            }
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::kinds::{Q4, Q8, RowBlocks, Stored, Unpacked};
    use super::prompt::Prompt;
    use super::{BLOCK, QuantizedActs, UnpackedRow, f16_table, reduce};
    use crate::quant::GgmlType;
    use std::arch::wasm32::*;

    #[inline(always)]
    fn bytes16(b: &[u8]) -> v128 {
        let a: [u8; 16] = b[..16].try_into().unwrap_or([0; 16]);
        bytemuck::cast(a)
    }

    #[inline(always)]
    fn shorts8(b: &[i16]) -> v128 {
        let a: [i16; 8] = b[..8].try_into().unwrap_or([0; 8]);
        bytemuck::cast(a)
    }

    /// How wasm SIMD reads a row kind's weights: block `b`'s 32 as four vectors of eight 16-bit
    /// integers (values 0–7, 8–15, 16–23, 24–31). One type a row kind, so that each kernel is
    /// compiled for its kind (no match a block).
    trait Blocks: RowBlocks {
        fn weights(&self, b: usize) -> [v128; 4];
    }

    /// How wasm SIMD reads a stored block's weights from its bytes (a token's loop walks the
    /// blocks in chunks: [`dots_rows4`]).
    trait StoredWeights: Stored {
        fn weights_of(block: &[u8]) -> [v128; 4];
    }

    impl StoredWeights for Q8<'_> {
        #[inline(always)]
        fn weights_of(block: &[u8]) -> [v128; 4] {
            let (first, second) = (bytes16(&block[2..18]), bytes16(&block[18..34]));
            [
                i16x8_extend_low_i8x16(first),
                i16x8_extend_high_i8x16(first),
                i16x8_extend_low_i8x16(second),
                i16x8_extend_high_i8x16(second),
            ]
        }
    }

    impl<const MIN: bool> StoredWeights for Q4<'_, MIN> {
        #[inline(always)]
        fn weights_of(block: &[u8]) -> [v128; 4] {
            let q = bytes16(&block[Self::NIBBLES_AT..Self::NIBBLES_AT + 16]);
            let (lo, hi) = (v128_and(q, u8x16_splat(0x0F)), u8x16_shr(q, 4));
            let w = [
                u16x8_extend_low_u8x16(lo),
                u16x8_extend_high_u8x16(lo),
                u16x8_extend_low_u8x16(hi),
                u16x8_extend_high_u8x16(hi),
            ];
            if MIN {
                w
            } else {
                w.map(|v| i16x8_sub(v, i16x8_splat(8)))
            }
        }
    }

    impl Blocks for Q8<'_> {
        #[inline(always)]
        fn weights(&self, b: usize) -> [v128; 4] {
            Self::weights_of(&self.row[b * Self::SIZE..(b + 1) * Self::SIZE])
        }
    }

    impl<const MIN: bool> Blocks for Q4<'_, MIN> {
        #[inline(always)]
        fn weights(&self, b: usize) -> [v128; 4] {
            Self::weights_of(&self.row[b * Self::SIZE..(b + 1) * Self::SIZE])
        }
    }

    impl<const MIN: bool, const APART: bool> Blocks for Unpacked<'_, MIN, APART> {
        #[inline(always)]
        fn weights(&self, b: usize) -> [v128; 4] {
            let w = self.values(b);
            [
                shorts8(w),
                shorts8(&w[8..]),
                shorts8(&w[16..]),
                shorts8(&w[24..]),
            ]
        }
    }

    /// One input's block of 32 as four vectors of eight.
    #[inline(always)]
    fn input_block(xb: &[i16]) -> [v128; 4] {
        [
            shorts8(xb),
            shorts8(&xb[8..]),
            shorts8(&xb[16..]),
            shorts8(&xb[24..]),
        ]
    }

    /// One block of one input added into its eight lanes (two vectors).
    #[inline(always)]
    fn step<B: Blocks>(
        acc: (v128, v128),
        w: &[v128; 4],
        slo: f32,
        shi: f32,
        x: &[v128; 4],
        d: f32,
    ) -> (v128, v128) {
        let (a0, a1) = acc;
        let (l0, l1) = (i32x4_dot_i16x8(w[0], x[0]), i32x4_dot_i16x8(w[1], x[1]));
        let (h0, h1) = (i32x4_dot_i16x8(w[2], x[2]), i32x4_dot_i16x8(w[3], x[3]));
        let sl = f32x4_splat(slo * d);
        if B::HALVES_APART {
            let sh = f32x4_splat(shi * d);
            (
                f32x4_add(
                    a0,
                    f32x4_add(
                        f32x4_mul(f32x4_convert_i32x4(l0), sl),
                        f32x4_mul(f32x4_convert_i32x4(h0), sh),
                    ),
                ),
                f32x4_add(
                    a1,
                    f32x4_add(
                        f32x4_mul(f32x4_convert_i32x4(l1), sl),
                        f32x4_mul(f32x4_convert_i32x4(h1), sh),
                    ),
                ),
            )
        } else {
            (
                f32x4_add(a0, f32x4_mul(f32x4_convert_i32x4(i32x4_add(l0, h0)), sl)),
                f32x4_add(a1, f32x4_mul(f32x4_convert_i32x4(i32x4_add(l1, h1)), sl)),
            )
        }
    }

    /// Input `t`'s product from its lanes: the minima's lanes added, both reduced in the fixed
    /// tree.
    #[inline(always)]
    fn finish<B: Blocks>(
        row: &B,
        acc: (v128, v128),
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        minima: Option<f32>,
    ) -> f32 {
        let (lo, hi): ([f32; 4], [f32; 4]) = (bytemuck::cast(acc.0), bytemuck::cast(acc.1));
        let lanes = reduce([lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]);
        if let Some(m) = minima {
            return lanes + m;
        }
        let mut mins = [0.0f32; 8];
        if B::HAS_MIN {
            // Eight blocks' minima times the input's sums at a time, lane by block, as AVX2 does:
            // one block at a time into `mins[b % 8]` went through memory, a sixth of a token's
            // products in the page.
            let sums = &acts.sum[t * blocks..(t + 1) * blocks];
            let full = blocks / 8 * 8;
            let (mut m0, mut m1) = (f32x4_splat(0.0), f32x4_splat(0.0));
            for (b, s) in (0..full).step_by(8).zip(sums.chunks_exact(8)) {
                let [ml, mh]: [v128; 2] = bytemuck::cast(row.mins8(b));
                let [sl, sh]: [v128; 2] =
                    bytemuck::cast(<[f32; 8]>::try_from(s).unwrap_or([0.0; 8]));
                m0 = f32x4_add(m0, f32x4_mul(ml, sl));
                m1 = f32x4_add(m1, f32x4_mul(mh, sh));
            }
            let (lo, hi): ([f32; 4], [f32; 4]) = (bytemuck::cast(m0), bytemuck::cast(m1));
            mins = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
            for (lane, b) in (full..blocks).enumerate() {
                mins[lane] += row.min(b) * sums[b];
            }
        }
        lanes + reduce(mins)
    }

    /// The row times inputs `t..t + 4`, as [`super::dot_scalar`] computes it, into
    /// `out[t * width]`…: the four share each block's weights.
    #[inline(always)]
    fn dots4<B: Blocks>(
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        out: &mut [f32],
        width: usize,
        minima: Option<&[f32]>,
    ) {
        // Each input's blocks and scales as iterators: no index to check in the loop.
        let cols = blocks * BLOCK;
        let zero = (f32x4_splat(0.0), f32x4_splat(0.0));
        let input = |k: usize| {
            acts.q[(t + k) * cols..(t + k + 1) * cols]
                .chunks_exact(BLOCK)
                .zip(&acts.d[(t + k) * blocks..(t + k + 1) * blocks])
        };
        let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
        for (b, ((((x0, d0), (x1, d1)), (x2, d2)), (x3, d3))) in input(0)
            .zip(input(1))
            .zip(input(2))
            .zip(input(3))
            .enumerate()
        {
            let w = row.weights(b);
            let (slo, shi) = row.scales(b);
            a0 = step::<B>(a0, &w, slo, shi, &input_block(x0), *d0);
            a1 = step::<B>(a1, &w, slo, shi, &input_block(x1), *d1);
            a2 = step::<B>(a2, &w, slo, shi, &input_block(x2), *d2);
            a3 = step::<B>(a3, &w, slo, shi, &input_block(x3), *d3);
        }
        for (k, a) in [a0, a1, a2, a3].into_iter().enumerate() {
            out[(t + k) * width] = finish(row, a, blocks, acts, t + k, minima.map(|m| m[k]));
        }
    }

    /// The row times input `t` into `out[t * width]`.
    #[inline(always)]
    fn dots1<B: Blocks>(
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        t: usize,
        out: &mut [f32],
        width: usize,
        minima: Option<&[f32]>,
    ) {
        let cols = blocks * BLOCK;
        let (x, d) = (
            &acts.q[t * cols..(t + 1) * cols],
            &acts.d[t * blocks..(t + 1) * blocks],
        );
        let mut a = (f32x4_splat(0.0), f32x4_splat(0.0));
        for b in 0..blocks {
            let (slo, shi) = row.scales(b);
            a = step::<B>(
                a,
                &row.weights(b),
                slo,
                shi,
                &input_block(&x[b * BLOCK..]),
                d[b],
            );
        }
        out[t * width] = finish(row, a, blocks, acts, t, minima.map(|m| m[0]));
    }

    /// The row (read as stored) times every input: one or two, a token's product (a prompt's
    /// products run in tiles, [`super::prompt::tiled`]).
    fn dots<B: Blocks>(
        row: &B,
        blocks: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
        width: usize,
    ) {
        for t in 0..acts.d.len() / blocks {
            dots1(row, blocks, acts, t, out, width, None);
        }
    }

    /// A prompt's products in wasm SIMD: four inputs at a time, then one
    /// ([`super::prompt::tiled`]).
    impl super::prompt::PromptDots for Prompt<'_, ()> {
        const GROUP: usize = 4;
        #[inline(always)]
        fn group<const MIN: bool, const APART: bool>(
            &self,
            row: &Unpacked<'_, MIN, APART>,
            t: usize,
            out: &mut [f32],
            minima: Option<&[f32]>,
        ) {
            dots4(row, self.blocks, self.acts, t, out, self.width, minima);
        }
        #[inline(always)]
        fn one<const MIN: bool, const APART: bool>(
            &self,
            row: &Unpacked<'_, MIN, APART>,
            t: usize,
            out: &mut [f32],
            minima: Option<&[f32]>,
        ) {
            dots1(row, self.blocks, self.acts, t, out, self.width, minima);
        }
    }

    /// Four rows times each input (a token's product, read as stored), into `out[t * width + k]`
    /// for row `k`: each block of the input is loaded once for the four rows, and the four rows'
    /// sums are independent chains.
    /// The blocks are walked in chunks (the input's, each row's), so that no index is checked
    /// in the loop: the checks were a fifth of its instructions.
    fn dots_rows4<B: Blocks + StoredWeights>(
        rows: [&B; 4],
        blocks: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
        width: usize,
    ) {
        let cols = blocks * BLOCK;
        let zero = (f32x4_splat(0.0), f32x4_splat(0.0));
        for t in 0..acts.d.len() / blocks {
            let input = acts.q[t * cols..(t + 1) * cols]
                .chunks_exact(BLOCK)
                .zip(&acts.d[t * blocks..(t + 1) * blocks]);
            let [r0, r1, r2, r3] = rows.map(|r| r.bytes().chunks_exact(B::SIZE));
            let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
            for ((x, &d), (((w0, w1), w2), w3)) in input.zip(r0.zip(r1).zip(r2).zip(r3)) {
                let xb = input_block(x);
                let (s0, s1, s2, s3) = (
                    rows[0].scale_of(w0),
                    rows[1].scale_of(w1),
                    rows[2].scale_of(w2),
                    rows[3].scale_of(w3),
                );
                a0 = step::<B>(a0, &B::weights_of(w0), s0, s0, &xb, d);
                a1 = step::<B>(a1, &B::weights_of(w1), s1, s1, &xb, d);
                a2 = step::<B>(a2, &B::weights_of(w2), s2, s2, &xb, d);
                a3 = step::<B>(a3, &B::weights_of(w3), s3, s3, &xb, d);
            }
            for (k, (acc, row)) in [a0, a1, a2, a3].into_iter().zip(rows).enumerate() {
                out[t * width + k] = finish(row, acc, blocks, acts, t, None);
            }
        }
    }

    /// Rows times inputs in wasm SIMD: Q4_0, Q4_1 and Q8_0 read as stored for a token, every
    /// other case unpacked once a row.
    pub(super) fn rows(
        ty: GgmlType,
        bytes: &[u8],
        row_bytes: usize,
        acts: &QuantizedActs,
        out: &mut [f32],
        width: usize,
        unpacked: &mut UnpackedRow,
    ) {
        let table = f16_table();
        let (per, size) = ty.block();
        let blocks = row_bytes / size * per / BLOCK;
        let direct = super::reads_as_stored(ty, acts.d.len() / blocks.max(1));
        let mut done = 0;
        if direct {
            for (i, four) in bytes.chunks_exact(4 * row_bytes).enumerate() {
                let row = |k: usize| &four[k * row_bytes..(k + 1) * row_bytes];
                let out = &mut out[4 * i..];
                match ty {
                    GgmlType::Q8_0 => dots_rows4(
                        std::array::from_fn::<_, 4, _>(|k| Q8 { row: row(k), table }).each_ref(),
                        blocks,
                        acts,
                        out,
                        width,
                    ),
                    GgmlType::Q4_0 => dots_rows4(
                        std::array::from_fn::<_, 4, _>(|k| Q4::<false> { row: row(k), table })
                            .each_ref(),
                        blocks,
                        acts,
                        out,
                        width,
                    ),
                    GgmlType::Q4_1 => dots_rows4(
                        std::array::from_fn::<_, 4, _>(|k| Q4::<true> { row: row(k), table })
                            .each_ref(),
                        blocks,
                        acts,
                        out,
                        width,
                    ),
                    _ => break,
                }
                done += 4;
            }
        }
        let (rest, out) = (&bytes[done * row_bytes..], &mut out[done..]);
        if !direct {
            return super::prompt::tiled(
                &Prompt {
                    simd: (),
                    blocks,
                    acts,
                    width,
                },
                ty,
                rest,
                row_bytes,
                acts,
                blocks,
                out,
                unpacked,
            );
        }
        for (r, row) in rest.chunks_exact(row_bytes).enumerate() {
            let out = &mut out[r..];
            match ty {
                GgmlType::Q8_0 => dots(&Q8 { row, table }, blocks, acts, out, width),
                GgmlType::Q4_0 => dots(&Q4::<false> { row, table }, blocks, acts, out, width),
                GgmlType::Q4_1 => dots(&Q4::<true> { row, table }, blocks, acts, out, width),
                _ => debug_assert!(false, "reads_as_stored holds for Q4_0, Q4_1 and Q8_0 only"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quant::dequantize_into;

    /// Deterministic bytes for `blocks` blocks of `ty`, with finite scales.
    fn blocks_of(ty: GgmlType, blocks: usize, seed: u64) -> Vec<u8> {
        let (_, size) = ty.block();
        let mut s = seed;
        let mut bytes: Vec<u8> = (0..blocks * size)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) as u8
            })
            .collect();
        // Scales (f16) at known places: make them small finite numbers.
        for b in bytes.chunks_exact_mut(size) {
            let scale_at: &[usize] = match ty {
                GgmlType::Q8_0 | GgmlType::Q4_0 | GgmlType::Q5_0 => &[0],
                GgmlType::Q4_1 | GgmlType::Q5_1 | GgmlType::Q4K => &[0, 2],
                GgmlType::Q6K => &[208],
                _ => &[],
            };
            for &at in scale_at {
                let v = half::f16::from_f32(0.001 + f32::from(b[at + 1] % 64) / 1000.0);
                b[at..at + 2].copy_from_slice(&v.to_le_bytes());
            }
        }
        bytes
    }

    const TYPES: [GgmlType; 7] = [
        GgmlType::Q8_0,
        GgmlType::Q4_0,
        GgmlType::Q4_1,
        GgmlType::Q5_0,
        GgmlType::Q5_1,
        GgmlType::Q4K,
        GgmlType::Q6K,
    ];

    #[test]
    fn an_unpacked_row_is_the_dequantized_row_bit_for_bit() {
        for ty in TYPES {
            let (per, _) = ty.block();
            let bytes = blocks_of(ty, 512 / per, 7);
            let mut want = vec![0.0f32; 512];
            dequantize_into(ty, &bytes, &mut want);
            let mut row = UnpackedRow::default();
            row.unpack(ty, &bytes);
            for (i, w) in want.iter().enumerate() {
                let b = i / BLOCK;
                let scale = if i % BLOCK < 16 {
                    row.scale_lo[b]
                } else {
                    row.scale_hi[b]
                };
                let mut v = scale * f32::from(row.q[i]);
                if let Some(m) = row.min.get(b) {
                    v += m;
                }
                assert_eq!(
                    v.to_bits(),
                    w.to_bits(),
                    "{ty:?} value {i}: {v} against {w}"
                );
            }
        }
    }

    #[test]
    fn every_kernel_gives_the_scalar_bits() {
        let kernels = Kernel::available();
        let mut s = 3u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as u32
        };
        // Block counts that exercise the eight-block path and its remainder; every type (with
        // and without a minimum, halves scaled apart); the extreme bytes.
        for ty in TYPES {
            for blocks in [8, 1, 7, 9, 18, 48] {
                let (per, size) = ty.block();
                if !(blocks * BLOCK).is_multiple_of(per) {
                    continue;
                }
                // One input (a token: blocks read as stored), two, and prompts: nine (four at a
                // time, then one at a time) and nineteen (AVX-512: eight at a time, then one); one
                // row, and rows past one tile of rows and into the next (odd counts: a token's four
                // rows at a time, then the rest).
                for (n, rows) in [(1, 1), (2, 1), (9, 1), (19, 1), (1, 37), (9, 37), (19, 37)] {
                    let row_values = blocks * BLOCK;
                    let bytes = blocks_of(ty, rows * row_values / per, u64::from(next()));
                    assert_eq!(bytes.len(), rows * row_values / per * size);
                    let mut bytes = bytes;
                    if ty == GgmlType::Q8_0 {
                        bytes[2] = 0x80;
                    }
                    let row_bytes = bytes.len() / rows;
                    let xs: Vec<f32> = (0..n * row_values)
                        .map(|_| (next() % 2001) as f32 / 100.0 - 10.0)
                        .collect();
                    let mut acts = QuantizedActs::default();
                    acts.quantize(&xs);
                    let mut want = vec![0u32; n * rows];
                    let mut row = UnpackedRow::default();
                    for (r, rb) in bytes.chunks_exact(row_bytes).enumerate() {
                        row.unpack(ty, rb);
                        for t in 0..n {
                            want[t * rows + r] = dot_scalar(&row, &acts, t).to_bits();
                        }
                    }
                    for k in &kernels {
                        let mut got = vec![0.0f32; n * rows];
                        k.rows(
                            ty,
                            &bytes,
                            row_bytes,
                            &acts,
                            &mut got,
                            rows,
                            &mut UnpackedRow::default(),
                        );
                        let got: Vec<u32> = got.iter().map(|v| v.to_bits()).collect();
                        assert_eq!(
                            got,
                            want,
                            "{} on {ty:?}, {blocks} blocks, {n} inputs, {rows} rows",
                            k.name()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_integer_product_is_near_the_f32_product() {
        for ty in TYPES {
            let (per, _) = ty.block();
            let bytes = blocks_of(ty, 512 / per, 11);
            let mut w = vec![0.0f32; 512];
            dequantize_into(ty, &bytes, &mut w);
            let x: Vec<f32> = (0..512)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
                .collect();
            let exact: f32 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
            let mut acts = QuantizedActs::default();
            acts.quantize(&x);
            let mut row = UnpackedRow::default();
            row.unpack(ty, &bytes);
            let got = dot_scalar(&row, &acts, 0);
            let scale: f32 = w.iter().zip(&x).map(|(a, b)| (a * b).abs()).sum();
            assert!(
                (got - exact).abs() <= 0.01 * scale,
                "{ty:?}: {got} against {exact} (Σ|w·x| {scale})"
            );
        }
    }
}
