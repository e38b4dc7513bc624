//! all-MiniLM-L6-v2 on the GPU: the forward pass of `skillpg_embedder::cpu` as WGSL compute
//! kernels on wgpu (Vulkan, Metal or DX12 natively; WebGPU in the browser). It knows nothing
//! of the page. Every kernel and the whole model are tested against the CPU reference on
//! Mesa's software Vulkan (lavapipe).
//!
//! Results are read back asynchronously (`map_async`); natively the device is polled, in the
//! browser the future resolves on its own.

use std::sync::Arc;

mod batch;
/// What kind of device an adapter is (wgpu's own type).
pub use error::GpuError;
pub use wgpu::DeviceType;
pub mod decoder;
pub mod error;
#[cfg(not(target_arch = "wasm32"))]
pub mod profile;

use skillpg_embedder::cpu::Model;
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
    pub device_type: wgpu::DeviceType,
    /// Whether the adapter offers `shader-f16` (the embedding model's weights in f16).
    pub shader_f16: bool,
    /// Whether it offers timestamp queries (the benchmarks time each kernel with them).
    pub timestamps: bool,
}

/// What a device has been asked to do since it was made, counted: the structural tests hold a
/// decoded token to no buffer or bind group made, one submit, one compute pass and a few bytes
/// read back, and the benchmarks print them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Buffers created (uploads and outputs included).
    pub buffers: u64,
    /// Bind groups created.
    pub bind_groups: u64,
    /// Command buffers submitted.
    pub submits: u64,
    /// Compute passes begun.
    pub passes: u64,
    /// Kernel dispatches recorded.
    pub dispatches: u64,
    /// Bytes read back from the device.
    pub read_bytes: u64,
    /// Bytes written to existing buffers (`queue.write_buffer`).
    pub written_bytes: u64,
}

impl std::ops::Sub for Counts {
    type Output = Counts;
    fn sub(self, o: Counts) -> Counts {
        Counts {
            buffers: self.buffers - o.buffers,
            bind_groups: self.bind_groups - o.bind_groups,
            submits: self.submits - o.submits,
            passes: self.passes - o.passes,
            dispatches: self.dispatches - o.dispatches,
            read_bytes: self.read_bytes - o.read_bytes,
            written_bytes: self.written_bytes - o.written_bytes,
        }
    }
}

/// [`Counts`] as the device's shared counters.
#[derive(Debug, Default)]
struct Counters([std::sync::atomic::AtomicU64; 7]);

impl Counters {
    fn add(&self, which: usize, by: u64) {
        self.0[which].fetch_add(by, std::sync::atomic::Ordering::Relaxed);
    }

    fn get(&self) -> Counts {
        let v = |i: usize| self.0[i].load(std::sync::atomic::Ordering::Relaxed);
        Counts {
            buffers: v(0),
            bind_groups: v(1),
            submits: v(2),
            passes: v(3),
            dispatches: v(4),
            read_bytes: v(5),
            written_bytes: v(6),
        }
    }
}

const BUFFERS: usize = 0;
const BIND_GROUPS: usize = 1;
const SUBMITS: usize = 2;
const PASSES: usize = 3;
const DISPATCHES: usize = 4;
const READ_BYTES: usize = 5;
const WRITTEN_BYTES: usize = 6;

/// The embedding model's WGSL: f32 weights.
pub const KERNELS_WGSL: &str = concat!(
    include_str!("tile.wgsl"),
    include_str!("common.wgsl"),
    include_str!("kernels.wgsl")
);
/// The same with f16 weights (where the adapter offers `shader-f16`).
pub const KERNELS_F16_WGSL: &str = concat!(
    "enable f16;\n",
    include_str!("tile.wgsl"),
    include_str!("common.wgsl"),
    include_str!("kernels_f16.wgsl")
);

/// A wgpu device with the kernels compiled.
#[derive(Debug, Clone)]
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipelines: Arc<[(&'static str, wgpu::ComputePipeline)]>,
    /// What the device was asked to do (every creation, submit, pass and read goes through `Gpu`).
    counters: Arc<Counters>,
    /// Whether passes can write timestamps (the per-kernel tables of the benchmarks).
    timestamps: bool,
    /// The adapter.
    pub adapter: AdapterSummary,
}

/// A buffer on the device and its length in f32s.
#[derive(Debug)]
pub struct DeviceBuf {
    pub(crate) buf: wgpu::Buffer,
    pub(crate) len: usize,
}

/// The adapter wgpu would use, and what it is.
async fn request_adapter() -> Result<(wgpu::Adapter, AdapterSummary), GpuError> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
        .map_err(|e| GpuError::Unavailable(format!("no GPU adapter: {e}")))?;
    let info = adapter.get_info();
    let summary = AdapterSummary {
        name: info.name.clone(),
        backend: format!("{:?}", info.backend),
        device_type: info.device_type,
        shader_f16: adapter.features().contains(wgpu::Features::SHADER_F16),
        timestamps: adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY),
    };
    Ok((adapter, summary))
}

