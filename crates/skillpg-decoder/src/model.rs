//! The decoder's forward pass for routing: Llama (SmolLM2) and Qwen2 (Qwen2.5), from a GGUF or a
//! Hugging Face checkpoint (`config.json` and `model.safetensors`), weights kept in
//! the file's own storage type and dequantized a row at a time inside the matrix multiply, f32
//! arithmetic, and a key/value cache so that a prompt's shared prefix is computed once.
//!
//! `llama.rs` is the plain f32 reference this is tested against (and both against candle).
//! Invariants:
//! - the model owns the file's bytes and never copies a weight matrix: a matrix is a type, a
//!   shape and a byte range;
//! - `forward` appends exactly `ids.len()` positions to the cache, and the logits it returns
//!   are those of the positions asked for, in order;
//! - a cache truncated back to a length is exactly the cache that length had (prefix reuse).

use crate::DecoderError;
use crate::gguf::{Gguf, Value};
use crate::qdot::{self, Kernel, QuantizedActs, UnpackedRow};
use crate::quant::{GgmlType, dequantize_into};

/// Which decoder family a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Llama and SmolLM2: no attention biases.
    Llama,
    /// Qwen2 and Qwen2.5: biases on the query, key and value projections.
    Qwen2,
}

/// How the rotary embedding pairs a head's dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RopeLayout {
    /// Dimensions `2i` and `2i + 1` rotate together (GGML's "normal" RoPE: `llama` GGUFs store
    /// Q and K permuted for it).
    AdjacentPairs,
    /// Dimensions `i` and `i + d/2` rotate together (NeoX's `rotate_half`, as Hugging Face
    /// implements Llama and Qwen2, and as `qwen2` GGUFs expect).
    Halves,
}

/// A decoder's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// The family.
    pub family: Family,
    /// Width of the residual stream.
    pub dim: usize,
    /// Layers.
    pub layers: usize,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads (grouped-query attention).
    pub kv_heads: usize,
    /// Width of a head.
    pub head_dim: usize,
    /// Feed-forward width.
    pub ff: usize,
    /// Vocabulary size (rows of the LM head).
    pub vocab: usize,
    /// RMSNorm epsilon.
    pub eps: f32,
    /// Rotary base.
    pub rope_base: f32,
    /// Rotary pairing.
    pub rope: RopeLayout,
    /// The longest context the model was trained for.
    pub context: usize,
}

/// A weight matrix `[rows, cols]` as the file stores it: row `r` is `row_bytes` bytes at
/// `start + r * row_bytes`.
#[derive(Debug, Clone, Copy)]
struct Matrix {
    ty: GgmlType,
    rows: usize,
    cols: usize,
    start: usize,
    row_bytes: usize,
}

#[derive(Debug, Clone)]
struct Layer {
    attn_norm: Vec<f32>,
    q: Matrix,
    k: Matrix,
    v: Matrix,
    /// `[q, k, v]` biases (Qwen2), empty otherwise.
    qkv_bias: Option<[Vec<f32>; 3]>,
    o: Matrix,
    ffn_norm: Vec<f32>,
    gate: Matrix,
    up: Matrix,
    down: Matrix,
}

/// A loaded decoder: the file's bytes and where its tensors are.
#[derive(Clone)]
pub struct Decoder {
    /// Its shape.
    pub config: Config,
    bytes: Vec<u8>,
    embed: Matrix,
    layers: Vec<Layer>,
    norm: Vec<f32>,
    head: Matrix,
    /// `base^(-2i/d)` for each rotated pair.
    inv_freq: Vec<f32>,
    /// Threads a prompt's matrix products share natively (1 in wasm).
    threads: usize,
    /// How quantized matrices multiply.
    arithmetic: Arithmetic,
    /// The integer kernel this CPU runs.
    kernel: Kernel,
}

/// How a quantized weight matrix multiplies its inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arithmetic {
    /// Each row dequantized to f32 and multiplied in f32: the reference (`llama.rs`) to within
    /// rounding.
    F32,
    /// Inputs quantized to 16-bit integers per block of 32 and multiplied by the quantized rows
    /// in integers, as llama.cpp multiplies (with 8-bit inputs) (`qdot.rs`): faster; logits
    /// within about 0.02 of the reference's on SmolLM2, and greedy answers the reference's
    /// wherever its top two logits are more than 0.01 apart (`tests/smollm2_protocol.rs`).
    Integer,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder")
            .field("config", &self.config)
            .field("bytes", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

/// Keys and values of every position computed so far, per layer.
#[derive(Debug, Clone, Default)]
pub struct KvCache {
    len: usize,
    /// Per layer, `len × kv_dim` keys (rotated) and values.
    keys: Vec<Vec<f32>>,
    values: Vec<Vec<f32>>,
}

impl KvCache {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every position from `len` on (a prompt's shared prefix is kept, a request's
    /// tokens dropped).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let kv_dim = self.keys.first().map_or(0, |k| k.len() / self.len.max(1));
        for (k, v) in self.keys.iter_mut().zip(&mut self.values) {
            k.truncate(len * kv_dim);
            v.truncate(len * kv_dim);
        }
        self.len = len;
    }
}

/// A matrix product's inputs, quantized on first use and then shared by every product of the
/// same inputs (the query, key and value projections; the gate and the up projection).
struct Input<'a> {
    xs: &'a [f32],
    quantized: std::cell::OnceCell<QuantizedActs>,
}

