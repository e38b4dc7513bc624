//! The decoder router's forward pass (`skillpg_decoder::model::Decoder::forward`) as WGSL
//! kernels on wgpu: the same Llama/Qwen2 arithmetic, the weights kept in the file's storage on
//! the device and dequantized inside the matrix product, f32 arithmetic, and a key/value cache on
//! the device that the protocol cuts back to the system turn's prefix.
//!
//! Invariants:
//! - every kernel has a CPU twin in `skillpg_decoder::model` and a test against it on lavapipe
//!   (`tests/decoder.rs`); the whole pass is tested against `Decoder::forward`;
//! - a weight stays in its storage type where a kernel reads that type (F32, F16, BF16, Q8_0,
//!   Q4_0, Q4_1, and Q4_K as Q4 blocks of 32); the others (Q5_0, Q5_1, Q6_K) are widened to f16
//!   once at load;
//! - no buffer is larger than the device's largest storage binding: a matrix past it (the LM
//!   head of a 150k vocabulary) is split by rows into chunks, one dispatch each;
//! - a device error (out of memory, a lost device) is an `Err` with the numbers, never a panic.

use skillpg_decoder::forward::Forward;
use skillpg_decoder::model::{Config, Decoder, Logits, MatrixView, RopeLayout, rope_angles};
use skillpg_decoder::quant::{GgmlType, dequantize_into, q4_k_scales};
use wgpu::util::DeviceExt;

use crate::{DeviceBuf, Gpu};

/// The decoder kernels' uniform block (`params.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Default)]
struct Params {
    n: u32,
    cols: u32,
    rows: u32,
    out_stride: u32,
    out_offset: u32,
    row_words: u32,
    flag: u32,
    heads: u32,
    kv_heads: u32,
    head_dim: u32,
    start: u32,
    eps: f32,
    in_row: u32,
    pad: [u32; 3],
}