/// What the adapter is, without a device or any kernel compiled: enough to find a kept
/// measurement, so a load whose kept decision is the CPU path never starts the GPU.
pub async fn adapter_summary() -> Result<AdapterSummary, GpuError> {
    Ok(request_adapter().await?.1)
}

impl Gpu {
    /// Finds an adapter and compiles the kernels; `Err` with the reason when there is no GPU.
    pub async fn new() -> Result<Gpu, GpuError> {
        let (adapter, summary) = request_adapter().await?;
        // Raise the limits to what the adapter offers: the word embeddings are a 47 MB binding.
        let mut required_features = wgpu::Features::empty();
        if summary.shader_f16 {
            required_features |= wgpu::Features::SHADER_F16;
        }
        if summary.timestamps {
            required_features |= wgpu::Features::TIMESTAMP_QUERY;
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("skillpg"),
                required_features,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::Unavailable(format!("the GPU refused a device: {e}")))?;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("kernels"),
            source: wgpu::ShaderSource::Wgsl(KERNELS_WGSL.into()),
        });
        let storage = |binding, read_only| {
            buffer_binding(binding, wgpu::BufferBindingType::Storage { read_only })
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("kernels"),
            entries: &[
                buffer_binding(0, wgpu::BufferBindingType::Uniform),
                storage(1, true),
                storage(2, true),
                storage(3, true),
                storage(4, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("kernels"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
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
            ["linear", "layer_norm", "attention", "embed", "mean_pool"]
                .into_iter()
                .map(|e| make(&module, e))
                .collect();
        if summary.shader_f16 {
            let module16 = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("kernels-f16"),
                source: wgpu::ShaderSource::Wgsl(KERNELS_F16_WGSL.into()),
            });
            pipelines.push(make(&module16, "linear_f16"));
        }
        let timestamps = summary.timestamps;
        Ok(Gpu {
            device,
            queue,
            layout,
            pipelines: pipelines.into(),
            counters: Arc::default(),
            timestamps,
            adapter: summary,
        })
    }

    /// What the device was asked to do since it was made.
    pub fn counts(&self) -> Counts {
        self.counters.get()
    }

    /// Kernel dispatches recorded since this device was made.
    pub fn dispatch_count(&self) -> usize {
        self.counts().dispatches as usize
    }

    /// Whether compute passes can write timestamps.
    pub fn has_timestamps(&self) -> bool {
        self.timestamps
    }

    /// A buffer of `size` bytes (counted).
    pub(crate) fn buffer(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.counters.add(BUFFERS, 1);
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size.max(4),
            usage,
            mapped_at_creation: false,
        })
    }

    /// A buffer holding `contents` (counted; empty contents get four zero bytes, as bindings may
    /// not be empty).
    pub(crate) fn buffer_init(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        self.counters.add(BUFFERS, 1);
        let contents: &[u8] = if contents.is_empty() {
            &[0; 4]
        } else {
            contents
        };
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
    }

    /// A bind group (counted).
    pub(crate) fn bind_group(&self, desc: &wgpu::BindGroupDescriptor<'_>) -> wgpu::BindGroup {
        self.counters.add(BIND_GROUPS, 1);
        self.device.create_bind_group(desc)
    }

    /// Writes `bytes` into `buffer` at `offset` before the next submit (counted).
    pub(crate) fn write(&self, buffer: &wgpu::Buffer, offset: u64, bytes: &[u8]) {
        self.counters.add(WRITTEN_BYTES, bytes.len() as u64);
        self.queue.write_buffer(buffer, offset, bytes);
    }

    /// Begins a compute pass (counted), writing timestamps at its start and end when asked.
    pub(crate) fn pass<'e>(
        &self,
        enc: &'e mut wgpu::CommandEncoder,
        label: &str,
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) -> wgpu::ComputePass<'e> {
        self.counters.add(PASSES, 1);
        enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: timestamps,
        })
    }

    /// Records a dispatch of `pipeline` with `bind` into `pass` (counted).
    pub(crate) fn dispatch_in(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        pipeline: &wgpu::ComputePipeline,
        bind: &wgpu::BindGroup,
        groups: (u32, u32),
    ) {
        self.counters.add(DISPATCHES, 1);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(groups.0.max(1), groups.1.max(1), 1);
    }

    /// Maps the first `bytes` of `staging` (a MAP_READ buffer that recorded work copied into) and
    /// returns them as f32s, unmapping it again (counted).
    pub(crate) async fn read_staging(
        &self,
        staging: &wgpu::Buffer,
        bytes: u64,
    ) -> Result<Vec<f32>, GpuError> {
        Ok(bytemuck::cast_slice(&self.read_staging_bytes(staging, bytes).await?).to_vec())
    }

    /// The same, as bytes.
    pub(crate) async fn read_staging_bytes(
        &self,
        staging: &wgpu::Buffer,
        bytes: u64,
    ) -> Result<Vec<u8>, GpuError> {
        self.counters.add(READ_BYTES, bytes);
        let bytes = bytes.max(4);
        let (tx, rx) = futures_channel::oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, ..bytes, move |res| {
            let _ = tx.send(res);
        });
        #[cfg(not(target_arch = "wasm32"))]
        self.wait()?;
        rx.await
            .map_err(|_| GpuError::Device("the GPU dropped the read".to_owned()))?
            .map_err(|e| GpuError::Device(format!("reading the GPU buffer failed: {e}")))?;
        let view = staging
            .get_mapped_range(..bytes)
            .map_err(|e| GpuError::Device(format!("{e:?}")))?;
        let data = view.to_vec();
        drop(view);
        staging.unmap();
        Ok(data)
    }

    /// Waits until the device has done what was submitted (natively).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Device(format!("GPU poll failed: {e}")))
    }

    /// The alignment of a uniform block's offset in a buffer of several.
    pub(crate) fn uniform_align(&self) -> u64 {
        u64::from(self.device.limits().min_uniform_buffer_offset_alignment)
            .max(std::mem::size_of::<Params>() as u64)
    }

    /// The embedding model's compiled kernel `name`.
    pub(crate) fn pipeline(&self, name: &str) -> &wgpu::ComputePipeline {
        // Kernel names are the code's, not the input's: a missing one is a bug, and loud.
        let Some((_, pipeline)) = self.pipelines.iter().find(|(n, _)| *n == name) else {
            panic!("no compiled kernel {name}: the WGSL and the Rust disagree")
        };
        pipeline
    }

    /// The timestamp period (nanoseconds a tick).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn timestamp_period(&self) -> f32 {
        self.queue.get_timestamp_period()
    }

    /// A query set of `count` timestamps.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn timestamp_set(&self, count: u32) -> wgpu::QuerySet {
        self.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        })
    }

    /// Whether weights can be stored in f16 (the adapter offers `shader-f16`).
    pub fn has_f16(&self) -> bool {
        self.pipelines.iter().any(|(n, _)| *n == "linear_f16")
    }

    /// Uploads `data` as IEEE halves, for the f16 kernels.
    pub fn upload_f16(&self, data: &[f32]) -> DeviceBuf {
        let mut halves: Vec<u16> = data
            .iter()
            .map(|&v| skillpg_embedder::weights::f32_to_f16(v))
            .collect();
        if halves.len() % 2 == 1 || halves.is_empty() {
            halves.push(0);
        }
        let buf = self.buffer_init(
            "f16",
            bytemuck::cast_slice(&halves),
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        );
        DeviceBuf {
            buf,
            len: data.len(),
        }
    }

    /// Uploads `data` (an empty slice gets one zero, as bindings may not be empty).
    pub fn upload(&self, data: &[f32]) -> DeviceBuf {
        let data: &[f32] = if data.is_empty() { &[0.0] } else { data };
        let buf = self.buffer_init(
            "data",
            bytemuck::cast_slice(data),
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        );
        DeviceBuf {
            buf,
            len: data.len(),
        }
    }

    pub(crate) fn output(&self, len: usize) -> DeviceBuf {
        let buf = self.buffer(
            "output",
            (len.max(1) * 4) as u64,
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        );
        DeviceBuf { buf, len }
    }

    /// Records one kernel dispatch of `groups` workgroups (x, y) into `encoder`.
    fn dispatch(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        kernel: &str,
        params: Params,
        inputs: [&DeviceBuf; 3],
        out: &DeviceBuf,
        groups: (u32, u32),
    ) {
        // Kernel names are the code's, not the input's: a missing one is a bug, and loud.
        let Some((_, pipeline)) = self.pipelines.iter().find(|(n, _)| *n == kernel) else {
            panic!("no compiled kernel {kernel}: the WGSL and the Rust disagree")
        };
        self.dispatch_pipeline(
            encoder,
            kernel,
            pipeline,
            bytemuck::bytes_of(&params),
            [&inputs[0].buf, &inputs[1].buf, &inputs[2].buf],
            &out.buf,
            groups,
        );
    }

    /// Records one dispatch of `pipeline` with `params` (a uniform block) and its four buffers.
    #[allow(
        clippy::too_many_arguments,
        reason = "a dispatch's pipeline, uniform, buffers and size"
    )]
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
        let uniform = self.buffer_init("params", params, wgpu::BufferUsages::UNIFORM);
        let bind = self.bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: inputs[0].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: inputs[1].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: inputs[2].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: out.as_entire_binding(),
                },
            ],
        });
        let mut pass = self.pass(encoder, label, None);
        self.dispatch_in(&mut pass, pipeline, &bind, groups);
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

    /// Workgroups of 64 for `n` invocations ([`split_groups`] of them).
    pub(crate) fn groups_of_64(n: usize) -> (u32, u32) {
        split_groups(n.div_ceil(64))
    }

    /// Reads a buffer back, asynchronously (through a staging buffer made for it: the planned
    /// paths keep their own).
    pub async fn read(&self, src: &DeviceBuf) -> Result<Vec<f32>, GpuError> {
        let size = (src.len.max(1) * 4) as u64;
        let staging = self.buffer(
            "staging",
            size,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut encoder = self.encoder();
        encoder.copy_buffer_to_buffer(&src.buf, 0, &staging, 0, size);
        self.submit(encoder);
        let data = self.read_staging(&staging, size).await?;
        Ok(data[..src.len].to_vec())
    }

    /// `y = x · wᵀ + b` (then GELU when `gelu`), as `cpu::linear`; `w` uploaded in f32, or in
    /// f16 with [`Gpu::upload_f16`] when `w_f16`. Tiled: 64 × 64 outputs a workgroup.
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
        let p = Params {
            rows: rows as u32,
            n_in: n_in as u32,
            n_out: n_out as u32,
            flag: gelu as u32,
            ..Default::default()
        };
        self.dispatch(
            enc,
            if w_f16 { "linear_f16" } else { "linear" },
            p,
            [x, w, b],
            &out,
            linear_groups(rows, n_out),
        );
        out
    }

    /// LayerNorm of `x` (+ `residual`), gamma and beta concatenated in `gb`.
    #[allow(
        clippy::too_many_arguments,
        reason = "the kernel's buffers and shape, as the kernel binds them"
    )]
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
        let p = Params {
            rows: rows as u32,
            n_in: width as u32,
            flag: residual.is_some() as u32,
            eps,
            ..Default::default()
        };
        self.dispatch(
            enc,
            "layer_norm",
            p,
            [x, residual.unwrap_or(x), gb],
            &out,
            Gpu::groups_of_64(rows),
        );
        out
    }

    /// Self-attention over packed sequences, as `cpu::attention` on each: `qkv` is `[rows,
    /// 3 · heads · head_dim]` (query, key, value side by side), `row_seqs` per row its sequence's
    /// first row and length ([`Gpu::upload_spans`]).
    pub fn attention(
        &self,
        enc: &mut wgpu::CommandEncoder,
        qkv: &DeviceBuf,
        row_seqs: &DeviceBuf,
        rows: usize,
        heads: usize,
        head_dim: usize,
    ) -> DeviceBuf {
        let out = self.output(rows * heads * head_dim);
        let p = Params {
            rows: rows as u32,
            heads: heads as u32,
            head_dim: head_dim as u32,
            ..Default::default()
        };
        self.dispatch(
            enc,
            "attention",
            p,
            [qkv, row_seqs, qkv],
            &out,
            Gpu::groups_of_64(rows * heads),
        );
        out
    }

    /// Mean pooling and L2 normalization of each sequence (`seqs`: first row and length of
    /// each, [`Gpu::upload_spans`]), as `cpu::mean_pool_normalize`: `[n_seqs, width]`.
    pub fn mean_pool(
        &self,
        enc: &mut wgpu::CommandEncoder,
        x: &DeviceBuf,
        seqs: &DeviceBuf,
        n_seqs: usize,
        width: usize,
    ) -> DeviceBuf {
        let out = self.output(n_seqs * width);
        let p = Params {
            rows: n_seqs as u32,
            n_in: width as u32,
            ..Default::default()
        };
        self.dispatch(
            enc,
            "mean_pool",
            p,
            [x, seqs, x],
            &out,
            Gpu::groups_of_64(n_seqs),
        );
        out
    }

    /// Uploads `(first row, length)` pairs as the kernels read them (u32 bit patterns).
    pub fn upload_spans(&self, spans: &[(usize, usize)]) -> DeviceBuf {
        let bits: Vec<f32> = spans
            .iter()
            .flat_map(|&(s, l)| [f32::from_bits(s as u32), f32::from_bits(l as u32)])
            .collect();
        self.upload(&bits)
    }

    /// A command encoder; submit it with [`Gpu::submit`].
    pub fn encoder(&self) -> wgpu::CommandEncoder {
        self.device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None })
    }

    /// Submits recorded work.
    pub fn submit(&self, enc: wgpu::CommandEncoder) {
        self.counters.add(SUBMITS, 1);
        self.queue.submit([enc.finish()]);
    }
}

