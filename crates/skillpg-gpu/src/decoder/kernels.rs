//! The decoder's kernels, compiled once on a device: one product module per storage (`matvec`
//! and `tiled`), the other kernels in one module, all under one bind-group layout (two uniform
//! blocks, four read-only buffers, two written), so that any planned bind group serves any of
//! them. Each kernel alone can also be run on fresh buffers (`run_*`), which is how the tests
//! hold each to its CPU twin.

use crate::GpuError;
use skillpg_decoder::model::{Config, RopeLayout, rope_angles};

use super::pack::{Packed, Storage};
use crate::{Gpu, buffer_binding, split_groups};

/// A planned dispatch's fixed uniform block (`Params` in `params.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Default, PartialEq)]
pub(super) struct Params {
    pub rows: u32,
    pub cols: u32,
    pub row_words: u32,
    pub out_stride: u32,
    pub out_offset: u32,
    pub in_stride: u32,
    pub flags: u32,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub capacity: u32,
    pub eps: f32,
    pub ff: u32,
    pub pad: [u32; 3],
}

/// What one forward pass changes (`Step` in `params.wgsl`): written once a pass.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Default, PartialEq, Eq)]
pub(super) struct Step {
    pub n: u32,
    pub start: u32,
    pub first: u32,
    pub rows: u32,
}

/// The flags of `Params::flags` (`FLAG_*` in `params.wgsl`).
pub(super) mod flag {
    pub const BIAS: u32 = 1;
    pub const ACCUMULATE: u32 = 2;
    pub const NORM: u32 = 4;
    pub const SILU: u32 = 8;
    pub const LOGITS: u32 = 16;
    pub const HALVES: u32 = 32;
}

/// The most tokens `matvec` multiplies at once (`MV` in `product.wgsl`): a pass of more goes
/// through `tiled`.
pub const MATVEC_TOKENS: usize = 8;

/// The rows a `matvec` workgroup computes (`MV_ROWS` in `product.wgsl`).
pub const MATVEC_ROWS: usize = 4;

/// A kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// A product for at most [`MATVEC_TOKENS`] tokens: a workgroup each [`MATVEC_ROWS`] rows.
    Matvec(Storage),
    /// A product for a prefill: 64 × 64 tiles.
    Tiled(Storage),
    RmsNorm,
    SiluMul,
    RopeKv,
    Attention,
    Argmax,
    LogProbs,
}

impl Kernel {
    /// The kernel's kind, as the benchmarks' per-kernel tables group them.
    pub fn kind(self) -> &'static str {
        match self {
            Kernel::Matvec(_) => "product (matvec)",
            Kernel::Tiled(_) => "product (tiled)",
            Kernel::RmsNorm => "rms_norm",
            Kernel::SiluMul => "silu_mul",
            Kernel::RopeKv => "rope_kv",
            Kernel::Attention => "attention",
            Kernel::Argmax => "argmax",
            Kernel::LogProbs => "log_probs",
        }
    }
}

/// The decoder's WGSL modules as compiled: a label, the source (the uniform blocks first), and
/// each entry point with its kernel.
type Module = (&'static str, String, Vec<(&'static str, Kernel)>);

fn modules() -> Vec<Module> {
    let params = include_str!("params.wgsl");
    let ops = vec![
        ("rms_norm", Kernel::RmsNorm),
        ("silu_mul", Kernel::SiluMul),
        ("rope_kv", Kernel::RopeKv),
        ("attention", Kernel::Attention),
        ("argmax", Kernel::Argmax),
        ("log_probs", Kernel::LogProbs),
    ];
    let mut all = vec![(
        "decoder-ops",
        format!("{params}{}", include_str!("ops.wgsl")),
        ops,
    )];
    for storage in Storage::ALL {
        let source = format!(
            "{params}{}{}{}",
            include_str!("../tile.wgsl"),
            include_str!("product.wgsl"),
            storage.source()
        );
        all.push((
            "decoder-product",
            source,
            vec![
                ("matvec", Kernel::Matvec(storage)),
                ("tiled", Kernel::Tiled(storage)),
            ],
        ));
    }
    all
}

/// Every decoder module's WGSL as the device compiles it, with its entry points: for the
/// fast tier's check of every shader without a GPU (`tests/wgsl.rs`).
pub fn wgsl_modules() -> Vec<(String, String, Vec<&'static str>)> {
    modules()
        .into_iter()
        .map(|(label, source, entries)| {
            (
                label.to_owned(),
                source,
                entries.into_iter().map(|(e, _)| e).collect(),
            )
        })
        .collect()
}