/// How a weight matrix is stored on the device (each has its `load_w` in WGSL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    fn entry(self) -> &'static str {
        match self {
            Storage::F32 => "matmul_f32",
            Storage::F16 => "matmul_f16",
            Storage::Bf16 => "matmul_bf16",
            Storage::Q8 => "matmul_q8",
            Storage::Q4 => "matmul_q4",
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
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Lays a matrix out for the kernels: F32, F16 and BF16 as the file has them (halves in pairs),
/// Q8_0, Q4_0 and Q4_1 as blocks with an f32 scale and minimum and the file's own quants, Q4_K as
/// one such Q4 block a sub-block, and every other type dequantized with `skillpg_decoder::quant`
/// and stored in f16.
pub fn pack(m: &MatrixView<'_>) -> Packed {
    let (rows, cols) = (m.rows, m.cols);
    let blocks = cols / 32;
    let even = cols.is_multiple_of(2);
    let packed = |storage, row_words, words: Vec<u32>| Packed { storage, rows, cols, row_words, words };
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
            let (size, quants) = if m.ty == GgmlType::Q4_0 { (18, 2) } else { (20, 4) };
            let mut words = Vec::with_capacity(rows * blocks * 6);
            for block in m.bytes.chunks_exact(size) {
                let d = f16_at(block, 0);
                let min = if m.ty == GgmlType::Q4_0 { -8.0 * d } else { f16_at(block, 2) };
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
                    let q = |i: usize| if j % 2 == 0 { chunk[i] & 0xF } else { chunk[i] >> 4 };
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
                let words = halves.chunks_exact(2).map(|h| u32::from(h[0]) | (u32::from(h[1]) << 16)).collect();
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
                Storage::Bf16 => f32::from_bits(if k % 2 == 0 { w[k / 2] << 16 } else { w[k / 2] & 0xffff_0000 }),
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

/// A matrix on the device, in chunks of rows that each fit a binding.
#[derive(Debug)]
struct DeviceMatrix {
    storage: Storage,
    rows: usize,
    cols: usize,
    row_words: usize,
    /// `(first row, rows, buffer)`.
    chunks: Vec<(usize, usize, wgpu::Buffer)>,
}

#[derive(Debug)]
struct DeviceLayer {
    attn_norm: DeviceBuf,
    q: DeviceMatrix,
    k: DeviceMatrix,
    v: DeviceMatrix,
    /// `[q, k, v]` biases, or zeros with the flag off.
    bias: Option<[DeviceBuf; 3]>,
    o: DeviceMatrix,
    ffn_norm: DeviceBuf,
    gate: DeviceMatrix,
    up: DeviceMatrix,
    down: DeviceMatrix,
}

/// The kernels, compiled.
#[derive(Debug)]
struct Kernels {
    ops: Vec<(&'static str, wgpu::ComputePipeline)>,
    matmul: Vec<(&'static str, wgpu::ComputePipeline)>,
}

impl Kernels {
    fn new(gpu: &Gpu) -> Kernels {
        let params = include_str!("decoder/params.wgsl");
        let ops = gpu.compile("decoder-ops", &format!("{params}{}", include_str!("decoder/ops.wgsl")), &["rms_norm", "rope", "attention", "silu_mul", "add_into"]);
        let mut matmul = Vec::new();
        for (storage, load) in [
            (Storage::F32, include_str!("decoder/load_f32.wgsl")),
            (Storage::F16, include_str!("decoder/load_f16.wgsl")),
            (Storage::Bf16, include_str!("decoder/load_bf16.wgsl")),
            (Storage::Q8, include_str!("decoder/load_q8.wgsl")),
            (Storage::Q4, include_str!("decoder/load_q4.wgsl")),
        ] {
            let source = format!("{params}{}{load}", include_str!("decoder/matmul.wgsl"));
            let mut compiled = gpu.compile(storage.entry(), &source, &["matmul"]);
            if let Some((_, pipeline)) = compiled.pop() {
                matmul.push((storage.entry(), pipeline));
            }
        }
        Kernels { ops, matmul }
    }

    fn get(&self, name: &str) -> Option<&wgpu::ComputePipeline> {
        self.ops.iter().chain(&self.matmul).find(|(n, _)| *n == name).map(|(_, p)| p)
    }
}

/// The decoder's kernels on one device, for running them one by one (the tests' CPU twins)
/// and inside [`GpuDecoder`].
#[derive(Debug)]
pub struct DecoderKernels {
    /// The device.
    pub gpu: Gpu,
    kernels: Kernels,
    /// The largest buffer the kernels may bind, in bytes.
    max_binding: u64,
}

impl DecoderKernels {
    /// Compiles the decoder's kernels on `gpu`.
    pub fn new(gpu: Gpu) -> DecoderKernels {
        let limits = gpu.limits();
        let max_binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        DecoderKernels { kernels: Kernels::new(&gpu), gpu, max_binding }
    }

    /// The same with chunks of at most `bytes` (the tests' way to split a small matrix).
    pub fn with_max_binding(mut self, bytes: u64) -> DecoderKernels {
        self.max_binding = bytes.min(self.max_binding);
        self
    }

    fn dispatch(&self, enc: &mut wgpu::CommandEncoder, kernel: &str, p: Params, inputs: [&wgpu::Buffer; 3], out: &wgpu::Buffer, groups: (u32, u32)) {
        // Kernel names are the code's, not the input's: a missing one is a bug, and loud.
        let Some(pipeline) = self.kernels.get(kernel) else { panic!("no compiled decoder kernel {kernel}: the WGSL and the Rust disagree") };
        self.gpu.dispatch_pipeline(enc, kernel, pipeline, bytemuck::bytes_of(&p), inputs, out, groups);
    }

    /// Uploads a packed matrix in chunks of rows that fit a binding; `Err` names the sizes when
    /// one row alone is larger.
    fn upload_matrix(&self, m: &Packed) -> Result<DeviceMatrix, String> {
        let row_bytes = (m.row_words * 4) as u64;
        let per_chunk = (self.max_binding / row_bytes.max(1)) as usize;
        if per_chunk == 0 {
            return Err(format!("a weight row is {row_bytes} bytes, more than the {} bytes this GPU can bind", self.max_binding));
        }
        let chunks = (0..m.rows)
            .step_by(per_chunk)
            .map(|lo| {
                let rows = per_chunk.min(m.rows - lo);
                let words = &m.words[lo * m.row_words..(lo + rows) * m.row_words];
                let buf = self.gpu.device().create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("weights"),
                    contents: bytemuck::cast_slice(words),
                    usage: wgpu::BufferUsages::STORAGE,
                });
                (lo, rows, buf)
            })
            .collect();
        Ok(DeviceMatrix { storage: m.storage, rows: m.rows, cols: m.cols, row_words: m.row_words, chunks })
    }

    /// `y[t][o] = W[o] · x[t] (+ bias[o])` for `n` tokens, `y` being `n × W.rows`.
    fn matmul(&self, enc: &mut wgpu::CommandEncoder, x: &DeviceBuf, n: usize, w: &DeviceMatrix, bias: Option<&DeviceBuf>, y: &DeviceBuf) {
        for (lo, rows, buf) in &w.chunks {
            let p = Params {
                n: n as u32,
                cols: w.cols as u32,
                rows: *rows as u32,
                out_stride: w.rows as u32,
                out_offset: *lo as u32,
                row_words: w.row_words as u32,
                flag: bias.is_some() as u32,
                ..Default::default()
            };
            let b = bias.unwrap_or(x);
            self.dispatch(enc, w.storage.entry(), p, [&x.buf, buf, &b.buf], &y.buf, (rows.div_ceil(16) as u32, n.div_ceil(16) as u32));
        }
    }

    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    fn rms_norm(&self, enc: &mut wgpu::CommandEncoder, x: &DeviceBuf, first_row: usize, rows: usize, width: usize, gains: &DeviceBuf, eps: f32, out: &DeviceBuf) {
        let p = Params { cols: width as u32, in_row: first_row as u32, eps, ..Default::default() };
        self.dispatch(enc, "rms_norm", p, [&x.buf, &gains.buf, &gains.buf], &out.buf, (rows as u32, 1));
    }

    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    fn rope(&self, enc: &mut wgpu::CommandEncoder, x: &DeviceBuf, n: usize, heads: usize, head_dim: usize, layout: RopeLayout, table: &DeviceBuf, out: &DeviceBuf) {
        let p = Params { n: n as u32, heads: heads as u32, head_dim: head_dim as u32, flag: (layout == RopeLayout::Halves) as u32, ..Default::default() };
        self.dispatch(enc, "rope", p, [&x.buf, &table.buf, &table.buf], &out.buf, Gpu::groups_of_64(n * heads * head_dim / 2));
    }

    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    fn attention(&self, enc: &mut wgpu::CommandEncoder, c: &Config, q: &DeviceBuf, n: usize, start: usize, keys: &wgpu::Buffer, values: &wgpu::Buffer, out: &DeviceBuf) {
        let p = Params { n: n as u32, heads: c.heads as u32, kv_heads: c.kv_heads as u32, head_dim: c.head_dim as u32, start: start as u32, ..Default::default() };
        self.dispatch(enc, "attention", p, [&q.buf, keys, values], &out.buf, Gpu::groups_of_64(n * c.heads));
    }

    fn elementwise(&self, enc: &mut wgpu::CommandEncoder, kernel: &str, a: &DeviceBuf, b: &DeviceBuf, len: usize, out: &DeviceBuf) {
        let p = Params { cols: len as u32, ..Default::default() };
        self.dispatch(enc, kernel, p, [&a.buf, &b.buf, &b.buf], &out.buf, Gpu::groups_of_64(len));
    }

    /// Each kernel alone, for the tests: the product of `n` rows of `x` by a packed matrix
    /// (split in chunks as this device would), with an optional bias.
    pub async fn run_matmul(&self, x: &[f32], n: usize, w: &Packed, bias: Option<&[f32]>) -> Result<Vec<f32>, String> {
        let g = &self.gpu;
        let m = self.upload_matrix(w)?;
        let (xb, out) = (g.upload(x), g.output(n * w.rows));
        let b = bias.map(|b| g.upload(b));
        let mut enc = g.encoder();
        self.matmul(&mut enc, &xb, n, &m, b.as_ref(), &out);
        g.submit(enc);
        g.read(&out).await
    }

    /// RMSNorm of each `width`-wide row of `x`.
    pub async fn run_rms_norm(&self, x: &[f32], width: usize, gains: &[f32], eps: f32) -> Result<Vec<f32>, String> {
        let g = &self.gpu;
        let rows = x.len() / width;
        let out = g.output(x.len());
        let mut enc = g.encoder();
        self.rms_norm(&mut enc, &g.upload(x), 0, rows, width, &g.upload(gains), eps, &out);
        g.submit(enc);
        g.read(&out).await
    }

    /// Rotary embedding of `n` tokens of `heads` heads at positions `start..` (`inv_freq` as the
    /// model's).
    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    pub async fn run_rope(&self, x: &[f32], n: usize, heads: usize, head_dim: usize, layout: RopeLayout, inv_freq: &[f32], start: usize) -> Result<Vec<f32>, String> {
        let g = &self.gpu;
        let out = g.output(x.len());
        let mut enc = g.encoder();
        self.rope(&mut enc, &g.upload(x), n, heads, head_dim, layout, &g.upload(&rope_table(inv_freq, start, n)), &out);
        g.submit(enc);
        g.read(&out).await
    }

    /// Attention of `q` (`n` tokens at positions `start..`) over `keys` and `values`
    /// (`start + n` positions).
    pub async fn run_attention(&self, c: &Config, q: &[f32], keys: &[f32], values: &[f32], start: usize) -> Result<Vec<f32>, String> {
        let g = &self.gpu;
        let n = q.len() / c.dim;
        let out = g.output(q.len());
        let (k, v) = (g.upload(keys), g.upload(values));
        let mut enc = g.encoder();
        self.attention(&mut enc, c, &g.upload(q), n, start, &k.buf, &v.buf, &out);
        g.submit(enc);
        g.read(&out).await
    }

    /// `silu(a) · b`.
    pub async fn run_silu_mul(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>, String> {
        let g = &self.gpu;
        let out = g.output(a.len());
        let mut enc = g.encoder();
        self.elementwise(&mut enc, "silu_mul", &g.upload(a), &g.upload(b), a.len(), &out);
        g.submit(enc);
        g.read(&out).await
    }
}

/// Each token's `(cos, sin)` for every rotated pair, at positions `start..start + n`, computed as
/// `Decoder::rope` computes them (`model::rope_angles`, the one computation of both).
fn rope_table(inv_freq: &[f32], start: usize, n: usize) -> Vec<f32> {
    let mut table = Vec::with_capacity(n * inv_freq.len() * 2);
    for t in 0..n {
        for (s, c) in rope_angles(inv_freq, start + t) {
            table.extend([c, s]);
        }
    }
    table
}

/// A decoder on the GPU, with its key/value cache there: the [`Forward`] the worker and the
/// benchmark drive the routing protocol with.
#[derive(Debug)]
pub struct GpuDecoder {
    kernels: DecoderKernels,
    /// The model (its embeddings are gathered on the CPU; its shape drives the kernels).
    model: Decoder,
    layers: Vec<DeviceLayer>,
    norm: DeviceBuf,
    head: DeviceMatrix,
    /// Per layer, keys and values of `capacity` positions.
    cache: Vec<(wgpu::Buffer, wgpu::Buffer)>,
    capacity: usize,
    len: usize,
    /// Bytes of weights on the device.
    pub device_bytes: u64,
    /// How the matrices are stored on the device (e.g. "Q4 blocks"), for the backend line.
    pub storage: String,
}

impl GpuDecoder {
    /// Uploads `model`'s weights; `Err` names what the device could not hold (the sizes) or
    /// could not do.
    pub async fn new(kernels: DecoderKernels, model: Decoder) -> Result<GpuDecoder, (Decoder, String)> {
        let c = model.config;
        if c.head_dim > 256 {
            return Err((model, format!("the model's heads are {} wide; the GPU attention kernel holds 256 at most", c.head_dim)));
        }
        let mut device_bytes = 0u64;
        let mut kinds: Vec<Storage> = Vec::new();
        let (uploaded, error) = kernels
            .gpu
            .catching(|| -> Result<_, String> {
                let g = &kernels.gpu;
                let mut up = |view: &MatrixView<'_>| -> Result<DeviceMatrix, String> {
                    let packed = pack(view);
                    device_bytes += packed.words.len() as u64 * 4;
                    if !kinds.contains(&packed.storage) {
                        kinds.push(packed.storage);
                    }
                    kernels.upload_matrix(&packed)
                };
                let mut layers = Vec::new();
                for l in model.layer_views() {
                    layers.push(DeviceLayer {
                        attn_norm: g.upload(l.attn_norm),
                        q: up(&l.q)?,
                        k: up(&l.k)?,
                        v: up(&l.v)?,
                        bias: l.qkv_bias.map(|[a, b, c]| [g.upload(a), g.upload(b), g.upload(c)]),
                        o: up(&l.o)?,
                        ffn_norm: g.upload(l.ffn_norm),
                        gate: up(&l.gate)?,
                        up: up(&l.up)?,
                        down: up(&l.down)?,
                    });
                }
                let head = up(&model.head_view())?;
                Ok((layers, head, g.upload(model.final_norm())))
            })
            .await;
        let (layers, head, norm) = match uploaded {
            Ok(parts) => parts,
            Err(e) => return Err((model, e)),
        };
        if let Some(e) = error {
            return Err((model, format!("the GPU could not hold the model's {:.0} MB of weights: {e}", device_bytes as f64 / 1e6)));
        }
        let storage = kinds.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join("/");
        Ok(GpuDecoder { kernels, model, layers, norm, head, cache: Vec::new(), capacity: 0, len: 0, device_bytes, storage })
    }

    /// The model back (to run on the CPU after a GPU failure).
    pub fn into_model(self) -> Decoder {
        self.model
    }

    /// Grows the cache to hold `needed` positions, keeping what it holds.
    fn reserve(&mut self, needed: usize) {
        if needed <= self.capacity {
            return;
        }
        let c = self.model.config;
        let kv_bytes = (c.kv_heads * c.head_dim * 4) as u64;
        let most = (self.kernels.max_binding / kv_bytes.max(1)) as usize;
        let capacity = needed.max(self.capacity * 2).max(64).min(most.max(needed));
        let device = self.kernels.gpu.device();
        let make = || {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("kv-cache"),
                size: capacity as u64 * kv_bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let fresh: Vec<(wgpu::Buffer, wgpu::Buffer)> = (0..c.layers).map(|_| (make(), make())).collect();
        if self.len > 0 {
            let mut enc = self.kernels.gpu.encoder();
            for ((ok, ov), (nk, nv)) in self.cache.iter().zip(&fresh) {
                enc.copy_buffer_to_buffer(ok, 0, nk, 0, self.len as u64 * kv_bytes);
                enc.copy_buffer_to_buffer(ov, 0, nv, 0, self.len as u64 * kv_bytes);
            }
            self.kernels.gpu.submit(enc);
        }
        self.cache = fresh;
        self.capacity = capacity;
    }

    async fn run(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, String> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let gpu = self.kernels.gpu.clone();
        let (out, error) = gpu.catching(|| self.encode(ids, logits)).await;
        if let Some(e) = error {
            // The cache may hold half a pass: forget it.
            self.len = 0;
            self.capacity = 0;
            self.cache.clear();
            return Err(format!("the GPU failed: {e}"));
        }
        match out {
            Some(out) => self.kernels.gpu.read(&out).await,
            None => Ok(Vec::new()),
        }
    }

    /// Records and submits the pass; the logits' buffer when some are asked for.
    fn encode(&mut self, ids: &[u32], logits: Logits) -> Option<DeviceBuf> {
        let c = self.model.config;
        let n = ids.len();
        let start = self.len;
        self.reserve(start + n);
        let k = &self.kernels;
        let g = &k.gpu;
        let (dim, kv_dim) = (c.dim, c.kv_heads * c.head_dim);
        let kv_bytes = (kv_dim * 4) as u64;
        let x = g.upload(&self.model.embed_rows(ids));
        let table = g.upload(&rope_table(self.model.inv_freq(), start, n));
        let (h, q, q_rot, attn, proj) = (g.output(n * dim), g.output(n * dim), g.output(n * dim), g.output(n * dim), g.output(n * dim));
        let (kb, vb, k_rot) = (g.output(n * kv_dim), g.output(n * kv_dim), g.output(n * kv_dim));
        let (gate, up, act) = (g.output(n * c.ff), g.output(n * c.ff), g.output(n * c.ff));
        let mut enc = g.encoder();
        for (l, (keys, values)) in self.layers.iter().zip(&self.cache) {
            k.rms_norm(&mut enc, &x, 0, n, dim, &l.attn_norm, c.eps, &h);
            let bias = |i: usize| l.bias.as_ref().map(|b| &b[i]);
            k.matmul(&mut enc, &h, n, &l.q, bias(0), &q);
            k.matmul(&mut enc, &h, n, &l.k, bias(1), &kb);
            k.matmul(&mut enc, &h, n, &l.v, bias(2), &vb);
            k.rope(&mut enc, &q, n, c.heads, c.head_dim, c.rope, &table, &q_rot);
            k.rope(&mut enc, &kb, n, c.kv_heads, c.head_dim, c.rope, &table, &k_rot);
            enc.copy_buffer_to_buffer(&k_rot.buf, 0, keys, start as u64 * kv_bytes, n as u64 * kv_bytes);
            enc.copy_buffer_to_buffer(&vb.buf, 0, values, start as u64 * kv_bytes, n as u64 * kv_bytes);
            k.attention(&mut enc, &c, &q_rot, n, start, keys, values, &attn);
            k.matmul(&mut enc, &attn, n, &l.o, None, &proj);
            k.elementwise(&mut enc, "add_into", &proj, &proj, n * dim, &x);
            k.rms_norm(&mut enc, &x, 0, n, dim, &l.ffn_norm, c.eps, &h);
            k.matmul(&mut enc, &h, n, &l.gate, None, &gate);
            k.matmul(&mut enc, &h, n, &l.up, None, &up);
            k.elementwise(&mut enc, "silu_mul", &gate, &up, n * c.ff, &act);
            k.matmul(&mut enc, &act, n, &l.down, None, &proj);
            k.elementwise(&mut enc, "add_into", &proj, &proj, n * dim, &x);
        }
        self.len += n;
        let (first, rows) = match logits {
            Logits::None => {
                g.submit(enc);
                return None;
            }
            Logits::Last => (n - 1, 1),
            Logits::All => (0, n),
        };
        let normed = g.output(rows * dim);
        k.rms_norm(&mut enc, &x, first, rows, dim, &self.norm, c.eps, &normed);
        let out = g.output(rows * c.vocab);
        k.matmul(&mut enc, &normed, rows, &self.head, None, &out);
        g.submit(enc);
        Some(out)
    }
}

impl Forward for GpuDecoder {
    fn config(&self) -> Config {
        self.model.config
    }

    fn cached(&self) -> usize {
        self.len
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn forward(&mut self, ids: &[u32], logits: Logits) -> impl Future<Output = Result<Vec<f32>, String>> {
        self.run(ids, logits)
    }
}
