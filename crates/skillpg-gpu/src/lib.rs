//! all-MiniLM-L6-v2 on the GPU: the forward pass of `skillpg_router::cpu` as WGSL compute
//! kernels on wgpu (Vulkan, Metal or DX12 natively; WebGPU in the browser). It knows nothing
//! of the page. Every kernel and the whole model are tested against the CPU reference on
//! Mesa's software Vulkan (lavapipe).
//!
//! Results are read back asynchronously (`map_async`); natively the device is polled, in the
//! browser the future resolves on its own.

use std::sync::Arc;

pub mod decoder;

use skillpg_router::cpu::Model;
use skillpg_router::weights::LAYER_NORM_EPS;
use wgpu::util::DeviceExt;

/// The kernels' uniform block (see `kernels.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Default)]
struct Params {
    rows: u32,
    n_in: u32,
    n_out: u32,
    flag: u32,
    heads: u32,
    head_dim: u32,
    eps: f32,
    pad: u32,
}

/// What the GPU is.
#[derive(Debug, Clone)]
pub struct AdapterSummary {
    /// The adapter's name ("llvmpipe ...", "" for SwiftShader in Chromium).
    pub name: String,
    /// Backend (Vulkan, BrowserWebGpu...).
    pub backend: String,
    /// Integrated, discrete, CPU...
    pub device_type: String,
    /// Whether the adapter offers `shader-f16` (not used yet: storage is f32).
    pub shader_f16: bool,
}