/// The decoder's kernels on one device, for running them one by one (the tests' CPU twins)
/// and inside [`super::GpuDecoder`].
#[derive(Debug)]
pub struct DecoderKernels {
    /// The device.
    pub gpu: Gpu,
    pub(super) layout: wgpu::BindGroupLayout,
    pipelines: Vec<(Kernel, wgpu::ComputePipeline)>,
    /// What unused read-only bindings bind.
    pub(super) dummy_read: wgpu::Buffer,
    /// What unused written bindings bind (two: a buffer may not be written through two bindings).
    pub(super) dummy_out: [wgpu::Buffer; 2],
    /// The largest buffer the kernels may bind, in bytes.
    pub(super) max_binding: u64,
    /// The largest chunk a matrix is split into (the binding limit, or less in the tests).
    chunk_bytes: u64,
    /// The alignment of a uniform block's offset.
    pub(super) uniform_align: u64,
}

/// The buffers of one dispatch, by binding (`None`: the dummy).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Bindings<'a> {
    pub a: Option<&'a wgpu::Buffer>,
    pub w: Option<&'a wgpu::Buffer>,
    pub b: Option<&'a wgpu::Buffer>,
    pub c: Option<&'a wgpu::Buffer>,
    pub out: Option<&'a wgpu::Buffer>,
    pub out2: Option<&'a wgpu::Buffer>,
}

impl DecoderKernels {
    /// Compiles the decoder's kernels on `gpu`.
    pub fn new(gpu: Gpu) -> DecoderKernels {
        let device = gpu.device();
        let uniform = |binding| buffer_binding(binding, wgpu::BufferBindingType::Uniform);
        let storage = |binding, read_only| {
            buffer_binding(binding, wgpu::BufferBindingType::Storage { read_only })
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("decoder"),
            entries: &[
                uniform(0),
                uniform(1),
                storage(2, true),
                storage(3, true),
                storage(4, true),
                storage(5, true),
                storage(6, false),
                storage(7, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("decoder"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let compile = |label: &str,
                       source: String,
                       entries: &[(&'static str, Kernel)]|
         -> Vec<(Kernel, wgpu::ComputePipeline)> {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            entries
                .iter()
                .map(|&(entry, kernel)| {
                    let pipeline =
                        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                            label: Some(entry),
                            layout: Some(&pipeline_layout),
                            module: &module,
                            entry_point: Some(entry),
                            compilation_options: Default::default(),
                            cache: None,
                        });
                    (kernel, pipeline)
                })
                .collect()
        };
        let pipelines = modules()
            .into_iter()
            .flat_map(|(label, source, entries)| compile(label, source, &entries))
            .collect();
        let limits = gpu.limits();
        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let uniform_align = u64::from(limits.min_uniform_buffer_offset_alignment).max(16);
        let usage = wgpu::BufferUsages::STORAGE;
        let dummy_read = gpu.buffer("dummy", 16, usage);
        let dummy_out = [
            gpu.buffer("dummy-out", 16, usage),
            gpu.buffer("dummy-out2", 16, usage),
        ];
        DecoderKernels {
            layout,
            pipelines,
            dummy_read,
            dummy_out,
            max_binding,
            chunk_bytes: max_binding,
            uniform_align,
            gpu,
        }
    }

    /// The same with matrices split in chunks of at most `bytes` (the tests' way to split a
    /// small matrix as a large one is split at the device's binding limit).
    pub fn with_max_binding(mut self, bytes: u64) -> DecoderKernels {
        self.chunk_bytes = bytes.min(self.max_binding);
        self
    }

    pub(super) fn pipeline(&self, kernel: Kernel) -> &wgpu::ComputePipeline {
        // Kernels are the code's, not the input's: a missing one is a bug, and loud.
        let Some((_, p)) = self.pipelines.iter().find(|(k, _)| *k == kernel) else {
            panic!("no compiled decoder kernel {kernel:?}: the WGSL and the Rust disagree")
        };
        p
    }

    /// A bind group of the layout: `params` at `params_offset` of its buffer (one block), the step
    /// block, and the buffers (the dummies where `None`).
    pub(super) fn bind(
        &self,
        params: (&wgpu::Buffer, u64),
        step: &wgpu::Buffer,
        b: Bindings<'_>,
    ) -> wgpu::BindGroup {
        let d = &self.dummy_read;
        let size = std::num::NonZeroU64::new(std::mem::size_of::<Params>() as u64);
        self.gpu.bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: params.0,
                        offset: params.1,
                        size,
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: step.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: b.a.unwrap_or(d).as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: b.w.unwrap_or(d).as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: b.b.unwrap_or(d).as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: b.c.unwrap_or(d).as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 6,
                    resource: b.out.unwrap_or(&self.dummy_out[0]).as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 7,
                    resource: b.out2.unwrap_or(&self.dummy_out[1]).as_entire_binding(),
                },
            ],
        })
    }