impl<'a> Input<'a> {
    fn new(xs: &'a [f32]) -> Self {
        Input {
            xs,
            quantized: std::cell::OnceCell::new(),
        }
    }

    fn quantized(&self) -> &QuantizedActs {
        self.quantized.get_or_init(|| {
            let mut a = QuantizedActs::default();
            qdot::with_wide_vectors(Quantize {
                acts: &mut a,
                xs: self.xs,
            });
            a
        })
    }
}

/// Quantizing a product's inputs, with wide vectors.
struct Quantize<'a> {
    acts: &'a mut QuantizedActs,
    xs: &'a [f32],
}

impl qdot::Wide for Quantize<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.acts.quantize(self.xs);
    }
}

/// A layer's attention, with wide vectors: [`attend`]'s arguments.
struct Attention<'a> {
    c: &'a Config,
    q: &'a [f32],
    keys: &'a [f32],
    values: &'a [f32],
    start: usize,
    attn: &'a mut [f32],
    scores: &'a mut Vec<f32>,
}

impl qdot::Wide for Attention<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        attend(
            self.c,
            self.q,
            self.keys,
            self.values,
            self.start,
            self.attn,
            self.scores,
        );
    }
}

/// Which positions' logits `forward` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logits {
    /// None (a prefix being cached).
    None,
    /// The last position's.
    Last,
    /// Every position's, in order.
    All,
}

/// RMSNorm of one row `x` with gains `w` into `out` (the GPU kernel's CPU twin).
pub fn rms_norm_into(x: &[f32], w: &[f32], eps: f32, out: &mut [f32]) {
    let ms = x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32;
    let inv = 1.0 / (ms + eps).sqrt();
    for ((o, v), g) in out.iter_mut().zip(x).zip(w) {
        *o = v * inv * g;
    }
}

/// A dot product in eight independent lanes, which the compiler turns into SIMD (wasm
/// `simd128`, SSE2/AVX natively).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// A weight matrix's bytes as the file stores them: `rows` rows of `cols` values of type `ty`.
#[derive(Debug, Clone, Copy)]
pub struct MatrixView<'a> {
    /// Storage type.
    pub ty: GgmlType,
    /// Rows (outputs).
    pub rows: usize,
    /// Values a row (inputs).
    pub cols: usize,
    /// The rows, one after another.
    pub bytes: &'a [u8],
}

/// One layer's weights, borrowed from the model.
#[derive(Debug, Clone, Copy)]
pub struct LayerView<'a> {
    pub attn_norm: &'a [f32],
    pub q: MatrixView<'a>,
    pub k: MatrixView<'a>,
    pub v: MatrixView<'a>,
    /// Query, key and value biases (Qwen2).
    pub qkv_bias: Option<[&'a [f32]; 3]>,
    pub o: MatrixView<'a>,
    pub ffn_norm: &'a [f32],
    pub gate: MatrixView<'a>,
    pub up: MatrixView<'a>,
    pub down: MatrixView<'a>,
}

/// Causal grouped-query attention of the `q.len() / dim` queries at positions `start..` over
/// every cached key and value up to each (`keys`, `values`: `kv_dim` values a position), into
/// `attn` (the GPU kernel's CPU twin). `scores` is scratch.
#[inline(always)]
pub fn attend(
    c: &Config,
    q: &[f32],
    keys: &[f32],
    values: &[f32],
    start: usize,
    attn: &mut [f32],
    scores: &mut Vec<f32>,
) {
    let (dim, hd, kv_dim) = (c.dim, c.head_dim, c.kv_heads * c.head_dim);
    let group = c.heads / c.kv_heads;
    let scale = 1.0 / (hd as f32).sqrt();
    attn.fill(0.0);
    for t in 0..q.len() / dim {
        let seen = start + t + 1;
        for head in 0..c.heads {
            let kvh = head / group;
            let qh = &q[t * dim + head * hd..t * dim + (head + 1) * hd];
            // A plain loop, not `extend` over a closure: under `with_wide_vectors` only what is
            // inlined gets the wide vectors.
            scores.clear();
            scores.resize(seen, 0.0);
            for (j, sc) in scores.iter_mut().enumerate() {
                *sc = dot(
                    qh,
                    &keys[j * kv_dim + kvh * hd..j * kv_dim + (kvh + 1) * hd],
                ) * scale;
            }
            let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            for s in scores.iter_mut() {
                *s = skillpg_math::exp_nonpositive(*s - max);
                sum += *s;
            }
            let out = &mut attn[t * dim + head * hd..t * dim + (head + 1) * hd];
            for (j, &e) in scores.iter().enumerate() {
                let p = e / sum;
                let vj = &values[j * kv_dim + kvh * hd..j * kv_dim + (kvh + 1) * hd];
                for (o, vv) in out.iter_mut().zip(vj) {
                    *o += p * vv;
                }
            }
        }
    }
}