/// A wgpu device with the kernels compiled.
#[derive(Debug, Clone)]
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    /// The one pipeline layout every kernel shares (a uniform, three read-only buffers, one
    /// written).
    pipeline_layout: wgpu::PipelineLayout,
    pipelines: Arc<[(&'static str, wgpu::ComputePipeline)]>,
    /// Dispatches recorded so far (for the benchmark's dispatches per batch).
    dispatches: Arc<std::sync::atomic::AtomicUsize>,
    /// The adapter.
    pub adapter: AdapterSummary,
}

/// A buffer on the device and its length in f32s.
#[derive(Debug)]
pub struct DeviceBuf {
    pub(crate) buf: wgpu::Buffer,
    pub(crate) len: usize,
}

impl Gpu {
    /// Finds an adapter and compiles the kernels; `Err` with the reason when there is no GPU.
    pub async fn new() -> Result<Gpu, String> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions { power_preference: wgpu::PowerPreference::HighPerformance, ..Default::default() })
            .await
            .map_err(|e| format!("no GPU adapter: {e}"))?;
        let info = adapter.get_info();
        let summary = AdapterSummary {
            name: info.name.clone(),
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            shader_f16: adapter.features().contains(wgpu::Features::SHADER_F16),
        };
        // Raise the limits to what the adapter offers: the word embeddings are a 47 MB binding.
        let required_features = if summary.shader_f16 { wgpu::Features::SHADER_F16 } else { wgpu::Features::empty() };
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor { label: Some("skillpg"), required_features, required_limits: adapter.limits(), ..Default::default() })
            .await
            .map_err(|e| format!("the GPU refused a device: {e}"))?;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("kernels"),
            source: wgpu::ShaderSource::Wgsl(concat!(include_str!("common.wgsl"), include_str!("kernels.wgsl")).into()),
        });
        let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only }, has_dynamic_offset: false, min_binding_size: None },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("kernels"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
                    count: None,
                },
                storage(1, true),
                storage(2, true),
                storage(3, true),
                storage(4, false),
            ],
        });
        let pipeline_layout =
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor { label: Some("kernels"), bind_group_layouts: &[Some(&layout)], immediate_size: 0 });
        let make = |module: &wgpu::ShaderModule, entry: &'static str| {
            let p = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
            (entry, p)
        };
        let mut pipelines: Vec<(&'static str, wgpu::ComputePipeline)> =
            ["linear", "layer_norm", "attention", "embed", "mean_pool"].into_iter().map(|e| make(&module, e)).collect();
        if summary.shader_f16 {
            let module16 = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("kernels-f16"),
                source: wgpu::ShaderSource::Wgsl(concat!("enable f16;\n", include_str!("common.wgsl"), include_str!("kernels_f16.wgsl")).into()),
            });
            pipelines.push(make(&module16, "linear_f16"));
        }
        Ok(Gpu { device, queue, layout, pipeline_layout, pipelines: pipelines.into(), dispatches: Arc::default(), adapter: summary })
    }

    /// Kernel dispatches recorded since this device was made.
    pub fn dispatch_count(&self) -> usize {
        self.dispatches.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether weights can be stored in f16 (the adapter offers `shader-f16`).
    pub fn has_f16(&self) -> bool {
        self.pipelines.iter().any(|(n, _)| *n == "linear_f16")
    }

    /// Uploads `data` as IEEE halves, for the f16 kernels.
    pub fn upload_f16(&self, data: &[f32]) -> DeviceBuf {
        let mut halves: Vec<u16> = data.iter().map(|&v| skillpg_router::weights::f32_to_f16(v)).collect();
        if halves.len() % 2 == 1 || halves.is_empty() {
            halves.push(0);
        }
        let buf = self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(&halves),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        });
        DeviceBuf { buf, len: data.len() }
    }

    /// Uploads `data` (an empty slice gets one zero, as bindings may not be empty).
    pub fn upload(&self, data: &[f32]) -> DeviceBuf {
        let data: &[f32] = if data.is_empty() { &[0.0] } else { data };
        let buf = self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        });
        DeviceBuf { buf, len: data.len() }
    }

    pub(crate) fn output(&self, len: usize) -> DeviceBuf {
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (len.max(1) * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        DeviceBuf { buf, len }
    }

    /// Records one kernel dispatch of `groups` workgroups (x, y) into `encoder`.
    fn dispatch(&self, encoder: &mut wgpu::CommandEncoder, kernel: &str, params: Params, inputs: [&DeviceBuf; 3], out: &DeviceBuf, groups: (u32, u32)) {
        // Kernel names are the code's, not the input's: a missing one is a bug, and loud.
        let Some((_, pipeline)) = self.pipelines.iter().find(|(n, _)| *n == kernel) else { panic!("no compiled kernel {kernel}: the WGSL and the Rust disagree") };
        self.dispatch_pipeline(encoder, kernel, pipeline, bytemuck::bytes_of(&params), [&inputs[0].buf, &inputs[1].buf, &inputs[2].buf], &out.buf, groups);
    }

    /// Compiles `source`'s entry points `entries` with the shared pipeline layout.
    pub(crate) fn compile(&self, label: &str, source: &str, entries: &[&'static str]) -> Vec<(&'static str, wgpu::ComputePipeline)> {
        let module = self.device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(source.into()) });
        entries
            .iter()
            .map(|&entry| {
                let p = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&self.pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                });
                (entry, p)
            })
            .collect()
    }

    /// Records one dispatch of `pipeline` with `params` (a uniform block) and its four buffers.
    #[allow(clippy::too_many_arguments, reason = "a dispatch's pipeline, uniform, buffers and size")]
    pub(crate) fn dispatch_pipeline(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        params: &[u8],
        inputs: [&wgpu::Buffer; 3],
        out: &wgpu::Buffer,
        groups: (u32, u32),
    ) {
        self.dispatches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let uniform = self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: None, contents: params, usage: wgpu::BufferUsages::UNIFORM });
        let bind = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: inputs[0].as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: inputs[1].as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: inputs[2].as_entire_binding() },
                wgpu::BindGroupEntry { binding: 4, resource: out.as_entire_binding() },
            ],
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes: None });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(groups.0.max(1), groups.1.max(1), 1);
    }

    /// The device (for this crate's other models).
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Runs `work` and returns its result with the first out-of-memory or validation error the
    /// device raised meanwhile (which would otherwise go to wgpu's uncaptured-error handler: a
    /// panic natively, a console line in a browser).
    pub(crate) async fn catching<T>(&self, work: impl FnOnce() -> T) -> (T, Option<wgpu::Error>) {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out = work();
        let invalid = validation.pop().await;
        (out, oom.pop().await.or(invalid))
    }

    /// The device's limits (the largest buffer and binding, among others).
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// Workgroups of 64 for `n` invocations; past 65,535 groups they spill into y (the kernels
    /// that can be that large read `gid.y`).
    pub(crate) fn groups_of_64(n: usize) -> (u32, u32) {
        let groups = n.div_ceil(64) as u32;
        if groups > 65_535 { (65_535, groups.div_ceil(65_535)) } else { (groups, 1) }
    }

    /// Reads a buffer back, asynchronously.
    pub async fn read(&self, src: &DeviceBuf) -> Result<Vec<f32>, String> {
        let size = (src.len.max(1) * 4) as u64;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(&src.buf, 0, &staging, 0, size);
        self.queue.submit([encoder.finish()]);
        let (tx, rx) = futures_channel::oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |res| {
            let _ = tx.send(res);
        });
        #[cfg(not(target_arch = "wasm32"))]
        self.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("GPU poll failed: {e}"))?;
        rx.await.map_err(|_| "the GPU dropped the read".to_owned())?.map_err(|e| format!("reading the GPU buffer failed: {e}"))?;
        let view = staging.get_mapped_range(..).map_err(|e| format!("{e:?}"))?;
        let data: Vec<f32> = bytemuck::cast_slice(&view[..]).to_vec();
        drop(view);
        staging.unmap();
        Ok(data[..src.len].to_vec())
    }

    /// `y = x · wᵀ + b` (then GELU when `gelu`), as `cpu::linear`; `w` uploaded in f32, or in
    /// f16 with [`Gpu::upload_f16`] when `w_f16`. Tiled: 16 × 16 outputs a workgroup.
    #[allow(clippy::too_many_arguments, reason = "a kernel's operands")]
    pub fn linear(
        &self,
        enc: &mut wgpu::CommandEncoder,
        x: &DeviceBuf,
        rows: usize,
        n_in: usize,
        w: &DeviceBuf,
        b: &DeviceBuf,
        n_out: usize,
        gelu: bool,
        w_f16: bool,
    ) -> DeviceBuf {
        let out = self.output(rows * n_out);
        let p = Params { rows: rows as u32, n_in: n_in as u32, n_out: n_out as u32, flag: gelu as u32, ..Default::default() };
        self.dispatch(enc, if w_f16 { "linear_f16" } else { "linear" }, p, [x, w, b], &out, (n_out.div_ceil(16) as u32, rows.div_ceil(16) as u32));
        out
    }

    /// LayerNorm of `x` (+ `residual`), gamma and beta concatenated in `gb`.
    #[allow(clippy::too_many_arguments, reason = "the kernel's buffers and shape, as the kernel binds them")]
    pub fn layer_norm(
        &self,
        enc: &mut wgpu::CommandEncoder,
        x: &DeviceBuf,
        residual: Option<&DeviceBuf>,
        rows: usize,
        width: usize,
        gb: &DeviceBuf,
        eps: f32,
    ) -> DeviceBuf {
        let out = self.output(rows * width);
        let p = Params { rows: rows as u32, n_in: width as u32, flag: residual.is_some() as u32, eps, ..Default::default() };
        self.dispatch(enc, "layer_norm", p, [x, residual.unwrap_or(x), gb], &out, Gpu::groups_of_64(rows));
        out
    }

    /// Self-attention over packed sequences, as `cpu::attention` on each: `qkv` is `[rows,
    /// 3 · heads · head_dim]` (query, key, value side by side), `row_seqs` per row its sequence's
    /// first row and length ([`Gpu::upload_spans`]).
    pub fn attention(&self, enc: &mut wgpu::CommandEncoder, qkv: &DeviceBuf, row_seqs: &DeviceBuf, rows: usize, heads: usize, head_dim: usize) -> DeviceBuf {
        let out = self.output(rows * heads * head_dim);
        let p = Params { rows: rows as u32, heads: heads as u32, head_dim: head_dim as u32, ..Default::default() };
        self.dispatch(enc, "attention", p, [qkv, row_seqs, qkv], &out, Gpu::groups_of_64(rows * heads));
        out
    }

    /// Mean pooling and L2 normalization of each sequence (`seqs`: first row and length of
    /// each, [`Gpu::upload_spans`]), as `cpu::mean_pool_normalize`: `[n_seqs, width]`.
    pub fn mean_pool(&self, enc: &mut wgpu::CommandEncoder, x: &DeviceBuf, seqs: &DeviceBuf, n_seqs: usize, width: usize) -> DeviceBuf {
        let out = self.output(n_seqs * width);
        let p = Params { rows: n_seqs as u32, n_in: width as u32, ..Default::default() };
        self.dispatch(enc, "mean_pool", p, [x, seqs, x], &out, Gpu::groups_of_64(n_seqs));
        out
    }

    /// Uploads `(first row, length)` pairs as the kernels read them (u32 bit patterns).
    pub fn upload_spans(&self, spans: &[(usize, usize)]) -> DeviceBuf {
        let bits: Vec<f32> = spans.iter().flat_map(|&(s, l)| [f32::from_bits(s as u32), f32::from_bits(l as u32)]).collect();
        self.upload(&bits)
    }

    /// A command encoder; submit it with [`Gpu::submit`].
    pub fn encoder(&self) -> wgpu::CommandEncoder {
        self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None })
    }

    /// Submits recorded work.
    pub fn submit(&self, enc: wgpu::CommandEncoder) {
        self.queue.submit([enc.finish()]);
    }
}

