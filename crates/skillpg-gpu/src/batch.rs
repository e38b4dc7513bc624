//! The embedding model's passes, planned: for each bucket of batch sizes (rows of all texts
//! together, a power of two), the activations' buffers, the read-back's staging buffer, every
//! dispatch's uniform block and bind group are made the first time a batch of that size comes,
//! and kept. A batch then writes its ids, positions, spans and uniform blocks into them, records
//! its 45 dispatches into one compute pass, submits once and reads the pooled embeddings back:
//! no buffer or bind group is made for a batch of a size seen before.

use crate::GpuError;
use crate::{Gpu, GpuModel, Params, linear_groups};

/// The most rows one pass embeds; a larger batch runs in several.
pub(crate) const MAX_PASS_ROWS: usize = 4096;

/// The smallest bucket.
const MIN_BUCKET: usize = 64;

/// What a dispatch is, for its uniform block and workgroups.
#[derive(Debug, Clone, Copy)]
enum Step {
    Embed,
    LayerNorm {
        residual: bool,
    },
    Linear {
        n_in: usize,
        n_out: usize,
        gelu: bool,
    },
    Attention,
    MeanPool,
}

/// One planned dispatch.
#[derive(Debug)]
struct Dispatch {
    kernel: &'static str,
    step: Step,
    bind: wgpu::BindGroup,
}

/// The buffers and dispatches of passes of up to `rows` rows.
#[derive(Debug)]
pub(crate) struct BatchPlan {
    /// Rows (and texts) a pass holds at most.
    pub rows: usize,
    params: wgpu::Buffer,
    /// `[token type 0's embedding | ids | positions]` (ids and positions as u32 bits).
    extra: wgpu::Buffer,
    /// Per row, its text's first row and length.
    row_seqs: wgpu::Buffer,
    /// Per text, its first row and length.
    seqs: wgpu::Buffer,
    pooled: wgpu::Buffer,
    staging: wgpu::Buffer,
    dispatches: Vec<Dispatch>,
}

/// The bucket a pass of `rows` rows runs in.
pub(crate) fn bucket(rows: usize) -> usize {
    rows.max(MIN_BUCKET)
        .next_power_of_two()
        .min(MAX_PASS_ROWS.max(rows))
}