    /// Uploads a packed matrix in chunks of rows that fit a binding; `Err` names the sizes when
    /// one row alone is larger.
    pub(super) fn upload_matrix(&self, m: &Packed) -> Result<DeviceMatrix, GpuError> {
        let chunks = self
            .chunks_of(m)?
            .into_iter()
            .map(|(lo, rows)| {
                (
                    lo,
                    rows,
                    self.gpu.buffer_init(
                        "weights",
                        bytemuck::cast_slice(buf_words(m, lo, rows)),
                        wgpu::BufferUsages::STORAGE,
                    ),
                )
            })
            .collect();
        Ok(DeviceMatrix {
            storage: m.storage,
            cols: m.cols,
            row_words: m.row_words,
            chunks,
        })
    }

    /// The chunks `(first row, rows)` a matrix is split in so that each fits a binding.
    fn chunks_of(&self, m: &Packed) -> Result<Vec<(usize, usize)>, GpuError> {
        let row_bytes = (m.row_words * 4) as u64;
        let per_chunk = (self.chunk_bytes / row_bytes.max(1)) as usize;
        if per_chunk == 0 {
            return Err(GpuError::Device(format!(
                "a weight row is {row_bytes} bytes, more than the {} bytes this GPU can bind",
                self.chunk_bytes
            )));
        }
        Ok((0..m.rows)
            .step_by(per_chunk)
            .map(|lo| (lo, per_chunk.min(m.rows - lo)))
            .collect())
    }

    /// Runs one kernel on fresh buffers: `inputs` in bindings a, w (as u32 bits), b, c; returns
    /// the written `out` (of `out_len` floats, after `out_init` is put there) and `out2`.
    #[allow(clippy::too_many_arguments, reason = "one dispatch's every operand")]
    async fn run_one(
        &self,
        kernel: Kernel,
        params: Params,
        step: Step,
        inputs: [Option<&[f32]>; 3],
        w: Option<&[u32]>,
        out_init: &[f32],
        out2_len: usize,
        groups: (u32, u32),
    ) -> Result<(Vec<f32>, Vec<f32>), GpuError> {
        let g = &self.gpu;
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let up =
            |v: Option<&[f32]>| v.map(|v| g.buffer_init("input", bytemuck::cast_slice(v), usage));
        let [a, b, c] = inputs.map(up);
        let w = w.map(|w| g.buffer_init("weights", bytemuck::cast_slice(w), usage));
        let out = g.buffer_init("out", bytemuck::cast_slice(out_init), usage);
        let out2 = g.buffer("out2", (out2_len.max(1) * 4) as u64, usage);
        let mut block = vec![0u8; self.uniform_align.max(64) as usize];
        block[..64].copy_from_slice(bytemuck::bytes_of(&params));
        let pbuf = g.buffer_init("params", &block, wgpu::BufferUsages::UNIFORM);
        let sbuf = g.buffer_init(
            "step",
            bytemuck::bytes_of(&step),
            wgpu::BufferUsages::UNIFORM,
        );
        let bind = self.bind(
            (&pbuf, 0),
            &sbuf,
            Bindings {
                a: a.as_ref(),
                w: w.as_ref(),
                b: b.as_ref(),
                c: c.as_ref(),
                out: Some(&out),
                out2: Some(&out2),
            },
        );
        let mut enc = g.encoder();
        {
            let mut pass = g.pass(&mut enc, kernel.kind(), None);
            g.dispatch_in(&mut pass, self.pipeline(kernel), &bind, groups);
        }
        g.submit(enc);
        let read = |buf: wgpu::Buffer, len: usize| crate::DeviceBuf { buf, len };
        let first = g.read(&read(out, out_init.len())).await?;
        let second = g.read(&read(out2, out2_len)).await?;
        Ok((first, second))
    }

    /// The product of `n` rows of `x` by a packed matrix (split in chunks as this device would:
    /// each chunk a dispatch), with an optional bias: `matvec` for at most [`MATVEC_TOKENS`]
    /// tokens, `tiled` past that, as a forward pass picks them.
    pub async fn run_matmul(
        &self,
        x: &[f32],
        n: usize,
        w: &Packed,
        bias: Option<&[f32]>,
    ) -> Result<Vec<f32>, GpuError> {
        self.run_product(x, n, w, bias, ProductInput::Plain, false)
            .await
    }

