//! GGUF (versions 2 and 3), read from bytes: the header, the metadata, the tensor table, and each
//! tensor dequantized on demand. Every length is checked against what is left of the file before
//! anything is allocated, so a truncated or hostile file gives a message naming what is wrong.

use std::collections::BTreeMap;

use crate::DecoderError;
use crate::quant::{GgmlType, dequantize};

/// A metadata value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Any unsigned integer type.
    Uint(u64),
    /// Any signed integer type.
    Int(i64),
    /// f32 or f64.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string (UTF-8, lossily).
    Str(String),
    /// An array.
    Array(Vec<Value>),
}

impl Value {
    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Uint(v) => Some(*v),
            Value::Int(v) => u64::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The value as a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One tensor of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    /// Its name (`blk.0.attn_q.weight`...).
    pub name: String,
    /// Dimensions, fastest-varying first (GGML's `ne`).
    pub dims: Vec<u64>,
    /// GGML's type number.
    pub type_id: u32,
    /// Where its data starts, from the start of the file.
    pub start: u64,
    /// How many bytes it takes.
    pub len: u64,
}

impl TensorInfo {
    /// Its number of values.
    pub fn n_values(&self) -> u64 {
        self.dims.iter().product()
    }
}

/// A parsed GGUF file, borrowing its bytes.
#[derive(Debug)]
pub struct Gguf<'a> {
    /// The format version (2 or 3).
    pub version: u32,
    /// Metadata by key.
    pub metadata: BTreeMap<String, Value>,
    /// The tensors, in file order.
    pub tensors: Vec<TensorInfo>,
    bytes: &'a [u8],
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64, what: &str) -> Result<&'a [u8], String> {
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(format!(
                "the file is truncated: {what} needs {n} bytes at offset {}, and {left} are left",
                self.at
            ));
        }
        let s = &self.bytes[self.at..self.at + n as usize];
        self.at += n as usize;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
    fn string(&mut self, what: &str) -> Result<String, String> {
        let n = self.u64(what)?;
        Ok(String::from_utf8_lossy(self.take(n, what)?).into_owned())
    }
    /// A count of items that each take at least `min_bytes`: refused when the file cannot hold them.
    fn count(&mut self, what: &str, min_bytes: u64) -> Result<u64, String> {
        let n = self.u64(what)?;
        let left = (self.bytes.len() - self.at) as u64;
        if n.saturating_mul(min_bytes) > left {
            return Err(format!(
                "the file is truncated or damaged: {what} says {n}, which cannot fit in the {left} bytes left"
            ));
        }
        Ok(n)
    }
    fn value(&mut self, ty: u32, key: &str, depth: u32) -> Result<Value, String> {
        let what = format!("metadata value {key}");
        Ok(match ty {
            0 => Value::Uint(u64::from(self.take(1, &what)?[0])),
            1 => Value::Int(i64::from(self.take(1, &what)?[0] as i8)),
            2 => Value::Uint(u64::from(u16::from_le_bytes(
                self.take(2, &what)?.try_into().unwrap_or([0; 2]),
            ))),
            3 => Value::Int(i64::from(i16::from_le_bytes(
                self.take(2, &what)?.try_into().unwrap_or([0; 2]),
            ))),
            4 => Value::Uint(u64::from(self.u32(&what)?)),
            5 => Value::Int(i64::from(self.u32(&what)? as i32)),
            6 => Value::Float(f64::from(f32::from_bits(self.u32(&what)?))),
            7 => Value::Bool(self.take(1, &what)?[0] != 0),
            8 => Value::Str(self.string(&what)?),
            9 => {
                if depth > 2 {
                    return Err(format!("metadata value {key} nests arrays too deeply"));
                }
                let elem = self.u32(&what)?;
                let n = self.count(&what, 1)?;
                let mut items = Vec::with_capacity(n.min(1 << 20) as usize);
                for _ in 0..n {
                    items.push(self.value(elem, key, depth + 1)?);
                }
                Value::Array(items)
            }
            10 => Value::Uint(self.u64(&what)?),
            11 => Value::Int(self.u64(&what)? as i64),
            12 => Value::Float(f64::from_bits(self.u64(&what)?)),
            other => return Err(format!("metadata value {key} has an unknown type {other}")),
        })
    }
}