impl BatchPlan {
    /// Buffers and bind groups for passes of up to `rows` rows of `model`.
    pub(crate) fn new(model: &GpuModel, rows: usize) -> BatchPlan {
        let g = &model.gpu;
        let c = model.config;
        let h = c.hidden;
        let act = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        let floats = |label: &str, n: usize| g.buffer(label, (n.max(1) * 4) as u64, act);
        let extra = floats("extra", h + 2 * rows);
        let (row_seqs, seqs) = (floats("row-seqs", 2 * rows), floats("seqs", 2 * rows));
        let (x0, x, qkv, ctx) = (
            floats("x0", rows * h),
            floats("x", rows * h),
            floats("qkv", rows * 3 * h),
            floats("ctx", rows * h),
        );
        let (attn, a, up, down) = (
            floats("attn", rows * h),
            floats("a", rows * h),
            floats("up", rows * c.intermediate),
            floats("down", rows * h),
        );
        let pooled = floats("pooled", rows * h);
        let staging = g.buffer(
            "pooled-read",
            (rows * h * 4) as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let linear = if model.f16 { "linear_f16" } else { "linear" };
        // (kernel, step, inputs a, b, c, output), in the order of the CPU reference's pass.
        let mut list: Vec<(&'static str, Step, [&wgpu::Buffer; 3], &wgpu::Buffer)> = Vec::new();
        list.push((
            "embed",
            Step::Embed,
            [&model.word.buf, &model.position.buf, &extra],
            &x0,
        ));
        list.push((
            "layer_norm",
            Step::LayerNorm { residual: false },
            [&x0, &x0, &model.ln.buf],
            &x,
        ));
        for l in &model.layers {
            list.push((
                linear,
                Step::Linear {
                    n_in: h,
                    n_out: 3 * h,
                    gelu: false,
                },
                [&x, &l.qkv.0.buf, &l.qkv.1.buf],
                &qkv,
            ));
            list.push(("attention", Step::Attention, [&qkv, &row_seqs, &qkv], &ctx));
            list.push((
                linear,
                Step::Linear {
                    n_in: h,
                    n_out: h,
                    gelu: false,
                },
                [&ctx, &l.o.0.buf, &l.o.1.buf],
                &attn,
            ));
            list.push((
                "layer_norm",
                Step::LayerNorm { residual: true },
                [&attn, &x, &l.ln1.buf],
                &a,
            ));
            list.push((
                linear,
                Step::Linear {
                    n_in: h,
                    n_out: c.intermediate,
                    gelu: true,
                },
                [&a, &l.up.0.buf, &l.up.1.buf],
                &up,
            ));
            list.push((
                linear,
                Step::Linear {
                    n_in: c.intermediate,
                    n_out: h,
                    gelu: false,
                },
                [&up, &l.down.0.buf, &l.down.1.buf],
                &down,
            ));
            list.push((
                "layer_norm",
                Step::LayerNorm { residual: true },
                [&down, &a, &l.ln2.buf],
                &x,
            ));
        }
        list.push(("mean_pool", Step::MeanPool, [&x, &seqs, &x], &pooled));
        let align = g.uniform_align();
        let params = g.buffer(
            "params",
            list.len() as u64 * align,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let dispatches = list
            .into_iter()
            .enumerate()
            .map(|(i, (kernel, step, [ia, ib, ic], out))| {
                let bind = g.bind_group(&wgpu::BindGroupDescriptor {
                    label: Some(kernel),
                    layout: &g.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &params,
                                offset: i as u64 * align,
                                size: std::num::NonZeroU64::new(
                                    std::mem::size_of::<Params>() as u64
                                ),
                            }),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: ia.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: ib.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 3,
                            resource: ic.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 4,
                            resource: out.as_entire_binding(),
                        },
                    ],
                });
                Dispatch { kernel, step, bind }
            })
            .collect();
        BatchPlan {
            rows,
            params,
            extra,
            row_seqs,
            seqs,
            pooled,
            staging,
            dispatches,
        }
    }

    /// Each dispatch's uniform block and workgroups for a pass of `rows` rows of `texts` texts.
    fn shapes(&self, model: &GpuModel, rows: usize, texts: usize) -> Vec<(Params, (u32, u32))> {
        let c = model.config;
        let h = c.hidden;
        let eps = skillpg_embedder::weights::LAYER_NORM_EPS;
        self.dispatches
            .iter()
            .map(|d| {
                let base = Params {
                    rows: rows as u32,
                    ..Params::default()
                };
                match d.step {
                    Step::Embed => (
                        Params {
                            n_in: h as u32,
                            ..base
                        },
                        Gpu::groups_of_64(rows * h),
                    ),
                    Step::LayerNorm { residual } => (
                        Params {
                            n_in: h as u32,
                            flag: residual as u32,
                            eps,
                            ..base
                        },
                        Gpu::groups_of_64(rows),
                    ),
                    Step::Linear { n_in, n_out, gelu } => (
                        Params {
                            n_in: n_in as u32,
                            n_out: n_out as u32,
                            flag: gelu as u32,
                            ..base
                        },
                        linear_groups(rows, n_out),
                    ),
                    Step::Attention => (
                        Params {
                            heads: c.heads as u32,
                            head_dim: (h / c.heads) as u32,
                            ..base
                        },
                        Gpu::groups_of_64(rows * c.heads),
                    ),
                    Step::MeanPool => (
                        Params {
                            rows: texts as u32,
                            n_in: h as u32,
                            ..base
                        },
                        Gpu::groups_of_64(texts),
                    ),
                }
            })
            .collect()
    }

    /// Writes a pass's inputs (`extra`: ids and positions after the type embedding; the spans)
    /// and uniform blocks; the dispatches' workgroups.
    fn stage(
        &self,
        model: &GpuModel,
        extra: &[f32],
        row_spans: &[f32],
        spans: &[f32],
        rows: usize,
        texts: usize,
    ) -> Vec<(u32, u32)> {
        let g = &model.gpu;
        let align = g.uniform_align() as usize;
        let shapes = self.shapes(model, rows, texts);
        let mut blocks = vec![0u8; shapes.len() * align];
        for (i, (p, _)) in shapes.iter().enumerate() {
            blocks[i * align..i * align + std::mem::size_of::<Params>()]
                .copy_from_slice(bytemuck::bytes_of(p));
        }
        g.write(&self.params, 0, &blocks);
        g.write(&self.extra, 0, bytemuck::cast_slice(extra));
        g.write(&self.row_seqs, 0, bytemuck::cast_slice(row_spans));
        g.write(&self.seqs, 0, bytemuck::cast_slice(spans));
        shapes.into_iter().map(|(_, groups)| groups).collect()
    }

    /// Runs one pass: `texts` texts of `rows` rows in all (at most the plan's), one compute
    /// pass, one submit, the pooled embeddings read back (`texts × hidden`).
    pub(crate) async fn run(
        &self,
        model: &GpuModel,
        extra: &[f32],
        row_spans: &[f32],
        spans: &[f32],
        rows: usize,
        texts: usize,
    ) -> Result<Vec<f32>, GpuError> {
        let g = &model.gpu;
        let groups = self.stage(model, extra, row_spans, spans, rows, texts);
        let mut enc = g.encoder();
        {
            let mut pass = g.pass(&mut enc, "embedding", None);
            for (d, groups) in self.dispatches.iter().zip(groups) {
                g.dispatch_in(&mut pass, g.pipeline(d.kernel), &d.bind, groups);
            }
        }
        let bytes = (texts * model.config.hidden * 4) as u64;
        enc.copy_buffer_to_buffer(&self.pooled, 0, &self.staging, 0, bytes);
        g.submit(enc);
        g.read_staging(&self.staging, bytes).await
    }

    /// The same pass with each dispatch timed (`crate::profile`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn profile(
        &self,
        model: &GpuModel,
        extra: &[f32],
        row_spans: &[f32],
        spans: &[f32],
        rows: usize,
        texts: usize,
    ) -> Result<(Vec<crate::profile::KernelTime>, crate::profile::Timing), GpuError> {
        let g = &model.gpu;
        let groups = self.stage(model, extra, row_spans, spans, rows, texts);
        let c = model.config;
        let h = c.hidden as f64;
        let weight_bytes = if model.f16 { 2.0 } else { 4.0 };
        let timed: Vec<crate::profile::Timed<'_>> = self
            .dispatches
            .iter()
            .zip(groups)
            .map(|(d, groups)| {
                let r = rows as f64;
                let (kind, bytes, flops) = match d.step {
                    Step::Embed => ("embed", r * h * 12.0, r * h * 2.0),
                    Step::LayerNorm { .. } => ("layer_norm", r * h * 12.0, r * h * 8.0),
                    Step::Linear { n_in, n_out, .. } => {
                        let (i, o) = (n_in as f64, n_out as f64);
                        (
                            "linear",
                            i * o * weight_bytes + r * (i + o) * 4.0,
                            2.0 * r * i * o,
                        )
                    }
                    // Each row reads its text's keys and values (about 20 rows a text).
                    Step::Attention => (
                        "attention",
                        r * h * 4.0 * (2.0 + 2.0 * 20.0),
                        r * h * 4.0 * 20.0,
                    ),
                    Step::MeanPool => ("mean_pool", r * h * 4.0, r * h),
                };
                crate::profile::Timed {
                    pipeline: g.pipeline(d.kernel),
                    bind: &d.bind,
                    groups,
                    kind,
                    bytes,
                    flops,
                }
            })
            .collect();
        crate::profile::time_dispatches(g, &timed)
    }
}
