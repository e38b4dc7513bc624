//! The decoder router's forward pass (`skillpg_decoder::model::Decoder::forward`) as WGSL
//! kernels on wgpu: the same Llama/Qwen2 arithmetic, the weights kept in the file's storage on
//! the device and dequantized inside the products, f32 arithmetic, and a key/value cache on the
//! device that the protocol cuts back to the system turn's prefix.
//!
//! Everything a pass uses is planned when the model is loaded ([`GpuDecoder::new`]): the
//! activations' buffers (for passes of up to 512 tokens), the cache (the model's context, at most
//! [`MAX_CACHE`] positions), the logits, the read-back's staging buffer, every dispatch's uniform
//! block and bind group. A pass then writes its tokens' embeddings, rotary table and step block,
//! records every dispatch into one compute pass, and submits once. Decoding (at most
//! [`MATVEC_TOKENS`] tokens) takes the `matvec` products, a workgroup a row, with the RMSNorm
//! and the SwiGLU gate fused into the products that read them and the residual adds into the
//! products that write them: six dispatches a layer. A prefill takes the 64 × 64 `tiled` products
//! and its norms and gate apart: nine a layer. The greedy token and constrained choice's
//! log-probabilities are computed on the device, so a decoded token reads back eight bytes.
//!
//! Invariants:
//! - every kernel has a CPU twin in `skillpg_decoder::model` (or the protocol) and a test against
//!   it on lavapipe (`tests/decoder.rs`); the whole pass is tested against `Decoder::forward`;
//! - after load, a pass creates no buffer and no bind group, begins one compute pass and submits
//!   once (`tests/decoder.rs` counts them through [`crate::Counts`]);
//! - a weight stays in its storage type where a kernel reads that type (F32, F16, BF16, Q8_0,
//!   Q4_0, Q4_1, and Q4_K as Q4 blocks of 32); the others (Q5_0, Q5_1, Q6_K) are widened to f16
//!   once at load;
//! - no buffer is larger than the device's largest storage binding: a matrix past it (the LM
//!   head of a 150k vocabulary) is split by rows into chunks, one dispatch each;
//! - a device error (out of memory, a lost device) is an `Err` with the numbers, never a panic.

mod kernels;
mod pack;

use crate::GpuError;
use skillpg_decoder::DecoderError;
use skillpg_decoder::forward::{Forward, log_probs_from_logits};
use skillpg_decoder::model::{Config, Decoder, Logits, RopeLayout};

use crate::split_groups;
use kernels::{Bindings, DeviceMatrix, Params, Step, flag, rope_table, unsaturate};
pub use kernels::{DecoderKernels, Kernel, MATVEC_ROWS, MATVEC_TOKENS, ProductInput, wgsl_modules};
pub use pack::{Packed, Storage, pack};

/// The most positions the device's key/value cache holds: the model's context, capped so that
/// a 24-layer model's cache stays near 100 MB.
pub const MAX_CACHE: usize = 4096;
/// The most tokens one submitted pass runs; a longer prompt runs in passes of this many.
const PASS_TOKENS: usize = 512;
/// The most rows of logits one pass computes (the products that compute them are `matvec`s).
const LOGIT_ROWS: usize = MATVEC_TOKENS;
/// The most log-probabilities one pass computes on the device.
pub const MAX_WANTED: usize = 1024;

/// What decides a planned dispatch's workgroups.
#[derive(Debug, Clone, Copy)]
enum Work {
    /// `matvec`: a workgroup each [`MATVEC_ROWS`] rows of this chunk.
    Rows(usize),
    /// `tiled`: 64 × 64 tiles of this chunk's rows by the pass's tokens.
    Tiles(usize),
    /// `rms_norm`: a workgroup a token.
    Tokens,
    /// This many invocations a token, 64 a workgroup.
    PerToken(usize),
    /// `attention`: a workgroup a (token, head).
    TokenHeads(usize),
    /// `argmax`: one workgroup.
    One,
    /// `log_probs`: a workgroup a wanted value.
    Wanted,
}

impl Work {
    fn groups(self, n: usize, wanted: usize) -> (u32, u32) {
        match self {
            Work::Rows(rows) => split_groups(rows.div_ceil(MATVEC_ROWS)),
            Work::Tiles(rows) => (rows.div_ceil(64) as u32, n.div_ceil(64) as u32),
            Work::Tokens => split_groups(n),
            Work::PerToken(per) => crate::Gpu::groups_of_64(n * per),
            Work::TokenHeads(heads) => split_groups(n * heads),
            Work::One => (1, 1),
            Work::Wanted => split_groups(wanted),
        }
    }
}