/// A buffer binding of a compute kernel (`ty`: uniform, or storage read-only or not): the one
/// shape of every binding both models' kernels declare.
pub(crate) fn buffer_binding(
    binding: u32,
    ty: wgpu::BufferBindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// `groups` workgroups (at least one), spilling past 65,535 into y (the kernels that can be that
/// large read `gid.y` or `wid.y`).
pub(crate) fn split_groups(groups: usize) -> (u32, u32) {
    let groups = groups.max(1);
    if groups > 65_535 {
        (65_535, groups.div_ceil(65_535) as u32)
    } else {
        (groups as u32, 1)
    }
}

/// The workgroups of a `linear` dispatch: 64 × 64 outputs each.
fn linear_groups(rows: usize, n_out: usize) -> (u32, u32) {
    (n_out.div_ceil(64) as u32, rows.div_ceil(64) as u32)
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
    config: skillpg_embedder::weights::Config,
    word: DeviceBuf,
    position: DeviceBuf,
    type0: Vec<f32>,
    ln: DeviceBuf,
    layers: Vec<GpuLayer>,
    /// Whether the layers' weights are stored in f16.
    pub f16: bool,
    /// The planned passes, one a bucket of batch sizes (taken out while a pass runs).
    plans: std::cell::RefCell<Vec<batch::BatchPlan>>,
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
    pub async fn new(gpu: Gpu, model: &Model, allow_f16: bool) -> Result<GpuModel, GpuError> {
        let (uploaded, error) = gpu
            .catching(|| GpuModel::upload(gpu.clone(), model, allow_f16))
            .await;
        match error {
            None => Ok(uploaded),
            Some(e) => Err(GpuError::Device(format!(
                "the GPU could not take the model's weights: {e}"
            ))),
        }
    }

    fn upload(gpu: Gpu, model: &Model, allow_f16: bool) -> GpuModel {
        let f16 = allow_f16 && gpu.has_f16();
        let up = |p: &(Vec<f32>, Vec<f32>)| {
            (
                if f16 {
                    gpu.upload_f16(&p.0)
                } else {
                    gpu.upload(&p.0)
                },
                gpu.upload(&p.1),
            )
        };
        let layers = model
            .layers
            .iter()
            .map(|l| GpuLayer {
                qkv: up(&(
                    concat(&concat(&l.q.0, &l.k.0), &l.v.0),
                    concat(&concat(&l.q.1, &l.k.1), &l.v.1),
                )),
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
            plans: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The sentence embedding of `ids` (its first 256), computed on the GPU.
    pub async fn forward(&self, ids: &[u32]) -> Result<Vec<f32>, GpuError> {
        Ok(self
            .forward_batch(std::slice::from_ref(&ids.to_vec()))
            .await?
            .remove(0))
    }

    /// The sentence embeddings of every text of `batch` (each cut to its first 256 ids), in
    /// planned passes (`batch.rs`): the texts' rows stacked, attention and pooling per text, one
    /// compute pass and one read-back for up to 4,096 rows, with no buffer or bind group made
    /// for a batch of a size seen before. An empty text gets a zero vector (as the CPU paths
    /// give).
    pub async fn forward_batch(&self, batch: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, GpuError> {
        let h = self.config.hidden;
        let texts: Vec<&[u32]> = batch
            .iter()
            .filter(|t| !t.is_empty())
            .map(|t| &t[..t.len().min(256)])
            .collect();
        let mut vectors: Vec<Vec<f32>> = Vec::with_capacity(texts.len());
        let mut at = 0;
        while at < texts.len() {
            // As many texts as a pass holds.
            let mut rows = 0;
            let mut end = at;
            while end < texts.len()
                && (end == at || rows + texts[end].len() <= batch::MAX_PASS_ROWS)
            {
                rows += texts[end].len();
                end += 1;
            }
            let flat = self.pass(&texts[at..end]).await?;
            vectors.extend(flat.chunks_exact(h).map(<[f32]>::to_vec));
            at = end;
        }
        let mut vectors = vectors.into_iter();
        Ok(batch
            .iter()
            .map(|t| {
                if t.is_empty() {
                    vec![0.0; h]
                } else {
                    vectors.next().unwrap_or_else(|| vec![0.0; h])
                }
            })
            .collect())
    }

    /// The inputs of a pass of `texts`: `[type 0's embedding | ids | positions]`, each row's
    /// text span, each text's span (u32 bits in f32s), and the rows.
    fn pass_inputs(&self, texts: &[&[u32]]) -> (Vec<f32>, Vec<f32>, Vec<f32>, usize) {
        let c = self.config;
        let rows: usize = texts.iter().map(|t| t.len()).sum();
        let bits = |v: usize| f32::from_bits(v as u32);
        let mut extra = self.type0.clone();
        let (mut row_spans, mut spans, mut positions) = (
            Vec::with_capacity(2 * rows),
            Vec::with_capacity(2 * texts.len()),
            Vec::with_capacity(rows),
        );
        let mut start = 0;
        for t in texts {
            spans.extend([bits(start), bits(t.len())]);
            for _ in 0..t.len() {
                row_spans.extend([bits(start), bits(t.len())]);
            }
            extra.extend(
                t.iter()
                    .map(|&id| f32::from_bits(id.min(c.vocab as u32 - 1))),
            );
            positions.extend((0..t.len()).map(bits));
            start += t.len();
        }
        extra.extend(positions);
        (extra, row_spans, spans, rows)
    }

    /// The planned pass for `rows` rows: a kept one of its bucket, or a new one.
    fn take_plan(&self, rows: usize) -> Result<batch::BatchPlan, GpuError> {
        let bucket = batch::bucket(rows);
        let kept = {
            let mut plans = self.plans.borrow_mut();
            plans
                .iter()
                .position(|p| p.rows == bucket)
                .map(|i| plans.swap_remove(i))
        };
        Ok(match kept {
            Some(plan) => plan,
            None => batch::BatchPlan::new(self, bucket),
        })
    }

    /// One planned pass over `texts`: their pooled embeddings, flat.
    async fn pass(&self, texts: &[&[u32]]) -> Result<Vec<f32>, GpuError> {
        let (extra, row_spans, spans, rows) = self.pass_inputs(texts);
        let (plan, error) = self.gpu.catching(|| self.take_plan(rows)).await;
        if let Some(e) = error {
            return Err(GpuError::Device(format!(
                "the GPU could not plan a pass of {rows} rows: {e}"
            )));
        }
        let plan = plan?;
        let out = plan
            .run(self, &extra, &row_spans, &spans, rows, texts.len())
            .await;
        self.plans.borrow_mut().push(plan);
        out
    }

    /// One pass over `texts` (at most 4,096 rows) with each dispatch timed, for the
    /// benchmark's per-kernel table.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn profile(
        &self,
        batch: &[Vec<u32>],
    ) -> Result<(Vec<profile::KernelTime>, profile::Timing), GpuError> {
        let texts: Vec<&[u32]> = batch
            .iter()
            .filter(|t| !t.is_empty())
            .map(|t| &t[..t.len().min(256)])
            .collect();
        let (extra, row_spans, spans, rows) = self.pass_inputs(&texts);
        if rows > batch::MAX_PASS_ROWS {
            return Err(GpuError::Device(format!(
                "a profiled pass holds {} rows at most",
                batch::MAX_PASS_ROWS
            )));
        }
        let plan = self.take_plan(rows)?;
        let out = plan.profile(self, &extra, &row_spans, &spans, rows, texts.len());
        self.plans.borrow_mut().push(plan);
        out
    }
}
