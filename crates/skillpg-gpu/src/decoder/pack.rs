//! How a weight matrix is laid out on the device: the file's own storage where a kernel reads
//! it (F32, F16, BF16 as stored; Q8_0, Q4_0, Q4_1 and Q4_K as blocks of 32 with an f32 scale and
//! minimum), every other type widened to f16 once at load. [`Packed::row`] is the CPU twin of
//! each storage's `load_w8`.

use skillpg_decoder::model::MatrixView;
use skillpg_decoder::quant::{GgmlType, dequantize_into, q4_k_scales};

/// How a weight matrix is stored on the device (each has its `load_w` in WGSL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Storage {
    /// f32, a word a value.
    F32,
    /// IEEE halves, two a word.
    F16,
    /// bfloat16, two a word.
    Bf16,
    /// Blocks of 32: scale, minimum, 32 signed bytes (10 words).
    Q8,
    /// Blocks of 32: scale, minimum, 16 bytes of nibbles (6 words).
    Q4,
}

impl Storage {
    /// Every storage, in the order the product modules are compiled.
    pub const ALL: [Storage; 5] = [
        Storage::F32,
        Storage::F16,
        Storage::Bf16,
        Storage::Q8,
        Storage::Q4,
    ];

    /// The WGSL that reads this storage (`load_w8`).
    pub(super) fn source(self) -> &'static str {
        match self {
            Storage::F32 => include_str!("store_f32.wgsl"),
            Storage::F16 => include_str!("store_f16.wgsl"),
            Storage::Bf16 => include_str!("store_bf16.wgsl"),
            Storage::Q8 => include_str!("store_q8.wgsl"),
            Storage::Q4 => include_str!("store_q4.wgsl"),
        }
    }

    /// Bytes a stored value takes, on average (for the benchmarks' bandwidth).
    pub fn bytes_per_value(self) -> f64 {
        match self {
            Storage::F32 => 4.0,
            Storage::F16 | Storage::Bf16 => 2.0,
            Storage::Q8 => 40.0 / 32.0,
            Storage::Q4 => 24.0 / 32.0,
        }
    }
}

/// A weight matrix laid out for the kernels: `rows` rows of `row_words` words.
#[derive(Debug, Clone, PartialEq)]
pub struct Packed {
    /// The layout.
    pub storage: Storage,
    /// Rows (outputs).
    pub rows: usize,
    /// Values a row (inputs).
    pub cols: usize,
    /// Words a row.
    pub row_words: usize,
    /// The rows, one after another.
    pub words: Vec<u32>,
}

fn f16_at(b: &[u8], at: usize) -> f32 {
    half::f16::from_le_bytes([b[at], b[at + 1]]).to_f32()
}