/// What a dispatch reads and computes, for the per-kernel tables' bandwidth and arithmetic.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// Bytes read once a pass (a product's weights).
    pub fixed_bytes: f64,
    /// Bytes read and written a token.
    pub bytes_per_token: f64,
    /// Floating-point operations a token.
    pub flops_per_token: f64,
    /// Bytes a token reads for each position it attends to.
    pub bytes_per_position: f64,
    /// Operations a token does for each position it attends to.
    pub flops_per_position: f64,
}

impl Cost {
    /// Bytes and operations of a dispatch over `n` tokens after `start` cached positions.
    pub fn of(&self, n: usize, start: usize) -> (f64, f64) {
        // Token t attends to start + t + 1 positions.
        let positions = n as f64 * start as f64 + (n * (n + 1)) as f64 / 2.0;
        let (n, p) = (n as f64, positions);
        (
            self.fixed_bytes + n * self.bytes_per_token + p * self.bytes_per_position,
            n * self.flops_per_token + p * self.flops_per_position,
        )
    }
}

/// One planned dispatch: its kernel, its bind group (made at load), what sizes it, what it costs.
#[derive(Debug)]
struct Site {
    kernel: Kernel,
    bind: wgpu::BindGroup,
    work: Work,
    /// Read by the profile, which times passes natively only (it waits on the device).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    cost: Cost,
}

/// Which list of the plan a dispatch belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// A pass of at most [`MATVEC_TOKENS`] tokens.
    Decode,
    /// A longer pass.
    Prefill,
    /// The logits of the wanted rows.
    Head,
    Argmax,
    LogProbs,
}

/// A dispatch before its bind group exists (every uniform block is written first, in one buffer).
struct Spec<'a> {
    path: Path,
    kernel: Kernel,
    params: Params,
    bindings: Bindings<'a>,
    work: Work,
    cost: Cost,
}

/// One layer's weights on the device.
#[derive(Debug)]
struct DeviceLayer {
    attn_norm: wgpu::Buffer,
    /// The `[q | k | v]` product: one matrix where the three share a storage, else three, each
    /// with its first output.
    qkv: Vec<(DeviceMatrix, usize)>,
    /// `[q | k | v]` biases (Qwen2).
    qkv_bias: Option<wgpu::Buffer>,
    o: Vec<(DeviceMatrix, usize)>,
    ffn_norm: wgpu::Buffer,
    /// The `[gate | up]` product, likewise.
    gate_up: Vec<(DeviceMatrix, usize)>,
    down: Vec<(DeviceMatrix, usize)>,
}

/// The buffers a pass works in, made at load.
#[derive(Debug)]
struct Buffers {
    /// The pass's `Step`.
    step: wgpu::Buffer,
    /// The residual stream, `pass_tokens × dim`.
    x: wgpu::Buffer,
    /// A normalized copy of it (prefill).
    h: wgpu::Buffer,
    /// `[q | k | v]` a token.
    qkv: wgpu::Buffer,
    /// The rotated queries.
    q: wgpu::Buffer,
    attn: wgpu::Buffer,
    /// `[gate | up]` a token.
    gate_up: wgpu::Buffer,
    /// `silu(gate) · up` (prefill).
    act: wgpu::Buffer,
    /// The pass's rotary table.
    rope: wgpu::Buffer,
    /// Per layer, `capacity` keys then `capacity` values.
    caches: Vec<wgpu::Buffer>,
    /// The wanted rows' logits.
    logits: wgpu::Buffer,
    /// The wanted `(row, id)` pairs of `log_probs`.
    wanted: wgpu::Buffer,
    /// `argmax`'s id and value, or the log-probabilities.
    result: wgpu::Buffer,
    /// Where a read-back is copied and mapped.
    staging: wgpu::Buffer,
}

/// The planned dispatches of a pass.
#[derive(Debug)]
struct Plan {
    decode: Vec<Site>,
    prefill: Vec<Site>,
    head: Vec<Site>,
    argmax: Site,
    log_probs: Site,
}

/// What a pass reads back.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Out {
    /// Nothing (a prefix being cached).
    Nothing,
    /// The logits of `rows` rows from `first`.
    Logits { first: usize, rows: usize },
    /// The last row's greedy token.
    Argmax,
    /// Log-probabilities of `(row, id)` pairs, the rows among `first..first + rows`.
    LogProbs {
        first: usize,
        rows: usize,
        wanted: Vec<(usize, u32)>,
    },
}