/// One layer's weights on the device.
#[derive(Debug)]
struct GpuLayer {
    /// Query, key and value stacked: `[3 · hidden, hidden]`, one dispatch.
    qkv: (DeviceBuf, DeviceBuf),
    o: (DeviceBuf, DeviceBuf),
    ln1: DeviceBuf,
    up: (DeviceBuf, DeviceBuf),
    down: (DeviceBuf, DeviceBuf),
    ln2: DeviceBuf,
}

/// The model's weights on the device.
#[derive(Debug)]
pub struct GpuModel {
    /// The device.
    pub gpu: Gpu,
    config: skillpg_router::weights::Config,
    word: DeviceBuf,
    position: DeviceBuf,
    type0: Vec<f32>,
    ln: DeviceBuf,
    layers: Vec<GpuLayer>,
    /// Whether the layers' weights are stored in f16.
    pub f16: bool,
}

fn concat(a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut v = a.to_vec();
    v.extend_from_slice(b);
    v
}

impl GpuModel {
    /// Uploads the CPU model's weights: the layers' matrices in f16 where the adapter offers
    /// `shader-f16` (and `allow_f16`), in f32 otherwise; `Err` when the device could not take
    /// them (out of memory, a buffer past its limits), with the device's own words.
    pub async fn new(gpu: Gpu, model: &Model, allow_f16: bool) -> Result<GpuModel, String> {
        let (uploaded, error) = gpu.catching(|| GpuModel::upload(gpu.clone(), model, allow_f16)).await;
        match error {
            None => Ok(uploaded),
            Some(e) => Err(format!("the GPU could not take the model's weights: {e}")),
        }
    }