/// `(sin, cos)` of each rotated pair's angle at position `pos`, for the pairs' `inv_freq`: the
/// same for every head and every layer, so a forward pass computes them once a position. The one
/// computation of the angles, for the CPU's rotation and the table the GPU's kernel reads, so
/// that both rotate by the same numbers.
pub fn rope_angles(inv_freq: &[f32], pos: usize) -> impl Iterator<Item = (f32, f32)> + '_ {
    inv_freq.iter().map(move |&f| (pos as f32 * f).sin_cos())
}

/// A model's shape as its file states it.
struct Hyper {
    family: Family,
    dim: usize,
    layers: usize,
    heads: usize,
    kv_heads: usize,
    ff: usize,
    eps: f32,
    rope_base: f32,
    rope: RopeLayout,
    context: usize,
}

/// Where a tensor is in the file and how it is stored (`dims` fastest first, as GGUF lists them).
struct Found {
    ty: Option<GgmlType>,
    type_name: &'static str,
    dims: Vec<usize>,
    start: usize,
    len: usize,
}

/// The tensors a decoder needs, by role.
#[derive(Clone, Copy)]
enum Part {
    Embed,
    AttnNorm,
    Q,
    K,
    V,
    QBias,
    KBias,
    VBias,
    O,
    FfnNorm,
    Gate,
    Up,
    Down,
    Norm,
    Head,
}

/// A part's name in a GGUF file.
fn gguf_name(part: Part, layer: usize) -> String {
    let blk = |s: &str| format!("blk.{layer}.{s}");
    match part {
        Part::Embed => "token_embd.weight".into(),
        Part::AttnNorm => blk("attn_norm.weight"),
        Part::Q => blk("attn_q.weight"),
        Part::K => blk("attn_k.weight"),
        Part::V => blk("attn_v.weight"),
        Part::QBias => blk("attn_q.bias"),
        Part::KBias => blk("attn_k.bias"),
        Part::VBias => blk("attn_v.bias"),
        Part::O => blk("attn_output.weight"),
        Part::FfnNorm => blk("ffn_norm.weight"),
        Part::Gate => blk("ffn_gate.weight"),
        Part::Up => blk("ffn_up.weight"),
        Part::Down => blk("ffn_down.weight"),
        Part::Norm => "output_norm.weight".into(),
        Part::Head => "output.weight".into(),
    }
}

/// A part's name in a Hugging Face checkpoint.
fn hf_name(part: Part, layer: usize) -> String {
    let l = |s: &str| format!("model.layers.{layer}.{s}");
    match part {
        Part::Embed => "model.embed_tokens.weight".into(),
        Part::AttnNorm => l("input_layernorm.weight"),
        Part::Q => l("self_attn.q_proj.weight"),
        Part::K => l("self_attn.k_proj.weight"),
        Part::V => l("self_attn.v_proj.weight"),
        Part::QBias => l("self_attn.q_proj.bias"),
        Part::KBias => l("self_attn.k_proj.bias"),
        Part::VBias => l("self_attn.v_proj.bias"),
        Part::O => l("self_attn.o_proj.weight"),
        Part::FfnNorm => l("post_attention_layernorm.weight"),
        Part::Gate => l("mlp.gate_proj.weight"),
        Part::Up => l("mlp.up_proj.weight"),
        Part::Down => l("mlp.down_proj.weight"),
        Part::Norm => "model.norm.weight".into(),
        Part::Head => "lm_head.weight".into(),
    }
}

/// A model's parts: its config, the embeddings, the layers, the final norm, the head.
type Parts = (Config, Matrix, Vec<Layer>, Vec<f32>, Matrix);

