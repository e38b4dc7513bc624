//! GGML's tensor types and their dequantization to f32, block by block, as ggml's reference
//! (`ggml-quants.c`) and the `gguf` Python package define them.

/// A tensor's storage type (GGML's numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GgmlType {
    /// 4-byte floats.
    F32,
    /// IEEE halves.
    F16,
    /// bfloat16.
    Bf16,
    /// Blocks of 32: an f16 scale, 32 signed bytes.
    Q8_0,
    /// Blocks of 32: an f16 scale, 32 nibbles offset by 8.
    Q4_0,
    /// Blocks of 32: an f16 scale and minimum, 32 nibbles.
    Q4_1,
    /// Blocks of 32: an f16 scale, 32 fifth bits, 32 nibbles; offset by 16.
    Q5_0,
    /// Blocks of 32: an f16 scale and minimum, 32 fifth bits, 32 nibbles.
    Q5_1,
    /// Super-blocks of 256: f16 scale and minimum, 8 six-bit sub-scales and minima, nibbles.
    Q4K,
    /// Super-blocks of 256: 6-bit values (low nibbles and high pairs), 16 signed sub-scales, f16 scale.
    Q6K,
}

impl GgmlType {
    /// The type for GGML's number, or `None` for one this reader does not dequantize.
    pub fn from_id(id: u32) -> Option<GgmlType> {
        Some(match id {
            0 => GgmlType::F32,
            1 => GgmlType::F16,
            8 => GgmlType::Q8_0,
            2 => GgmlType::Q4_0,
            3 => GgmlType::Q4_1,
            6 => GgmlType::Q5_0,
            7 => GgmlType::Q5_1,
            12 => GgmlType::Q4K,
            14 => GgmlType::Q6K,
            30 => GgmlType::Bf16,
            _ => return None,
        })
    }

    /// GGML's name of a type number, for messages (also for the types this reader refuses).
    pub fn name_of(id: u32) -> &'static str {
        const NAMES: [&str; 31] = [
            "F32", "F16", "Q4_0", "Q4_1", "Q4_2", "Q4_3", "Q5_0", "Q5_1", "Q8_0", "Q8_1", "Q2_K",
            "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K", "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S",
            "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS", "I8", "I16", "I32", "I64", "F64", "IQ1_M",
            "BF16",
        ];
        NAMES.get(id as usize).copied().unwrap_or("unknown")
    }

    /// Values per block, and bytes per block.
    pub fn block(self) -> (usize, usize) {
        match self {
            GgmlType::F32 => (1, 4),
            GgmlType::F16 | GgmlType::Bf16 => (1, 2),
            GgmlType::Q8_0 => (32, 34),
            GgmlType::Q4_0 => (32, 18),
            GgmlType::Q4_1 => (32, 20),
            GgmlType::Q5_0 => (32, 22),
            GgmlType::Q5_1 => (32, 24),
            GgmlType::Q4K => (256, 144),
            GgmlType::Q6K => (256, 210),
        }
    }

    /// Bytes that `n` values take, or `None` when `n` is not a whole number of blocks.
    pub fn bytes_for(self, n: u64) -> Option<u64> {
        let (per, bytes) = self.block();
        n.is_multiple_of(per as u64)
            .then(|| n / per as u64 * bytes as u64)
    }
}

fn f16(b: &[u8]) -> f32 {
    half::f16::from_le_bytes([b[0], b[1]]).to_f32()
}

/// Dequantizes `data` (whole blocks of `ty`) into `out` (one f32 a value), appended.
pub fn dequantize(ty: GgmlType, data: &[u8], out: &mut Vec<f32>) {
    let (per, bytes) = ty.block();
    let at = out.len();
    out.resize(at + data.len() / bytes * per, 0.0);
    dequantize_into(ty, data, &mut out[at..]);
}