/// A decoder on the GPU, with its key/value cache there: the [`Forward`] the worker and the
/// benchmark drive the routing protocol with.
#[derive(Debug)]
pub struct GpuDecoder {
    kernels: DecoderKernels,
    /// The model (its embeddings are gathered on the CPU; its shape drives the kernels).
    model: Decoder,
    /// The weights (kept alive: the bind groups hold them).
    _layers: Vec<DeviceLayer>,
    _head: Vec<(DeviceMatrix, usize)>,
    _norm: wgpu::Buffer,
    bufs: Buffers,
    plan: Plan,
    /// Positions the cache holds.
    capacity: usize,
    /// Tokens a pass runs at most.
    pass_tokens: usize,
    len: usize,
    /// Bytes of weights on the device.
    pub device_bytes: u64,
    /// How the matrices are stored on the device (e.g. "Q4/Q8"), for the backend line.
    pub storage: String,
}

fn bytes_of(v: &[f32]) -> &[u8] {
    bytemuck::cast_slice(v)
}

impl GpuDecoder {
    /// Uploads `model`'s weights and plans every pass; `Err` names what the device could not
    /// hold (the sizes) or could not do.
    pub async fn new(
        kernels: DecoderKernels,
        model: Decoder,
    ) -> Result<GpuDecoder, (Decoder, GpuError)> {
        let c = model.config;
        if c.head_dim > 256 || c.head_dim % 2 == 1 {
            return Err((
                model,
                GpuError::Device(format!(
                    "the model's heads are {} wide; the GPU attention kernel holds an even width of 256 at most",
                    c.head_dim
                )),
            ));
        }
        if c.kv_heads == 0 || !c.heads.is_multiple_of(c.kv_heads) {
            return Err((
                model,
                GpuError::Device(format!(
                    "{} query heads do not share {} key/value heads evenly",
                    c.heads, c.kv_heads
                )),
            ));
        }
        let (built, error) = kernels
            .gpu
            .catching(|| GpuDecoder::build(&kernels, &model))
            .await;
        let built = match (built, error) {
            (Ok(parts), None) => parts,
            (Err(e), _) => return Err((model, e)),
            (Ok(parts), Some(e)) => {
                return Err((
                    model,
                    GpuError::Device(format!(
                        "the GPU could not hold the model's {:.0} MB of weights and buffers: {e}",
                        parts.device_bytes as f64 / 1e6
                    )),
                ));
            }
        };
        let Built {
            layers,
            head,
            norm,
            bufs,
            plan,
            capacity,
            pass_tokens,
            device_bytes,
            storage,
        } = built;
        Ok(GpuDecoder {
            kernels,
            model,
            _layers: layers,
            _head: head,
            _norm: norm,
            bufs,
            plan,
            capacity,
            pass_tokens,
            len: 0,
            device_bytes,
            storage,
        })
    }

    /// The model back (to run on the CPU after a GPU failure).
    pub fn into_model(self) -> Decoder {
        self.model
    }

    /// Positions the device's cache holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The device.
    pub fn gpu(&self) -> &crate::Gpu {
        &self.kernels.gpu
    }