    fn upload(gpu: Gpu, model: &Model, allow_f16: bool) -> GpuModel {
        let f16 = allow_f16 && gpu.has_f16();
        let up = |p: &(Vec<f32>, Vec<f32>)| (if f16 { gpu.upload_f16(&p.0) } else { gpu.upload(&p.0) }, gpu.upload(&p.1));
        let layers = model
            .layers
            .iter()
            .map(|l| GpuLayer {
                qkv: up(&(concat(&concat(&l.q.0, &l.k.0), &l.v.0), concat(&concat(&l.q.1, &l.k.1), &l.v.1))),
                o: up(&l.o),
                ln1: gpu.upload(&concat(&l.ln1.0, &l.ln1.1)),
                up: up(&l.up),
                down: up(&l.down),
                ln2: gpu.upload(&concat(&l.ln2.0, &l.ln2.1)),
            })
            .collect();
        GpuModel {
            config: model.config,
            word: gpu.upload(&model.word),
            position: gpu.upload(&model.position),
            type0: model.token_type0.clone(),
            ln: gpu.upload(&concat(&model.ln.0, &model.ln.1)),
            layers,
            gpu,
            f16,
        }
    }

    /// The sentence embedding of `ids` (its first 256), computed on the GPU.
    pub async fn forward(&self, ids: &[u32]) -> Result<Vec<f32>, String> {
        Ok(self.forward_batch(std::slice::from_ref(&ids.to_vec())).await?.remove(0))
    }