    /// [`Self::run_matmul`] with the input as the fused kernels read it; with `accumulate` the
    /// product is added to an output that holds ones, as the residual stream is added to.
    pub async fn run_product(
        &self,
        x: &[f32],
        n: usize,
        w: &Packed,
        bias: Option<&[f32]>,
        input: ProductInput<'_>,
        accumulate: bool,
    ) -> Result<Vec<f32>, GpuError> {
        let chunks = self.chunks_of(w)?;
        let kernel = |s| {
            if n <= MATVEC_TOKENS {
                Kernel::Matvec(s)
            } else {
                Kernel::Tiled(s)
            }
        };
        let mut y = vec![if accumulate { 1.0 } else { 0.0 }; n * w.rows];
        let (mut flags, mut in_stride, mut ff, mut gains, mut eps) = (0, w.cols, 0, None, 0.0);
        match input {
            ProductInput::Plain => {}
            ProductInput::Norm { gains: g, eps: e } => {
                flags |= flag::NORM;
                (gains, eps) = (Some(g), e);
            }
            ProductInput::Silu => {
                flags |= flag::SILU;
                (in_stride, ff) = (2 * w.cols, w.cols);
            }
        }
        if bias.is_some() {
            flags |= flag::BIAS;
        }
        if accumulate {
            flags |= flag::ACCUMULATE;
        }
        for (lo, rows) in chunks {
            let p = Params {
                rows: rows as u32,
                cols: w.cols as u32,
                row_words: w.row_words as u32,
                out_stride: w.rows as u32,
                out_offset: lo as u32,
                in_stride: in_stride as u32,
                flags,
                ff: ff as u32,
                eps,
                ..Params::default()
            };
            let step = Step {
                n: n as u32,
                ..Step::default()
            };
            let groups = if n <= MATVEC_TOKENS {
                split_groups(rows.div_ceil(MATVEC_ROWS))
            } else {
                (rows.div_ceil(64) as u32, n.div_ceil(64) as u32)
            };
            let words = buf_words(w, lo, rows);
            let (out, _) = self
                .run_one(
                    kernel(w.storage),
                    p,
                    step,
                    [Some(x), bias, gains],
                    Some(words),
                    &y,
                    1,
                    groups,
                )
                .await?;
            y = out;
        }
        Ok(y)
    }

    /// RMSNorm of each `width`-wide row of `x`.
    pub async fn run_rms_norm(
        &self,
        x: &[f32],
        width: usize,
        gains: &[f32],
        eps: f32,
    ) -> Result<Vec<f32>, GpuError> {
        let rows = x.len() / width;
        let p = Params {
            cols: width as u32,
            in_stride: width as u32,
            eps,
            ..Params::default()
        };
        let step = Step {
            n: rows as u32,
            ..Step::default()
        };
        let zeros = vec![0.0; x.len()];
        Ok(self
            .run_one(
                Kernel::RmsNorm,
                p,
                step,
                [Some(x), Some(gains), None],
                None,
                &zeros,
                1,
                split_groups(rows),
            )
            .await?
            .0)
    }

    /// Rotary embedding of `n` tokens of `heads` heads at positions `start..` (`inv_freq` as the
    /// model's): `rope_kv` with the tokens as queries and no keys.
    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    pub async fn run_rope(
        &self,
        x: &[f32],
        n: usize,
        heads: usize,
        head_dim: usize,
        layout: RopeLayout,
        inv_freq: &[f32],
        start: usize,
    ) -> Result<Vec<f32>, GpuError> {
        let flags = if layout == RopeLayout::Halves {
            flag::HALVES
        } else {
            0
        };
        let dim = heads * head_dim;
        let p = Params {
            heads: heads as u32,
            kv_heads: 0,
            head_dim: head_dim as u32,
            in_stride: dim as u32,
            flags,
            ..Params::default()
        };
        let step = Step {
            n: n as u32,
            start: start as u32,
            ..Step::default()
        };
        let table = rope_table(inv_freq, start, n);
        let groups = Gpu::groups_of_64(n * heads * head_dim / 2);
        Ok(self
            .run_one(
                Kernel::RopeKv,
                p,
                step,
                [Some(x), Some(&table), None],
                None,
                &[0.0],
                x.len(),
                groups,
            )
            .await?
            .1)
    }