    fn build(k: &DecoderKernels, model: &Decoder) -> Result<Built, GpuError> {
        let c = model.config;
        let g = &k.gpu;
        let mut device_bytes = 0u64;
        let mut kinds: Vec<Storage> = Vec::new();
        let mut upload = |parts: Vec<Packed>| -> Result<Vec<(DeviceMatrix, usize)>, GpuError> {
            let parts = match Packed::stack(&parts) {
                Some(one) => vec![one],
                None => parts,
            };
            let mut offset = 0;
            let mut out = Vec::new();
            for p in parts {
                device_bytes += p.words.len() as u64 * 4;
                if !kinds.contains(&p.storage) {
                    kinds.push(p.storage);
                }
                let rows = p.rows;
                out.push((k.upload_matrix(&p)?, offset));
                offset += rows;
            }
            Ok(out)
        };
        let storage_ro = wgpu::BufferUsages::STORAGE;
        let vector = |label: &str, v: &[f32]| g.buffer_init(label, bytes_of(v), storage_ro);
        let mut layers = Vec::new();
        for l in model.layer_views() {
            let qkv = upload(vec![pack(&l.q), pack(&l.k), pack(&l.v)])?;
            let qkv_bias = l
                .qkv_bias
                .map(|[a, b, cc]| vector("qkv-bias", &[a, b, cc].concat()));
            let o = upload(vec![pack(&l.o)])?;
            let gate_up = upload(vec![pack(&l.gate), pack(&l.up)])?;
            let down = upload(vec![pack(&l.down)])?;
            layers.push(DeviceLayer {
                attn_norm: vector("attn-norm", l.attn_norm),
                qkv,
                qkv_bias,
                o,
                ffn_norm: vector("ffn-norm", l.ffn_norm),
                gate_up,
                down,
            });
        }
        let head = upload(vec![pack(&model.head_view())])?;
        let norm = vector("final-norm", model.final_norm());
        let storage = kinds
            .iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join("/");

        // The activations, for passes of up to `pass_tokens` tokens, each within a binding.
        let kv_dim = c.kv_heads * c.head_dim;
        let qkv_width = c.dim + 2 * kv_dim;
        let widest = (2 * c.ff).max(qkv_width).max(c.dim) as u64 * 4;
        let pass_tokens = PASS_TOKENS.min((k.max_binding / widest) as usize).max(1);
        let capacity = c
            .context
            .min(MAX_CACHE)
            .min((k.max_binding / (2 * kv_dim as u64 * 4)) as usize);
        if capacity == 0 || LOGIT_ROWS as u64 * c.vocab as u64 * 4 > k.max_binding {
            return Err(GpuError::Device(format!(
                "this GPU binds {} bytes at most: too few for the model's {} key/value widths or {} logits",
                k.max_binding, kv_dim, c.vocab
            )));
        }
        let act = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        let floats = |label: &str, n: usize| g.buffer(label, (n.max(1) * 4) as u64, act);
        let t = pass_tokens;
        let read_floats = (LOGIT_ROWS * c.vocab).max(MAX_WANTED).max(2);
        let bufs = Buffers {
            step: g.buffer(
                "step",
                std::mem::size_of::<Step>() as u64,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            x: floats("x", t * c.dim),
            h: floats("h", t * c.dim),
            qkv: floats("qkv", t * qkv_width),
            q: floats("q", t * c.dim),
            attn: floats("attn", t * c.dim),
            gate_up: floats("gate-up", t * 2 * c.ff),
            act: floats("act", t * c.ff),
            rope: floats("rope", t * c.head_dim),
            caches: (0..c.layers)
                .map(|_| floats("kv-cache", 2 * capacity * kv_dim))
                .collect(),
            logits: floats("logits", LOGIT_ROWS * c.vocab),
            wanted: floats("wanted", 2 * MAX_WANTED),
            result: floats("result", MAX_WANTED.max(2)),
            staging: g.buffer(
                "staging",
                (read_floats * 4) as u64,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
        };
        device_bytes += (2 * capacity * kv_dim * c.layers * 4) as u64;
        let specs = plan_specs(&c, capacity, &layers, &head, &norm, &bufs);
        // Every uniform block in one buffer, each at an aligned offset.
        let align = k.uniform_align.max(std::mem::size_of::<Params>() as u64) as usize;
        let mut blocks = vec![0u8; specs.len() * align];
        for (i, s) in specs.iter().enumerate() {
            blocks[i * align..i * align + std::mem::size_of::<Params>()]
                .copy_from_slice(bytemuck::bytes_of(&s.params));
        }
        let params = g.buffer_init("params", &blocks, wgpu::BufferUsages::UNIFORM);
        let (mut decode, mut prefill, mut head_sites, mut argmax, mut log_probs) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, s) in specs.into_iter().enumerate() {
            let site = Site {
                kernel: s.kernel,
                bind: k.bind((&params, (i * align) as u64), &bufs.step, s.bindings),
                work: s.work,
                cost: s.cost,
            };
            match s.path {
                Path::Decode => decode.push(site),
                Path::Prefill => prefill.push(site),
                Path::Head => head_sites.push(site),
                Path::Argmax => argmax.push(site),
                Path::LogProbs => log_probs.push(site),
            }
        }
        let (Some(argmax), Some(log_probs)) = (argmax.pop(), log_probs.pop()) else {
            return Err(GpuError::Device(
                "the plan has no argmax or log_probs dispatch".to_owned(),
            ));
        };
        let plan = Plan {
            decode,
            prefill,
            head: head_sites,
            argmax,
            log_probs,
        };
        Ok(Built {
            layers,
            head,
            norm,
            bufs,
            plan,
            capacity,
            pass_tokens,
            device_bytes,
            storage,
        })
    }

    /// Writes what a pass of `ids` after the cache's positions reads (its step block, its tokens'
    /// embeddings, its rotary table, the wanted log-probabilities' pairs); the number wanted.
    fn stage(&self, ids: &[u32], out: &Out) -> usize {
        let g = &self.kernels.gpu;
        let (n, start) = (ids.len(), self.len);
        let (first, rows) = match out {
            Out::Nothing => (0, 0),
            Out::Logits { first, rows } | Out::LogProbs { first, rows, .. } => (*first, *rows),
            Out::Argmax => (n - 1, 1),
        };
        let step = Step {
            n: n as u32,
            start: start as u32,
            first: first as u32,
            rows: rows as u32,
        };
        g.write(&self.bufs.step, 0, bytemuck::bytes_of(&step));
        g.write(&self.bufs.x, 0, bytes_of(&self.model.embed_rows(ids)));
        g.write(
            &self.bufs.rope,
            0,
            bytes_of(&rope_table(self.model.inv_freq(), start, n)),
        );
        match out {
            Out::LogProbs { wanted, .. } => {
                let pairs: Vec<u32> = wanted
                    .iter()
                    .flat_map(|&(row, id)| [(row - first) as u32, id])
                    .collect();
                g.write(&self.bufs.wanted, 0, bytemuck::cast_slice(&pairs));
                wanted.len()
            }
            _ => 0,
        }
    }

    /// The dispatches of a pass of `n` tokens that reads back `out`, in order.
    fn sites(&self, n: usize, out: &Out) -> impl Iterator<Item = &Site> {
        let layers = if n <= MATVEC_TOKENS {
            &self.plan.decode
        } else {
            &self.plan.prefill
        };
        let (head, reduce): (&[Site], Option<&Site>) = match out {
            Out::Nothing => (&[], None),
            Out::Logits { .. } => (&self.plan.head, None),
            Out::Argmax => (&self.plan.head, Some(&self.plan.argmax)),
            Out::LogProbs { .. } => (&self.plan.head, Some(&self.plan.log_probs)),
        };
        layers.iter().chain(head).chain(reduce)
    }

    /// Records one pass of `ids` (at most `pass_tokens`) after the cache's positions into one
    /// compute pass, with what `out` reads copied to the staging buffer, and submits it; the
    /// bytes to read back.
    fn encode(&mut self, ids: &[u32], out: &Out) -> u64 {
        let g = &self.kernels.gpu;
        let n = ids.len();
        let wanted = self.stage(ids, out);
        let mut enc = g.encoder();
        {
            let mut pass = g.pass(&mut enc, "decoder", None);
            for site in self.sites(n, out) {
                g.dispatch_in(
                    &mut pass,
                    self.kernels.pipeline(site.kernel),
                    &site.bind,
                    site.work.groups(n, wanted),
                );
            }
        }
        let bytes = match out {
            Out::Nothing => 0,
            Out::Logits { rows, .. } => (rows * self.model.config.vocab * 4) as u64,
            Out::Argmax => 8,
            Out::LogProbs { .. } => (wanted * 4) as u64,
        };
        let from = if matches!(out, Out::Logits { .. }) {
            &self.bufs.logits
        } else {
            &self.bufs.result
        };
        if bytes > 0 {
            enc.copy_buffer_to_buffer(from, 0, &self.bufs.staging, 0, bytes);
        }
        g.submit(enc);
        self.len += n;
        bytes
    }

    /// Runs `ids` (at most a pass) as [`Forward::forward_argmax`] would, each dispatch timed
    /// (`crate::profile`): the per-kernel table's rows, and how they were timed. The cache keeps
    /// the tokens.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn profile(
        &mut self,
        ids: &[u32],
    ) -> Result<(Vec<crate::profile::KernelTime>, crate::profile::Timing), GpuError> {
        if ids.is_empty() || ids.len() > self.pass_tokens || self.len + ids.len() > self.capacity {
            return Err(GpuError::Device(format!(
                "a profiled pass runs 1 to {} tokens within the cache's {} positions",
                self.pass_tokens, self.capacity
            )));
        }
        let (n, start) = (ids.len(), self.len);
        let out = Out::Argmax;
        let wanted = self.stage(ids, &out);
        let dispatches: Vec<crate::profile::Timed<'_>> = self
            .sites(n, &out)
            .map(|site| {
                let (bytes, flops) = site.cost.of(n, start);
                crate::profile::Timed {
                    pipeline: self.kernels.pipeline(site.kernel),
                    bind: &site.bind,
                    groups: site.work.groups(n, wanted),
                    kind: site.kernel.kind(),
                    bytes,
                    flops,
                }
            })
            .collect();
        let timed = crate::profile::time_dispatches(&self.kernels.gpu, &dispatches)?;
        self.len += n;
        Ok(timed)
    }