    /// The sentence embeddings of every text of `batch` (each cut to its first 256 ids) in one
    /// forward pass: the texts' rows stacked, attention and pooling per text, one command
    /// encoder, one read-back. An empty text gets a zero vector (as the CPU paths give).
    pub async fn forward_batch(&self, batch: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, String> {
        let c = self.config;
        let h = c.hidden;
        let g = &self.gpu;
        let mut spans = Vec::new();
        let mut row_spans = Vec::new();
        let (mut ids, mut positions) = (Vec::new(), Vec::new());
        for text in batch {
            let len = text.len().min(256);
            if len == 0 {
                continue;
            }
            let start = ids.len();
            spans.push((start, len));
            row_spans.extend(std::iter::repeat_n((start, len), len));
            ids.extend(text[..len].iter().map(|&id| f32::from_bits(id.min(c.vocab as u32 - 1))));
            positions.extend((0..len).map(|p| f32::from_bits(p as u32)));
        }
        let rows = ids.len();
        if rows == 0 {
            return Ok(batch.iter().map(|_| vec![0.0; h]).collect());
        }
        let mut extra = self.type0.clone();
        extra.extend(ids);
        extra.extend(positions);
        let (extra, row_seqs, seqs) = (g.upload(&extra), g.upload_spans(&row_spans), g.upload_spans(&spans));
        let mut enc = g.encoder();
        let x0 = g.output(rows * h);
        let p = Params { rows: rows as u32, n_in: h as u32, ..Default::default() };
        g.dispatch(&mut enc, "embed", p, [&self.word, &self.position, &extra], &x0, Gpu::groups_of_64(rows * h));
        let mut x = g.layer_norm(&mut enc, &x0, None, rows, h, &self.ln, LAYER_NORM_EPS);
        for l in &self.layers {
            let f = self.f16;
            let qkv = g.linear(&mut enc, &x, rows, h, &l.qkv.0, &l.qkv.1, 3 * h, false, f);
            let ctx = g.attention(&mut enc, &qkv, &row_seqs, rows, c.heads, h / c.heads);
            let attn = g.linear(&mut enc, &ctx, rows, h, &l.o.0, &l.o.1, h, false, f);
            let a = g.layer_norm(&mut enc, &attn, Some(&x), rows, h, &l.ln1, LAYER_NORM_EPS);
            let up = g.linear(&mut enc, &a, rows, h, &l.up.0, &l.up.1, c.intermediate, true, f);
            let down = g.linear(&mut enc, &up, rows, c.intermediate, &l.down.0, &l.down.1, h, false, f);
            x = g.layer_norm(&mut enc, &down, Some(&a), rows, h, &l.ln2, LAYER_NORM_EPS);
        }
        let pooled = g.mean_pool(&mut enc, &x, &seqs, spans.len(), h);
        g.submit(enc);
        let flat = g.read(&pooled).await?;
        let mut vectors = flat.chunks_exact(h).map(<[f32]>::to_vec);
        Ok(batch.iter().map(|t| if t.is_empty() { vec![0.0; h] } else { vectors.next().unwrap_or_else(|| vec![0.0; h]) }).collect())
    }
}

/// The GPU model behind the router's [`skillpg_router::Embedder`] trait, natively (the browser
/// awaits [`GpuModel::forward`] instead). A batch the GPU fails runs on the CPU reference, and
/// [`skillpg_router::Embedder::failure`] says why from then on.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct GpuEmbedder {
    tokenizer: skillpg_router::wordpiece::WordPiece,
    model: GpuModel,
    fallback: Model,
    failure: std::cell::RefCell<Option<String>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl GpuEmbedder {
    /// The model on the device, its tokenizer, and the CPU reference for a batch it fails.
    pub fn new(tokenizer: skillpg_router::wordpiece::WordPiece, model: GpuModel, fallback: Model) -> GpuEmbedder {
        GpuEmbedder { tokenizer, model, fallback, failure: std::cell::RefCell::new(None) }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl skillpg_router::Embedder for GpuEmbedder {
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>> {
        let batch: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenizer.encode(t)).collect();
        pollster::block_on(self.model.forward_batch(&batch)).unwrap_or_else(|e| {
            *self.failure.borrow_mut() = Some(format!("the GPU failed ({e}); the CPU reference embedded these texts"));
            batch.iter().map(|ids| self.fallback.forward(ids)).collect()
        })
    }

    fn failure(&self) -> Option<String> {
        self.failure.borrow().clone()
    }
}