    /// Attention of `q` (`n` tokens at positions `start..`) over `keys` and `values`
    /// (`start + n` positions), through a cache that holds exactly those positions.
    pub async fn run_attention(
        &self,
        c: &Config,
        q: &[f32],
        keys: &[f32],
        values: &[f32],
        start: usize,
    ) -> Result<Vec<f32>, GpuError> {
        let n = q.len() / c.dim;
        let capacity = keys.len() / (c.kv_heads * c.head_dim);
        let cache: Vec<f32> = keys.iter().chain(values).copied().collect();
        let p = Params {
            heads: c.heads as u32,
            kv_heads: c.kv_heads as u32,
            head_dim: c.head_dim as u32,
            capacity: capacity as u32,
            ..Params::default()
        };
        let step = Step {
            n: n as u32,
            start: start as u32,
            ..Step::default()
        };
        let zeros = vec![0.0; q.len()];
        Ok(self
            .run_one(
                Kernel::Attention,
                p,
                step,
                [Some(q), Some(&cache), None],
                None,
                &zeros,
                1,
                split_groups(n * c.heads),
            )
            .await?
            .0)
    }

    /// `silu(a) · b`, through the gate of a fused `[gate | up]` row.
    pub async fn run_silu_mul(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>, GpuError> {
        let gu: Vec<f32> = a.iter().chain(b).copied().collect();
        let p = Params {
            ff: a.len() as u32,
            ..Params::default()
        };
        let step = Step {
            n: 1,
            ..Step::default()
        };
        let zeros = vec![0.0; a.len()];
        Ok(self
            .run_one(
                Kernel::SiluMul,
                p,
                step,
                [Some(&gu), None, None],
                None,
                &zeros,
                1,
                Gpu::groups_of_64(a.len()),
            )
            .await?
            .0)
    }

    /// The argmax of `logits` (one row) and its value, as the device's greedy step computes it.
    pub async fn run_argmax(&self, logits: &[f32]) -> Result<(u32, f32), GpuError> {
        let p = Params {
            cols: logits.len() as u32,
            ..Params::default()
        };
        let step = Step {
            rows: 1,
            ..Step::default()
        };
        let (out, _) = self
            .run_one(
                Kernel::Argmax,
                p,
                step,
                [Some(logits), None, None],
                None,
                &[0.0, 0.0],
                1,
                (1, 1),
            )
            .await?;
        Ok((out[0].to_bits(), out[1]))
    }

    /// `log_softmax(row)[id]` for each `(row, id)` of `wanted` over `logits` (`vocab` a row).
    pub async fn run_log_probs(
        &self,
        logits: &[f32],
        vocab: usize,
        wanted: &[(u32, u32)],
    ) -> Result<Vec<f32>, GpuError> {
        let p = Params {
            cols: vocab as u32,
            ..Params::default()
        };
        let pairs: Vec<u32> = wanted.iter().flat_map(|&(r, i)| [r, i]).collect();
        let zeros = vec![0.0; wanted.len()];
        let (out, _) = self
            .run_one(
                Kernel::LogProbs,
                p,
                Step::default(),
                [Some(logits), None, None],
                Some(&pairs),
                &zeros,
                1,
                split_groups(wanted.len()),
            )
            .await?;
        Ok(out.into_iter().map(unsaturate).collect())
    }
}

/// The kernels write -3.4e38 where the CPU's log-probability is -∞ (WGSL has no infinity).
pub(super) fn unsaturate(v: f32) -> f32 {
    if v <= -3.0e38 { f32::NEG_INFINITY } else { v }
}

/// The words of rows `lo..lo + rows` of a packed matrix.
fn buf_words(w: &Packed, lo: usize, rows: usize) -> &[u32] {
    &w.words[lo * w.row_words..(lo + rows) * w.row_words]
}

/// What a product reads as its input.
#[derive(Debug, Clone, Copy)]
pub enum ProductInput<'a> {
    /// The rows as they are.
    Plain,
    /// Each row RMS-normalized with these gains first.
    Norm { gains: &'a [f32], eps: f32 },
    /// `silu(gate) · up` of rows `[gate | up]` twice the product's width.
    Silu,
}

/// A matrix on the device, in chunks of rows that each fit a binding.
#[derive(Debug)]
pub(super) struct DeviceMatrix {
    pub storage: Storage,
    pub cols: usize,
    pub row_words: usize,
    /// `(first row, rows, buffer)`.
    pub chunks: Vec<(usize, usize, wgpu::Buffer)>,
}

/// Each token's `(cos, sin)` for every rotated pair, at positions `start..start + n`, computed as
/// `Decoder::rope` computes them (`model::rope_angles`, the one computation of both).
pub(super) fn rope_table(inv_freq: &[f32], start: usize, n: usize) -> Vec<f32> {
    let mut table = Vec::with_capacity(n * inv_freq.len() * 2);
    for t in 0..n {
        for (s, c) in rope_angles(inv_freq, start + t) {
            table.extend([c, s]);
        }
    }
    table
}