    /// One pass (at most `pass_tokens` tokens): what `out` asks for, read back.
    async fn pass(&mut self, ids: &[u32], out: Out) -> Result<Vec<f32>, GpuError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        if self.len + ids.len() > self.capacity {
            return Err(GpuError::Device(format!(
                "the GPU's key/value cache holds {} positions; this pass needs {}",
                self.capacity,
                self.len + ids.len()
            )));
        }
        let gpu = self.kernels.gpu.clone();
        let (bytes, error) = gpu.catching(|| self.encode(ids, &out)).await;
        if let Some(e) = error {
            // The cache may hold half a pass: forget it.
            self.len = 0;
            return Err(GpuError::Device(format!("the GPU failed: {e}")));
        }
        if bytes == 0 {
            return Ok(Vec::new());
        }
        gpu.read_staging(&self.bufs.staging, bytes).await
    }

    /// `ids` in passes of at most `pass_tokens`, the last one's read-back `last`.
    async fn passes(&mut self, ids: &[u32], last: Out) -> Result<Vec<f32>, GpuError> {
        let split = ids.len().saturating_sub(1) / self.pass_tokens * self.pass_tokens;
        for chunk in ids[..split].chunks(self.pass_tokens) {
            self.pass(chunk, Out::Nothing).await?;
        }
        let tail = &ids[split..];
        let last = match last {
            Out::Logits { first, rows } => Out::Logits {
                first: first - split,
                rows,
            },
            Out::LogProbs {
                first,
                rows,
                wanted,
            } => Out::LogProbs {
                first: first - split,
                rows,
                wanted: wanted.into_iter().map(|(r, id)| (r - split, id)).collect(),
            },
            other => other,
        };
        self.pass(tail, last).await
    }

    async fn run(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, GpuError> {
        match logits {
            Logits::None => self.passes(ids, Out::Nothing).await,
            Logits::Last => {
                self.passes(
                    ids,
                    Out::Logits {
                        first: ids.len().saturating_sub(1),
                        rows: 1,
                    },
                )
                .await
            }
            Logits::All => {
                let mut all = Vec::with_capacity(ids.len() * self.model.config.vocab);
                for chunk in ids.chunks(LOGIT_ROWS) {
                    all.extend(
                        self.pass(
                            chunk,
                            Out::Logits {
                                first: 0,
                                rows: chunk.len(),
                            },
                        )
                        .await?,
                    );
                }
                Ok(all)
            }
        }
    }

    async fn argmax(&mut self, ids: &[u32]) -> Result<u32, GpuError> {
        if ids.is_empty() {
            return Err(GpuError::Device("no token to decode from".to_owned()));
        }
        let out = self.passes(ids, Out::Argmax).await?;
        out.first()
            .map(|v| v.to_bits())
            .ok_or_else(|| GpuError::Device("the GPU read back no token".to_owned()))
    }

    async fn log_probs(
        &mut self,
        ids: &[u32],
        wanted: &[(usize, u32)],
    ) -> Result<Vec<f32>, DecoderError> {
        let (Some(lo), Some(hi)) = (
            wanted.iter().map(|w| w.0).min(),
            wanted.iter().map(|w| w.0).max(),
        ) else {
            return log_probs_from_logits(self, ids, wanted).await;
        };
        if hi >= ids.len() || hi - lo >= LOGIT_ROWS || wanted.len() > MAX_WANTED {
            // Rows further apart than a pass's logits, or more values than its buffer: the logits
            // are read back and reduced on the CPU.
            return log_probs_from_logits(self, ids, wanted).await;
        }
        // The tokens before the first wanted row, the wanted rows' pass, the tokens after.
        self.passes(&ids[..lo], Out::Nothing).await?;
        let wanted_rel: Vec<(usize, u32)> = wanted.iter().map(|&(r, id)| (r - lo, id)).collect();
        let values = self
            .pass(
                &ids[lo..=hi],
                Out::LogProbs {
                    first: 0,
                    rows: hi - lo + 1,
                    wanted: wanted_rel,
                },
            )
            .await?;
        self.passes(&ids[hi + 1..], Out::Nothing).await?;
        Ok(values.into_iter().map(unsaturate).collect())
    }
}