/// Dequantizes `data` (whole blocks of `ty`) into `out`, which holds exactly its values: the
/// matrix product's hot path, written block by block into a slice (no growth checks) so that
/// the compiler vectorizes the common types. The one implementation of every type's formula
/// (`dequantize` appends through it), tested bit for bit against the `gguf` package.
pub fn dequantize_into(ty: GgmlType, data: &[u8], out: &mut [f32]) {
    let (per, bytes) = ty.block();
    match ty {
        GgmlType::Q8_0 => {
            for (b, o) in data.chunks_exact(bytes).zip(out.chunks_exact_mut(per)) {
                let d = f16(b);
                for (o, &q) in o.iter_mut().zip(&b[2..34]) {
                    *o = d * f32::from(q as i8);
                }
            }
        }
        GgmlType::Q4_0 => {
            for (b, o) in data.chunks_exact(bytes).zip(out.chunks_exact_mut(per)) {
                let d = f16(b);
                let (lo, hi) = o.split_at_mut(16);
                for ((l, h), &q) in lo.iter_mut().zip(hi.iter_mut()).zip(&b[2..18]) {
                    *l = d * (f32::from(q & 0xF) - 8.0);
                    *h = d * (f32::from(q >> 4) - 8.0);
                }
            }
        }
        GgmlType::Q4_1 => {
            for (b, o) in data.chunks_exact(bytes).zip(out.chunks_exact_mut(per)) {
                let (d, m) = (f16(b), f16(&b[2..]));
                let (lo, hi) = o.split_at_mut(16);
                for ((l, h), &q) in lo.iter_mut().zip(hi.iter_mut()).zip(&b[4..20]) {
                    *l = d * f32::from(q & 0xF) + m;
                    *h = d * f32::from(q >> 4) + m;
                }
            }
        }
        GgmlType::F32 => {
            for (b, o) in data.chunks_exact(4).zip(out.iter_mut()) {
                *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        GgmlType::F16 => {
            for (b, o) in data.chunks_exact(2).zip(out.iter_mut()) {
                *o = f16(b);
            }
        }
        GgmlType::Q5_0 | GgmlType::Q5_1 | GgmlType::Q4K | GgmlType::Q6K => {
            for (b, o) in data.chunks_exact(bytes).zip(out.chunks_exact_mut(per)) {
                dequantize_block(ty, b, o);
            }
        }
        GgmlType::Bf16 => {
            for (b, o) in data.chunks_exact(2).zip(out.iter_mut()) {
                *o = half::bf16::from_le_bytes([b[0], b[1]]).to_f32();
            }
        }
    }
}

/// One block of the types whose blocks are written into a slice by their own function.
fn dequantize_block(ty: GgmlType, b: &[u8], out: &mut [f32]) {
    match ty {
        GgmlType::Q5_0 => dequantize_q5(f16(b), None, &b[2..22], out),
        GgmlType::Q5_1 => dequantize_q5(f16(b), Some(f16(&b[2..])), &b[4..24], out),
        GgmlType::Q4K => dequantize_q4_k(b, out),
        GgmlType::Q6K => dequantize_q6_k(b, out),
        _ => {}
    }
}

/// A Q5 block after its scale (and minimum): the 32 fifth bits as a little-endian u32, then 16
/// bytes of nibbles (values `j` low, `j + 16` high). Q5_0 centres the values on 16; Q5_1 adds
/// its minimum.
fn dequantize_q5(d: f32, min: Option<f32>, b: &[u8], out: &mut [f32]) {
    let qh = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let qs = &b[4..20];
    let (lo, hi) = out.split_at_mut(16);
    for (j, ((l, h), &q)) in lo.iter_mut().zip(hi.iter_mut()).zip(qs).enumerate() {
        let ql = u32::from(q & 0xF) | (((qh >> j) << 4) & 0x10);
        let qhi = u32::from(q >> 4) | ((qh >> (j + 12)) & 0x10);
        match min {
            None => {
                *l = d * (ql as f32 - 16.0);
                *h = d * (qhi as f32 - 16.0);
            }
            Some(m) => {
                *l = d * ql as f32 + m;
                *h = d * qhi as f32 + m;
            }
        }
    }
}

/// The `j`-th six-bit scale and minimum of a Q4_K super-block's 12 packed bytes.
fn scale_min_k4(j: usize, q: &[u8]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        (
            (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4),
            (q[j + 4] >> 4) | ((q[j] >> 6) << 4),
        )
    }
}

/// A Q4_K super-block's eight sub-blocks of 32 values: each one's scale and minimum (value =
/// scale · q - min). Sub-blocks `2c` and `2c + 1` take their quants from the low and the high
/// nibbles of the block's 32-byte chunk `c` (bytes 16 to 144). The one reading of the scales,
/// for the CPU's dequantization and the GPU's packing.
pub fn q4_k_scales(b: &[u8]) -> [(f32, f32); 8] {
    let (d, dmin) = (f16(b), f16(&b[2..]));
    let scales = &b[4..16];
    std::array::from_fn(|j| {
        let (sc, m) = scale_min_k4(j, scales);
        (d * f32::from(sc), dmin * f32::from(m))
    })
}

fn dequantize_q4_k(b: &[u8], out: &mut [f32]) {
    let scales = q4_k_scales(b);
    for ((chunk, q), o) in b[16..144]
        .chunks_exact(32)
        .enumerate()
        .zip(out.chunks_exact_mut(64))
    {
        let ((d1, min1), (d2, min2)) = (scales[2 * chunk], scales[2 * chunk + 1]);
        let (lo, hi) = o.split_at_mut(32);
        for ((l, h), &v) in lo.iter_mut().zip(hi.iter_mut()).zip(q) {
            *l = d1 * f32::from(v & 0xF) - min1;
            *h = d2 * f32::from(v >> 4) - min2;
        }
    }
}

fn dequantize_q6_k(b: &[u8], y: &mut [f32]) {
    let (ql_all, qh_all, sc_all) = (&b[..128], &b[128..192], &b[192..208]);
    let d = f16(&b[208..]);
    for half in 0..2 {
        let (ql, qh, sc) = (
            &ql_all[half * 64..],
            &qh_all[half * 32..],
            &sc_all[half * 8..],
        );
        let y = &mut y[half * 128..];
        for l in 0..32 {
            let is = l / 16;
            let q1 = i32::from((ql[l] & 0xF) | ((qh[l] & 3) << 4)) - 32;
            let q2 = i32::from((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
            let q3 = i32::from((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            let q4 = i32::from((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            let s = |k: usize| d * f32::from(sc[is + k] as i8);
            y[l] = s(0) * q1 as f32;
            y[l + 32] = s(2) * q2 as f32;
            y[l + 64] = s(4) * q3 as f32;
            y[l + 96] = s(6) * q4 as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q4_0_and_q8_0_by_hand() {
        // d = 0.5 (f16 0x3800); nibbles 0..15 low, 15..0 high.
        let mut b = vec![0x00, 0x38];
        b.extend((0..16u8).map(|i| i | ((15 - i) << 4)));
        let mut out = Vec::new();
        dequantize(GgmlType::Q4_0, &b, &mut out);
        assert_eq!(out[0], -4.0);
        assert_eq!(out[15], 3.5);
        assert_eq!(out[16], 3.5);
        assert_eq!(out.len(), 32);
        let mut b = vec![0x00, 0x3C];
        b.extend((0..32).map(|i| (i as i8 - 16) as u8));
        out.clear();
        dequantize(GgmlType::Q8_0, &b, &mut out);
        assert_eq!(out[0], -16.0);
        assert_eq!(out[31], 15.0);
    }

    #[test]
    fn sizes_and_names() {
        assert_eq!(GgmlType::Q4K.bytes_for(512), Some(288));
        assert_eq!(GgmlType::Q8_0.bytes_for(33), None);
        assert_eq!(GgmlType::name_of(13), "Q5_K");
        assert_eq!(GgmlType::Q5_0.bytes_for(64), Some(44));
        assert_eq!(GgmlType::from_id(13), None);
    }
}