/// Finds every tensor of a model of shape `h` by `name`, checks each against the shape, and
/// lays the model out; the head is the embeddings when the file has none.
fn assemble(
    h: &Hyper,
    find: &dyn Fn(&str) -> Option<Found>,
    bytes: &[u8],
    name: &dyn Fn(Part, usize) -> String,
) -> Result<Parts, String> {
    let get = |part: Part, layer: usize| {
        let n = name(part, layer);
        find(&n)
            .ok_or_else(|| format!("the file has no tensor {n}"))
            .map(|f| (n, f))
    };
    let matrix = |part: Part, layer: usize, rows: usize, cols: usize| -> Result<Matrix, String> {
        let (n, f) = get(part, layer)?;
        let ty = f.ty.ok_or_else(|| {
            format!(
                "tensor {n} is {}, a type this reader does not know",
                f.type_name
            )
        })?;
        if f.dims.len() != 2 || f.dims[0] != cols || (rows != 0 && f.dims[1] != rows) {
            return Err(format!(
                "tensor {n} is {:?}; the model's shape says [{cols}, {rows}]",
                f.dims
            ));
        }
        let rows = f.dims[1];
        let (per, block_bytes) = ty.block();
        if !cols.is_multiple_of(per) {
            return Err(format!(
                "tensor {n}'s rows ({cols} values) are not whole {} blocks",
                f.type_name
            ));
        }
        let row_bytes = cols / per * block_bytes;
        if rows.checked_mul(row_bytes) != Some(f.len) {
            return Err(format!(
                "tensor {n} holds {} bytes, not the {rows} × {row_bytes} its shape needs",
                f.len
            ));
        }
        Ok(Matrix {
            ty,
            rows,
            cols,
            start: f.start,
            row_bytes,
        })
    };
    let vector = |part: Part, layer: usize, len: usize| -> Result<Vec<f32>, String> {
        let (n, f) = get(part, layer)?;
        let ty = f.ty.ok_or_else(|| {
            format!(
                "tensor {n} is {}, a type this reader does not know",
                f.type_name
            )
        })?;
        if f.dims.iter().product::<usize>() != len || ty.bytes_for(len as u64) != Some(f.len as u64)
        {
            return Err(format!(
                "tensor {n} is {:?}; the model's shape says {len} values",
                f.dims
            ));
        }
        let mut v = Vec::with_capacity(len);
        crate::quant::dequantize(ty, &bytes[f.start..f.start + f.len], &mut v);
        Ok(v)
    };
    let (dim, heads, kv_heads) = (h.dim, h.heads, h.kv_heads);
    if heads == 0
        || kv_heads == 0
        || !dim.is_multiple_of(heads)
        || !heads.is_multiple_of(kv_heads)
        || !(dim / heads).is_multiple_of(2)
    {
        return Err(format!(
            "{heads} query heads and {kv_heads} key/value heads do not divide a width of {dim} into even heads"
        ));
    }
    let head_dim = dim / heads;
    let kv_dim = kv_heads * head_dim;
    let embed = matrix(Part::Embed, 0, 0, dim)?;
    let config = Config {
        family: h.family,
        dim,
        layers: h.layers,
        heads,
        kv_heads,
        head_dim,
        ff: h.ff,
        vocab: embed.rows,
        eps: h.eps,
        rope_base: h.rope_base,
        rope: h.rope,
        context: h.context,
    };
    let layers = (0..h.layers)
        .map(|i| {
            // Qwen2 always has q/k/v biases; a Llama checkpoint may (`attention_bias`).
            let qkv_bias = match (h.family, find(&name(Part::QBias, i)).is_some()) {
                (Family::Qwen2, _) | (Family::Llama, true) => Some([
                    vector(Part::QBias, i, dim)?,
                    vector(Part::KBias, i, kv_dim)?,
                    vector(Part::VBias, i, kv_dim)?,
                ]),
                (Family::Llama, false) => None,
            };
            Ok(Layer {
                attn_norm: vector(Part::AttnNorm, i, dim)?,
                q: matrix(Part::Q, i, dim, dim)?,
                k: matrix(Part::K, i, kv_dim, dim)?,
                v: matrix(Part::V, i, kv_dim, dim)?,
                qkv_bias,
                o: matrix(Part::O, i, dim, dim)?,
                ffn_norm: vector(Part::FfnNorm, i, dim)?,
                gate: matrix(Part::Gate, i, h.ff, dim)?,
                up: matrix(Part::Up, i, h.ff, dim)?,
                down: matrix(Part::Down, i, dim, h.ff)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let head = if find(&name(Part::Head, 0)).is_some() {
        matrix(Part::Head, 0, embed.rows, dim)?
    } else {
        embed
    };
    Ok((config, embed, layers, vector(Part::Norm, 0, dim)?, head))
}

impl Decoder {
    /// Reads a `llama` or `qwen2` GGUF, keeping its bytes; or says what is missing, unknown or
    /// inconsistent.
    pub fn from_gguf(bytes: Vec<u8>) -> Result<Decoder, DecoderError> {
        Self::read_gguf(bytes).map_err(DecoderError::Model)
    }

    fn read_gguf(bytes: Vec<u8>) -> Result<Decoder, String> {
        let parts = {
            let g = Gguf::parse(&bytes)?;
            let arch = g
                .get("general.architecture")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let family = match arch.as_str() {
                "llama" => Family::Llama,
                "qwen2" => Family::Qwen2,
                other => {
                    return Err(format!(
                        "the model's architecture is \"{other}\"; the decoder router reads \"llama\" (SmolLM2) and \"qwen2\" (Qwen2.5)"
                    ));
                }
            };
            let num = |key: &str| {
                g.get(&format!("{arch}.{key}"))
                    .and_then(Value::as_u64)
                    .map(|v| v as usize)
                    .ok_or_else(|| format!("the file has no {arch}.{key}"))
            };
            let float = |key: &str, default: f32| match g.get(&format!("{arch}.{key}")) {
                Some(Value::Float(f)) => *f as f32,
                _ => default,
            };
            let heads = num("attention.head_count")?;
            let hyper = Hyper {
                family,
                dim: num("embedding_length")?,
                layers: num("block_count")?,
                heads,
                kv_heads: num("attention.head_count_kv").unwrap_or(heads),
                ff: num("feed_forward_length")?,
                eps: float("attention.layer_norm_rms_epsilon", 1e-6),
                rope_base: float("rope.freq_base", 10_000.0),
                // llama.cpp stores a `llama` model's Q and K permuted for adjacent pairs; `qwen2`
                // keeps Hugging Face's order.
                rope: if family == Family::Llama {
                    RopeLayout::AdjacentPairs
                } else {
                    RopeLayout::Halves
                },
                context: num("context_length").unwrap_or(2048),
            };
            let find = |name: &str| {
                g.tensor(name).map(|t| Found {
                    ty: GgmlType::from_id(t.type_id),
                    type_name: GgmlType::name_of(t.type_id),
                    dims: t.dims.iter().map(|&d| d as usize).collect(),
                    start: t.start as usize,
                    len: t.len as usize,
                })
            };
            assemble(&hyper, &find, &bytes, &gguf_name)?
        };
        Ok(Self::with_parts(bytes, parts))
    }

    /// Reads a Hugging Face model: `config.json` and one `model.safetensors` (F32, F16 or BF16
    /// tensors, `LlamaForCausalLM` or `Qwen2ForCausalLM`), keeping the file's bytes.
    pub fn from_safetensors(bytes: Vec<u8>, config_json: &str) -> Result<Decoder, DecoderError> {
        Self::read_safetensors(bytes, config_json).map_err(DecoderError::Model)
    }

    fn read_safetensors(bytes: Vec<u8>, config_json: &str) -> Result<Decoder, String> {
        let parts = {
            let config: serde_json::Value = serde_json::from_str(config_json)
                .map_err(|e| format!("config.json is not JSON: {e}"))?;
            let arch = config["architectures"]
                .get(0)
                .and_then(serde_json::Value::as_str)
                .unwrap_or("");
            let family = match arch {
                "LlamaForCausalLM" => Family::Llama,
                "Qwen2ForCausalLM" => Family::Qwen2,
                other => {
                    return Err(format!(
                        "config.json names the architecture \"{other}\"; the decoder router reads LlamaForCausalLM (SmolLM2) and Qwen2ForCausalLM (Qwen2.5)"
                    ));
                }
            };
            let num = |key: &str| {
                config[key]
                    .as_u64()
                    .map(|v| v as usize)
                    .ok_or_else(|| format!("config.json has no {key}"))
            };
            let heads = num("num_attention_heads")?;
            let hyper = Hyper {
                family,
                dim: num("hidden_size")?,
                layers: num("num_hidden_layers")?,
                heads,
                kv_heads: num("num_key_value_heads").unwrap_or(heads),
                ff: num("intermediate_size")?,
                eps: config["rms_norm_eps"].as_f64().unwrap_or(1e-6) as f32,
                rope_base: config["rope_theta"].as_f64().unwrap_or(10_000.0) as f32,
                rope: RopeLayout::Halves,
                context: num("max_position_embeddings").unwrap_or(2048),
            };
            let st = safetensors::SafeTensors::deserialize(&bytes)
                .map_err(|e| format!("model.safetensors cannot be read: {e}"))?;
            let base = bytes.as_ptr() as usize;
            let find = |name: &str| {
                let t = st.tensor(name).ok()?;
                let (ty, type_name) = match t.dtype() {
                    safetensors::Dtype::F32 => (Some(GgmlType::F32), "F32"),
                    safetensors::Dtype::F16 => (Some(GgmlType::F16), "F16"),
                    safetensors::Dtype::BF16 => (Some(GgmlType::Bf16), "BF16"),
                    _ => (None, "a dtype other than F32, F16 and BF16"),
                };
                // Safetensors lists the slowest dimension first; GGUF (and `Found`) the fastest.
                Some(Found {
                    ty,
                    type_name,
                    dims: t.shape().iter().rev().copied().collect(),
                    start: t.data().as_ptr() as usize - base,
                    len: t.data().len(),
                })
            };
            let mut parts = assemble(&hyper, &find, &bytes, &hf_name)?;
            if config["tie_word_embeddings"].as_bool() == Some(true) {
                parts.4 = parts.1;
            }
            parts
        };
        Ok(Self::with_parts(bytes, parts))
    }

    fn with_parts(bytes: Vec<u8>, (config, embed, layers, norm, head): Parts) -> Decoder {
        let half = config.head_dim / 2;
        let inv_freq = (0..half)
            .map(|i| {
                config
                    .rope_base
                    .powf(-2.0 * i as f32 / config.head_dim as f32)
            })
            .collect();
        #[cfg(not(target_arch = "wasm32"))]
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(16);
        #[cfg(target_arch = "wasm32")]
        let threads = 1;
        Decoder {
            config,
            bytes,
            embed,
            layers,
            norm,
            head,
            inv_freq,
            threads,
            arithmetic: Arithmetic::Integer,
            kernel: Kernel::best(),
        }
    }

    /// The same model with its prompt's products cut into `threads` parts, run on rayon's pool
    /// (natively; the results are the same whatever the number).
    pub fn with_threads(mut self, threads: usize) -> Decoder {
        self.threads = threads.max(1);
        self
    }

    /// The same model multiplying its quantized matrices in `arithmetic`.
    pub fn with_arithmetic(mut self, arithmetic: Arithmetic) -> Decoder {
        self.arithmetic = arithmetic;
        self
    }

    /// The same model summing its integer products with `kernel` (the tests hold every kernel
    /// to the scalar one's bits).
    pub fn with_kernel(mut self, kernel: Kernel) -> Decoder {
        self.kernel = kernel;
        self
    }

    /// How its quantized matrices multiply, and with which kernel (in words: [`Decoder::products`]).
    pub fn arithmetic(&self) -> (Arithmetic, Kernel) {
        (self.arithmetic, self.kernel)
    }

    /// How its matrices multiply, in words, for every edge's backend line ("integer products
    /// for quantized weights, avx2 kernel").
    pub fn products(&self) -> String {
        match self.arithmetic {
            Arithmetic::Integer => format!(
                "integer products for quantized weights, {} kernel",
                self.kernel.name()
            ),
            Arithmetic::F32 => "f32 products".to_owned(),
        }
    }

    /// An empty cache for this model.
    pub fn cache(&self) -> KvCache {
        KvCache {
            len: 0,
            keys: vec![Vec::new(); self.config.layers],
            values: vec![Vec::new(); self.config.layers],
        }
    }

    /// Bytes of weights the model holds (the file's size).
    pub fn weight_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// `out[t][r] = W[r] · xs[t]` for `n` inputs of `W.cols`. A quantized matrix under
    /// [`Arithmetic::Integer`] multiplies through integer dot products (`qdot.rs`): the inputs are
    /// quantized once, each row unpacked once and multiplied by every input; otherwise each row
    /// is dequantized to f32 once and multiplied by every input. Natively a prompt's rows are
    /// shared out among the cores (each row's arithmetic is the same either way; one token's
    /// product is too small to pay for the threads); in wasm one thread runs them all.
    fn matmul(&self, w: &Matrix, input: &Input<'_>, n: usize, out: &mut [f32]) {
        let xs = input.xs;
        debug_assert_eq!(xs.len(), n * w.cols);
        debug_assert_eq!(out.len(), n * w.rows);
        let acts = (self.arithmetic == Arithmetic::Integer && qdot::supports(w.ty))
            .then(|| input.quantized());
        let part = |lo: usize, hi: usize, out: &mut [f32]| match acts {
            Some(acts) => self.rows_product_int(w, acts, lo, hi, out),
            None => self.rows_product(w, xs, n, lo, hi, out),
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            let threads = self.threads;
            if threads > 1 && n > 1 && w.rows >= 2 * threads && w.rows * w.cols * n >= 1 << 20 {
                use rayon::prelude::*;
                let chunk = w.rows.div_ceil(threads);
                let starts: Vec<usize> = (0..w.rows).step_by(chunk).collect();
                let parts: Vec<(usize, usize, Vec<f32>)> = starts
                    .into_par_iter()
                    .map(|lo| {
                        let hi = (lo + chunk).min(w.rows);
                        let mut out = vec![0.0f32; n * (hi - lo)];
                        part(lo, hi, &mut out);
                        (lo, hi, out)
                    })
                    .collect();
                for (lo, hi, part) in parts {
                    for t in 0..n {
                        out[t * w.rows + lo..t * w.rows + hi]
                            .copy_from_slice(&part[t * (hi - lo)..(t + 1) * (hi - lo)]);
                    }
                }
                return;
            }
        }
        part(0, w.rows, out);
    }

    /// Rows `lo..hi` of the product into `out` (`n × (hi - lo)`, by input), each row dequantized
    /// to f32.
    fn rows_product(
        &self,
        w: &Matrix,
        xs: &[f32],
        n: usize,
        lo: usize,
        hi: usize,
        out: &mut [f32],
    ) {
        let width = hi - lo;
        let mut row = vec![0.0f32; w.cols];
        for r in lo..hi {
            let at = w.start + r * w.row_bytes;
            dequantize_into(w.ty, &self.bytes[at..at + w.row_bytes], &mut row);
            for t in 0..n {
                out[t * width + r - lo] = dot(&row, &xs[t * w.cols..(t + 1) * w.cols]);
            }
        }
    }

    /// Rows `lo..hi` of the product into `out` (`n × (hi - lo)`, by input), through integer dot
    /// products with the quantized inputs.
    fn rows_product_int(
        &self,
        w: &Matrix,
        acts: &QuantizedActs,
        lo: usize,
        hi: usize,
        out: &mut [f32],
    ) {
        let bytes = &self.bytes[w.start + lo * w.row_bytes..w.start + hi * w.row_bytes];
        self.kernel.rows(
            w.ty,
            bytes,
            w.row_bytes,
            acts,
            out,
            hi - lo,
            &mut UnpackedRow::default(),
        );
    }

    /// Rotates every head of `x` (query or key heads side by side) for position `pos` (the GPU
    /// kernel's CPU twin).
    pub fn rope(&self, x: &mut [f32], pos: usize) {
        self.rope_with(x, &self.rope_angles(pos));
    }

    /// `(sin, cos)` of each rotated pair's angle at position `pos` ([`rope_angles`]).
    fn rope_angles(&self, pos: usize) -> Vec<(f32, f32)> {
        rope_angles(&self.inv_freq, pos).collect()
    }

    /// Rotates every head of `x` by a position's `angles` ([`Decoder::rope_angles`]).
    fn rope_with(&self, x: &mut [f32], angles: &[(f32, f32)]) {
        let d = self.config.head_dim;
        let half = d / 2;
        for head in x.chunks_exact_mut(d) {
            for (i, &(s, c)) in angles.iter().enumerate() {
                let (ia, ib) = match self.config.rope {
                    RopeLayout::AdjacentPairs => (2 * i, 2 * i + 1),
                    RopeLayout::Halves => (i, i + half),
                };
                let (a, b) = (head[ia], head[ib]);
                head[ia] = a * c - b * s;
                head[ib] = a * s + b * c;
            }
        }
    }

    /// The embeddings of `ids`, `dim` values each; ids past the vocabulary read as 0.
    pub fn embed_rows(&self, ids: &[u32]) -> Vec<f32> {
        let dim = self.config.dim;
        let mut x = vec![0.0f32; ids.len() * dim];
        for (t, &id) in ids.iter().enumerate() {
            let id = if (id as usize) < self.config.vocab {
                id as usize
            } else {
                0
            };
            let at = self.embed.start + id * self.embed.row_bytes;
            dequantize_into(
                self.embed.ty,
                &self.bytes[at..at + self.embed.row_bytes],
                &mut x[t * dim..(t + 1) * dim],
            );
        }
        x
    }

    /// `base^(-2i/d)` for each rotated pair of a head.
    pub fn inv_freq(&self) -> &[f32] {
        &self.inv_freq
    }

    fn view(&self, m: &Matrix) -> MatrixView<'_> {
        MatrixView {
            ty: m.ty,
            rows: m.rows,
            cols: m.cols,
            bytes: &self.bytes[m.start..m.start + m.rows * m.row_bytes],
        }
    }

    /// Every layer's weights as the file stores them, for a backend that keeps its own copy
    /// (the GPU's).
    pub fn layer_views(&self) -> Vec<LayerView<'_>> {
        self.layers
            .iter()
            .map(|l| LayerView {
                attn_norm: &l.attn_norm,
                q: self.view(&l.q),
                k: self.view(&l.k),
                v: self.view(&l.v),
                qkv_bias: l
                    .qkv_bias
                    .as_ref()
                    .map(|[a, b, c]| [a.as_slice(), b.as_slice(), c.as_slice()]),
                o: self.view(&l.o),
                ffn_norm: &l.ffn_norm,
                gate: self.view(&l.gate),
                up: self.view(&l.up),
                down: self.view(&l.down),
            })
            .collect()
    }

    /// The final norm's gains.
    pub fn final_norm(&self) -> &[f32] {
        &self.norm
    }

    /// The LM head (the embeddings when the model ties them).
    pub fn head_view(&self) -> MatrixView<'_> {
        self.view(&self.head)
    }

    /// Runs `ids` at the positions after the cache's, appends their keys and values, and returns
    /// the logits asked for (`vocab` values a position). Ids past the vocabulary read as 0.
    pub fn forward(&self, cache: &mut KvCache, ids: &[u32], logits: Logits) -> Vec<f32> {
        let c = self.config;
        let n = ids.len();
        if n == 0 {
            return Vec::new();
        }
        let (dim, kv_dim) = (c.dim, c.kv_heads * c.head_dim);
        let start = cache.len;
        let mut x = self.embed_rows(ids);
        let mut h = vec![0.0f32; n * dim];
        let mut q = vec![0.0f32; n * dim];
        let mut k = vec![0.0f32; n * kv_dim];
        let mut v = vec![0.0f32; n * kv_dim];
        let mut attn = vec![0.0f32; n * dim];
        let mut proj = vec![0.0f32; n * dim];
        let mut gate = vec![0.0f32; n * c.ff];
        let mut up = vec![0.0f32; n * c.ff];
        let mut scores = Vec::with_capacity(start + n);
        let angles: Vec<Vec<(f32, f32)>> = (0..n).map(|t| self.rope_angles(start + t)).collect();
        for (li, l) in self.layers.iter().enumerate() {
            for t in 0..n {
                rms_norm_into(
                    &x[t * dim..(t + 1) * dim],
                    &l.attn_norm,
                    c.eps,
                    &mut h[t * dim..(t + 1) * dim],
                );
            }
            let normed = Input::new(&h);
            self.matmul(&l.q, &normed, n, &mut q);
            self.matmul(&l.k, &normed, n, &mut k);
            self.matmul(&l.v, &normed, n, &mut v);
            if let Some([bq, bk, bv]) = &l.qkv_bias {
                for (buf, b) in [(&mut q, bq), (&mut k, bk), (&mut v, bv)] {
                    for chunk in buf.chunks_exact_mut(b.len()) {
                        for (o, bi) in chunk.iter_mut().zip(b) {
                            *o += bi;
                        }
                    }
                }
            }
            for (t, angles) in angles.iter().enumerate() {
                self.rope_with(&mut q[t * dim..(t + 1) * dim], angles);
                self.rope_with(&mut k[t * kv_dim..(t + 1) * kv_dim], angles);
            }
            let (keys, values) = (&mut cache.keys[li], &mut cache.values[li]);
            keys.extend_from_slice(&k);
            values.extend_from_slice(&v);
            qdot::with_wide_vectors(Attention {
                c: &c,
                q: &q,
                keys,
                values,
                start,
                attn: &mut attn,
                scores: &mut scores,
            });
            self.matmul(&l.o, &Input::new(&attn), n, &mut proj);
            for (xi, pi) in x.iter_mut().zip(&proj) {
                *xi += pi;
            }
            for t in 0..n {
                rms_norm_into(
                    &x[t * dim..(t + 1) * dim],
                    &l.ffn_norm,
                    c.eps,
                    &mut h[t * dim..(t + 1) * dim],
                );
            }
            let normed = Input::new(&h);
            self.matmul(&l.gate, &normed, n, &mut gate);
            self.matmul(&l.up, &normed, n, &mut up);
            for (g, u) in gate.iter_mut().zip(&up) {
                *g = skillpg_math::silu(*g) * u;
            }
            self.matmul(&l.down, &Input::new(&gate), n, &mut proj);
            for (xi, pi) in x.iter_mut().zip(&proj) {
                *xi += pi;
            }
        }
        cache.len += n;
        let wanted: Vec<usize> = match logits {
            Logits::None => return Vec::new(),
            Logits::Last => vec![n - 1],
            Logits::All => (0..n).collect(),
        };
        let mut normed = vec![0.0f32; wanted.len() * dim];
        for (i, &t) in wanted.iter().enumerate() {
            rms_norm_into(
                &x[t * dim..(t + 1) * dim],
                &self.norm,
                c.eps,
                &mut normed[i * dim..(i + 1) * dim],
            );
        }
        let mut out = vec![0.0f32; wanted.len() * c.vocab];
        self.matmul(&self.head, &Input::new(&normed), wanted.len(), &mut out);
        out
    }
}