/// What `build` makes.
struct Built {
    layers: Vec<DeviceLayer>,
    head: Vec<(DeviceMatrix, usize)>,
    norm: wgpu::Buffer,
    bufs: Buffers,
    plan: Plan,
    capacity: usize,
    pass_tokens: usize,
    device_bytes: u64,
    storage: String,
}

/// A product's operands, for [`products`].
struct Product<'a> {
    input: &'a wgpu::Buffer,
    /// Values a token in `input`.
    in_stride: usize,
    /// RMSNorm the input with these gains first.
    gains: Option<&'a wgpu::Buffer>,
    bias: Option<&'a wgpu::Buffer>,
    /// The input is `[gate | up]`: read `silu(gate) · up`.
    silu: bool,
    /// Add into `out` (the residual stream).
    accumulate: bool,
    /// The input rows are the logits' wanted rows.
    logits: bool,
    out: &'a wgpu::Buffer,
    /// Values a token in `out`.
    out_width: usize,
}

/// A product's dispatches, one a chunk of each of its matrices: `matvec` on the decode path and
/// for the logits, `tiled` for a prefill.
fn products<'a>(
    path: Path,
    c: &Config,
    parts: &'a [(DeviceMatrix, usize)],
    p: Product<'a>,
) -> Vec<Spec<'a>> {
    let tiled = path == Path::Prefill;
    let mut flags = 0;
    for (on, f) in [
        (p.bias.is_some(), flag::BIAS),
        (p.accumulate, flag::ACCUMULATE),
        (p.gains.is_some(), flag::NORM),
        (p.silu, flag::SILU),
        (p.logits, flag::LOGITS),
    ] {
        if on {
            flags |= f;
        }
    }
    let mut specs = Vec::new();
    for (m, offset) in parts {
        for (lo, rows, buf) in &m.chunks {
            let (rows, cols) = (*rows, m.cols);
            specs.push(Spec {
                path,
                kernel: if tiled {
                    Kernel::Tiled(m.storage)
                } else {
                    Kernel::Matvec(m.storage)
                },
                params: Params {
                    rows: rows as u32,
                    cols: cols as u32,
                    row_words: m.row_words as u32,
                    out_stride: p.out_width as u32,
                    out_offset: (offset + lo) as u32,
                    in_stride: p.in_stride as u32,
                    flags,
                    eps: c.eps,
                    ff: if p.silu { cols as u32 } else { 0 },
                    ..Params::default()
                },
                bindings: Bindings {
                    a: Some(p.input),
                    w: Some(buf),
                    b: p.bias,
                    c: p.gains,
                    out: Some(p.out),
                    ..Bindings::default()
                },
                work: if tiled {
                    Work::Tiles(rows)
                } else {
                    Work::Rows(rows)
                },
                cost: Cost {
                    fixed_bytes: (rows * m.row_words * 4) as f64,
                    bytes_per_token: ((if p.silu { 2 } else { 1 }) * cols
                        + rows * (if p.accumulate { 2 } else { 1 }))
                        as f64
                        * 4.0,
                    flops_per_token: (2 * rows * cols) as f64,
                    ..Cost::default()
                },
            });
        }
    }
    specs
}