impl<'a> Gguf<'a> {
    /// Reads the header, metadata and tensor table of `bytes`, and checks that every tensor's
    /// data lies inside the file.
    pub fn parse(bytes: &'a [u8]) -> Result<Gguf<'a>, DecoderError> {
        Self::read(bytes).map_err(DecoderError::Model)
    }

    fn read(bytes: &'a [u8]) -> Result<Gguf<'a>, String> {
        let mut r = Reader { bytes, at: 0 };
        let magic = r
            .take(4, "the magic number")
            .map_err(|_| "not a GGUF file: it is shorter than a header".to_owned())?;
        if magic != b"GGUF" {
            return Err(format!(
                "not a GGUF file: it starts with {:?}, not \"GGUF\"",
                String::from_utf8_lossy(magic)
            ));
        }
        let version = r.u32("the version")?;
        if !(2..=3).contains(&version) {
            return Err(format!(
                "GGUF version {version} is not supported (2 and 3 are)"
            ));
        }
        let n_tensors = r.count("the tensor count", 8 + 4 + 8 + 4 + 8)?;
        let n_kv = r.count("the metadata count", 8 + 4)?;
        let mut metadata = BTreeMap::new();
        for _ in 0..n_kv {
            let key = r.string("a metadata key")?;
            let ty = r.u32("a metadata type")?;
            let v = r.value(ty, &key, 0)?;
            metadata.insert(key, v);
        }
        let mut tensors = Vec::with_capacity(n_tensors as usize);
        for _ in 0..n_tensors {
            let name = r.string("a tensor name")?;
            let n_dims = r.u32(&format!("the dimensions of {name}"))?;
            if n_dims == 0 || n_dims > 4 {
                return Err(format!(
                    "tensor {name} has {n_dims} dimensions (1 to 4 are possible)"
                ));
            }
            let mut dims = Vec::with_capacity(n_dims as usize);
            for _ in 0..n_dims {
                dims.push(r.u64(&format!("the dimensions of {name}"))?);
            }
            let type_id = r.u32(&format!("the type of {name}"))?;
            let offset = r.u64(&format!("the offset of {name}"))?;
            tensors.push((name, dims, type_id, offset));
        }
        let alignment = metadata
            .get("general.alignment")
            .and_then(Value::as_u64)
            .unwrap_or(32)
            .max(1);
        let data_start = (r.at as u64).div_ceil(alignment) * alignment;
        let tensors = tensors
            .into_iter()
            .map(|(name, dims, type_id, offset)| {
                let n: u64 = dims.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).ok_or_else(|| format!("tensor {name} has absurd dimensions {dims:?}"))?;
                let ty = GgmlType::from_id(type_id)
                    .ok_or_else(|| format!("tensor {name} is {} (type {type_id}), a quantization this reader does not know", GgmlType::name_of(type_id)))?;
                let len = ty.bytes_for(n).ok_or_else(|| format!("tensor {name} has {n} values, not a whole number of {} blocks", GgmlType::name_of(type_id)))?;
                let start = data_start.checked_add(offset).ok_or_else(|| format!("tensor {name} has an absurd offset"))?;
                if start.saturating_add(len) > bytes.len() as u64 {
                    return Err(format!("the file is truncated: tensor {name} needs bytes {start}..{} and the file has {}", start + len, bytes.len()));
                }
                Ok(TensorInfo { name, dims, type_id, start, len })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Gguf {
            version,
            metadata,
            tensors,
            bytes,
        })
    }

    /// The tensor `name`, if the file has it.
    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.iter().find(|t| t.name == name)
    }

    /// A tensor's values as f32 (dequantized), in GGML's order (fastest dimension first).
    pub fn to_f32(&self, t: &TensorInfo) -> Vec<f32> {
        let mut out = Vec::with_capacity(t.n_values() as usize);
        if let Some(ty) = GgmlType::from_id(t.type_id) {
            dequantize(
                ty,
                &self.bytes[t.start as usize..(t.start + t.len) as usize],
                &mut out,
            );
        }
        out
    }

    /// The metadata value `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(n_tensors: u64, n_kv: u64) -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(n_tensors.to_le_bytes());
        b.extend(n_kv.to_le_bytes());
        b
    }

    #[test]
    fn hostile_headers_are_messages() {
        assert!(
            Gguf::parse(b"GG")
                .expect_err("refused")
                .to_string()
                .contains("not a GGUF file")
        );
        assert!(
            Gguf::parse(b"PK\x03\x04rest")
                .expect_err("refused")
                .to_string()
                .contains("not a GGUF file")
        );
        let mut b = b"GGUF".to_vec();
        b.extend(9u32.to_le_bytes());
        assert!(
            Gguf::parse(&b)
                .expect_err("refused")
                .to_string()
                .contains("version 9")
        );
        // A count that cannot fit is refused before anything is allocated.
        assert!(
            Gguf::parse(&header(u64::MAX, 0))
                .expect_err("refused")
                .to_string()
                .contains("cannot fit")
        );
        let mut b = header(0, 1);
        b.extend(4u64.to_le_bytes());
        b.extend(b"name");
        b.extend(8u32.to_le_bytes());
        b.extend(1000u64.to_le_bytes());
        b.extend(b"short");
        assert!(
            Gguf::parse(&b)
                .expect_err("refused")
                .to_string()
                .contains("truncated")
        );
    }

    #[test]
    fn an_unknown_quantization_is_named() {
        let mut b = header(1, 0);
        b.extend(1u64.to_le_bytes());
        b.push(b'w');
        b.extend(1u32.to_le_bytes());
        b.extend(256u64.to_le_bytes());
        b.extend(13u32.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        b.resize(1024, 0);
        let e = Gguf::parse(&b).expect_err("refused");
        let e = e.to_string();
        assert!(e.contains("Q5_K") && e.contains("tensor w"), "{e}");
    }
}