fn words_of(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Lays a matrix out for the kernels: F32, F16 and BF16 as the file has them (halves in pairs),
/// Q8_0, Q4_0 and Q4_1 as blocks with an f32 scale and minimum and the file's own quants, Q4_K as
/// one such Q4 block a sub-block, and every other type dequantized with `skillpg_decoder::quant`
/// and stored in f16.
pub fn pack(m: &MatrixView<'_>) -> Packed {
    let (rows, cols) = (m.rows, m.cols);
    let blocks = cols / 32;
    let even = cols.is_multiple_of(2);
    let packed = |storage, row_words, words: Vec<u32>| Packed {
        storage,
        rows,
        cols,
        row_words,
        words,
    };
    match m.ty {
        GgmlType::F32 => packed(Storage::F32, cols, words_of(m.bytes).collect()),
        GgmlType::F16 if even => packed(Storage::F16, cols / 2, words_of(m.bytes).collect()),
        GgmlType::Bf16 if even => packed(Storage::Bf16, cols / 2, words_of(m.bytes).collect()),
        GgmlType::Q8_0 => {
            let mut words = Vec::with_capacity(rows * blocks * 10);
            for block in m.bytes.chunks_exact(34) {
                words.extend([f16_at(block, 0).to_bits(), 0.0f32.to_bits()]);
                words.extend(words_of(&block[2..34]));
            }
            packed(Storage::Q8, blocks * 10, words)
        }
        GgmlType::Q4_0 | GgmlType::Q4_1 => {
            let (size, quants) = if m.ty == GgmlType::Q4_0 {
                (18, 2)
            } else {
                (20, 4)
            };
            let mut words = Vec::with_capacity(rows * blocks * 6);
            for block in m.bytes.chunks_exact(size) {
                let d = f16_at(block, 0);
                let min = if m.ty == GgmlType::Q4_0 {
                    -8.0 * d
                } else {
                    f16_at(block, 2)
                };
                words.extend([d.to_bits(), min.to_bits()]);
                words.extend(words_of(&block[quants..quants + 16]));
            }
            packed(Storage::Q4, blocks * 6, words)
        }
        GgmlType::Q4K => {
            // Each sub-block of 32 is a Q4 block: its scale, minus its minimum, its quants
            // re-nibbled in Q4_0's order (value j and j + 16 share byte j).
            let mut words = Vec::with_capacity(rows * blocks * 6);
            for block in m.bytes.chunks_exact(144) {
                for (j, (scale, min)) in q4_k_scales(block).into_iter().enumerate() {
                    let chunk = &block[16 + 32 * (j / 2)..16 + 32 * (j / 2 + 1)];
                    let q = |i: usize| {
                        if j % 2 == 0 {
                            chunk[i] & 0xF
                        } else {
                            chunk[i] >> 4
                        }
                    };
                    let bytes: Vec<u8> = (0..16).map(|i| q(i) | (q(i + 16) << 4)).collect();
                    words.extend([scale.to_bits(), (-min).to_bits()]);
                    words.extend(words_of(&bytes));
                }
            }
            packed(Storage::Q4, blocks * 6, words)
        }
        _ => {
            let (per, block_bytes) = m.ty.block();
            let row_bytes = cols / per * block_bytes;
            let mut row = vec![0.0f32; cols];
            let rows_f32 = (0..rows).flat_map(|r| {
                dequantize_into(m.ty, &m.bytes[r * row_bytes..(r + 1) * row_bytes], &mut row);
                row.clone()
            });
            if even {
                let halves: Vec<u16> = rows_f32.map(|v| half::f16::from_f32(v).to_bits()).collect();
                let words = halves
                    .chunks_exact(2)
                    .map(|h| u32::from(h[0]) | (u32::from(h[1]) << 16))
                    .collect();
                packed(Storage::F16, cols / 2, words)
            } else {
                // An odd row cannot pair its halves: keep f32.
                packed(Storage::F32, cols, rows_f32.map(f32::to_bits).collect())
            }
        }
    }
}

impl Packed {
    /// Row `r` in f32, as the kernels read it (the twin of `load_w`).
    pub fn row(&self, r: usize) -> Vec<f32> {
        let w = &self.words[r * self.row_words..(r + 1) * self.row_words];
        (0..self.cols)
            .map(|k| match self.storage {
                Storage::F32 => f32::from_bits(w[k]),
                Storage::F16 => half::f16::from_bits((w[k / 2] >> (16 * (k % 2))) as u16).to_f32(),
                Storage::Bf16 => f32::from_bits(if k % 2 == 0 {
                    w[k / 2] << 16
                } else {
                    w[k / 2] & 0xffff_0000
                }),
                Storage::Q8 => {
                    let b = &w[k / 32 * 10..];
                    let j = k % 32;
                    let q = (b[2 + j / 4] >> (8 * (j % 4))) as u8 as i8;
                    f32::from_bits(b[0]) * f32::from(q) + f32::from_bits(b[1])
                }
                Storage::Q4 => {
                    let b = &w[k / 32 * 6..];
                    let j = k % 32;
                    let byte = j % 16;
                    let q = (b[2 + byte / 4] >> (8 * (byte % 4) + 4 * (j / 16))) & 15;
                    f32::from_bits(b[0]) * q as f32 + f32::from_bits(b[1])
                }
            })
            .collect()
    }
}

impl Packed {
    /// Matrices with the same storage and width, their rows one after another (the fused
    /// `[q | k | v]` and `[gate | up]` products); `None` when they differ.
    pub fn stack(parts: &[Packed]) -> Option<Packed> {
        let first = parts.first()?;
        if parts.iter().any(|p| {
            p.storage != first.storage || p.cols != first.cols || p.row_words != first.row_words
        }) {
            return None;
        }
        let words = parts.iter().flat_map(|p| p.words.iter().copied()).collect();
        Some(Packed {
            storage: first.storage,
            rows: parts.iter().map(|p| p.rows).sum(),
            cols: first.cols,
            row_words: first.row_words,
            words,
        })
    }
}