/// Every dispatch of a pass, in order, for both paths (decode and prefill), the logits and the
/// two reductions.
fn plan_specs<'a>(
    c: &Config,
    capacity: usize,
    layers: &'a [DeviceLayer],
    head: &'a [(DeviceMatrix, usize)],
    norm: &'a wgpu::Buffer,
    b: &'a Buffers,
) -> Vec<Spec<'a>> {
    let kv_dim = c.kv_heads * c.head_dim;
    let qkv_width = c.dim + 2 * kv_dim;
    let halves = if c.rope == RopeLayout::Halves {
        flag::HALVES
    } else {
        0
    };
    let mut specs = Vec::new();
    for (l, cache) in layers.iter().zip(&b.caches) {
        let rope = |path| Spec {
            path,
            kernel: Kernel::RopeKv,
            params: Params {
                heads: c.heads as u32,
                kv_heads: c.kv_heads as u32,
                head_dim: c.head_dim as u32,
                in_stride: qkv_width as u32,
                capacity: capacity as u32,
                flags: halves,
                ..Params::default()
            },
            bindings: Bindings {
                a: Some(&b.qkv),
                b: Some(&b.rope),
                out: Some(cache),
                out2: Some(&b.q),
                ..Bindings::default()
            },
            work: Work::PerToken((c.heads + c.kv_heads) * c.head_dim / 2 + kv_dim),
            cost: Cost {
                bytes_per_token: ((c.dim + kv_dim) * 3 + kv_dim * 2) as f64 * 4.0,
                flops_per_token: (3 * (c.dim + kv_dim)) as f64,
                ..Cost::default()
            },
        };
        let attention = |path| Spec {
            path,
            kernel: Kernel::Attention,
            params: Params {
                heads: c.heads as u32,
                kv_heads: c.kv_heads as u32,
                head_dim: c.head_dim as u32,
                capacity: capacity as u32,
                ..Params::default()
            },
            bindings: Bindings {
                a: Some(&b.q),
                b: Some(cache),
                out: Some(&b.attn),
                ..Bindings::default()
            },
            work: Work::TokenHeads(c.heads),
            cost: Cost {
                bytes_per_token: (2 * c.dim * 4) as f64,
                bytes_per_position: (2 * c.heads * c.head_dim * 4) as f64,
                flops_per_position: (4 * c.heads * c.head_dim) as f64,
                ..Cost::default()
            },
        };
        let norm_spec = |gains: &'a wgpu::Buffer| Spec {
            path: Path::Prefill,
            kernel: Kernel::RmsNorm,
            params: Params {
                cols: c.dim as u32,
                in_stride: c.dim as u32,
                eps: c.eps,
                ..Params::default()
            },
            bindings: Bindings {
                a: Some(&b.x),
                b: Some(gains),
                out: Some(&b.h),
                ..Bindings::default()
            },
            work: Work::Tokens,
            cost: Cost {
                bytes_per_token: (c.dim * 8) as f64,
                flops_per_token: (c.dim * 4) as f64,
                ..Cost::default()
            },
        };
        let product =
            |path, parts, input, in_stride, gains, bias, silu, accumulate, out, out_width| {
                products(
                    path,
                    c,
                    parts,
                    Product {
                        input,
                        in_stride,
                        gains,
                        bias,
                        silu,
                        accumulate,
                        logits: false,
                        out,
                        out_width,
                    },
                )
            };
        // Decode: the norms and the gate inside the products, the residual adds too.
        specs.extend(product(
            Path::Decode,
            &l.qkv,
            &b.x,
            c.dim,
            Some(&l.attn_norm),
            l.qkv_bias.as_ref(),
            false,
            false,
            &b.qkv,
            qkv_width,
        ));
        specs.push(rope(Path::Decode));
        specs.push(attention(Path::Decode));
        specs.extend(product(
            Path::Decode,
            &l.o,
            &b.attn,
            c.dim,
            None,
            None,
            false,
            true,
            &b.x,
            c.dim,
        ));
        specs.extend(product(
            Path::Decode,
            &l.gate_up,
            &b.x,
            c.dim,
            Some(&l.ffn_norm),
            None,
            false,
            false,
            &b.gate_up,
            2 * c.ff,
        ));
        specs.extend(product(
            Path::Decode,
            &l.down,
            &b.gate_up,
            2 * c.ff,
            None,
            None,
            true,
            true,
            &b.x,
            c.dim,
        ));
        // Prefill: the tiled products, the norms and the gate apart.
        specs.push(norm_spec(&l.attn_norm));
        specs.extend(product(
            Path::Prefill,
            &l.qkv,
            &b.h,
            c.dim,
            None,
            l.qkv_bias.as_ref(),
            false,
            false,
            &b.qkv,
            qkv_width,
        ));
        specs.push(rope(Path::Prefill));
        specs.push(attention(Path::Prefill));
        specs.extend(product(
            Path::Prefill,
            &l.o,
            &b.attn,
            c.dim,
            None,
            None,
            false,
            true,
            &b.x,
            c.dim,
        ));
        specs.push(norm_spec(&l.ffn_norm));
        specs.extend(product(
            Path::Prefill,
            &l.gate_up,
            &b.h,
            c.dim,
            None,
            None,
            false,
            false,
            &b.gate_up,
            2 * c.ff,
        ));
        specs.push(Spec {
            path: Path::Prefill,
            kernel: Kernel::SiluMul,
            params: Params {
                ff: c.ff as u32,
                ..Params::default()
            },
            bindings: Bindings {
                a: Some(&b.gate_up),
                out: Some(&b.act),
                ..Bindings::default()
            },
            work: Work::PerToken(c.ff),
            cost: Cost {
                bytes_per_token: (c.ff * 12) as f64,
                flops_per_token: (c.ff * 5) as f64,
                ..Cost::default()
            },
        });
        specs.extend(product(
            Path::Prefill,
            &l.down,
            &b.act,
            c.ff,
            None,
            None,
            false,
            true,
            &b.x,
            c.dim,
        ));
    }
    specs.extend(products(
        Path::Head,
        c,
        head,
        Product {
            input: &b.x,
            in_stride: c.dim,
            gains: Some(norm),
            bias: None,
            silu: false,
            accumulate: false,
            logits: true,
            out: &b.logits,
            out_width: c.vocab,
        },
    ));
    let reduce = |path, kernel, w: Option<&'a wgpu::Buffer>, work| Spec {
        path,
        kernel,
        params: Params {
            cols: c.vocab as u32,
            ..Params::default()
        },
        bindings: Bindings {
            a: Some(&b.logits),
            w,
            out: Some(&b.result),
            ..Bindings::default()
        },
        work,
        cost: Cost {
            bytes_per_token: (c.vocab * 4) as f64,
            flops_per_token: c.vocab as f64,
            ..Cost::default()
        },
    };
    specs.push(reduce(Path::Argmax, Kernel::Argmax, None, Work::One));
    specs.push(reduce(
        Path::LogProbs,
        Kernel::LogProbs,
        Some(&b.wanted),
        Work::Wanted,
    ));
    specs
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

    async fn forward(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, DecoderError> {
        Ok(self.run(ids, logits).await?)
    }

    async fn forward_argmax(&mut self, ids: &[u32]) -> Result<u32, DecoderError> {
        Ok(self.argmax(ids).await?)
    }

    fn forward_log_probs(
        &mut self,
        ids: &[u32],
        wanted: &[(usize, u32)],
    ) -> impl Future<Output = Result<Vec<f32>, DecoderError>> {
        self.log_probs(ids, wanted)
    }
}
