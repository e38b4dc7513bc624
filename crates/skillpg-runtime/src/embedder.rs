//! The embedding model where the placement ladder puts it: the GPU (`skillpg_gpu::GpuModel`) or
//! the fast CPU path (`skillpg_embedder::fast`), measured on four request-sized texts when the
//! choice is automatic and no kept measurement fits. A GPU that fails mid-run hands the batch,
//! and every later one, to the fast CPU path, and the backend line says so.

use skillpg_embedder::cpu::Model;
use skillpg_embedder::fast::{FastEmbedder, Kernel};
use skillpg_embedder::wordpiece::WordPiece;
use skillpg_routing::backend::{Measured, Path, Placement, Plan, STOP_AFTER, Why};

use crate::{Ask, Clock, Start, time_twice};

/// What a measurement embeds: four texts of a request's length.
pub const PROBE: [&str; 4] = [
    "Can you check whether this ALTER TABLE will lock the orders table in production?",
    "Write the release notes for version 2.4 from the merged pull requests.",
    "Fill in this PDF form with the values from the spreadsheet I attached.",
    "Why does my skill never trigger when I ask about database migrations?",
];

/// How the edge names each path, for the backend line.
#[derive(Debug, Clone)]
pub struct Words {
    /// The GPU path, `{adapter}` standing for the adapter ("WebGPU via wgpu ({adapter}), in a
    /// worker").
    pub gpu: String,
    /// The CPU path, `{kernel}` standing for its kernel ("CPU path (wasm SIMD, {kernel} kernel,
    /// in a worker)").
    pub cpu: String,
}

/// The embedding model on its backend, and why it is there.
#[derive(Debug)]
pub struct EmbedderBackend {
    /// The fast CPU path: what runs on the CPU, and the fallback.
    pub fast: FastEmbedder,
    /// The GPU path, while it is the one that runs.
    gpu: Option<skillpg_gpu::GpuModel>,
    pub placement: Placement,
    words: Words,
}

impl EmbedderBackend {
    /// The backend line.
    pub fn line(&self) -> String {
        let kernel = if self.fast.runs_on_integers() {
            "int8"
        } else {
            "f32"
        };
        let cpu = self.words.cpu.replace("{kernel}", kernel);
        let adapter = self.placement.adapter.as_ref().map_or_else(
            || "no adapter".to_owned(),
            skillpg_routing::backend::Adapter::describe,
        );
        let gpu = self.words.gpu.replace("{adapter}", &adapter);
        let gpu = match &self.gpu {
            Some(g) => format!("{gpu}, weights in {}", if g.f16 { "f16" } else { "f32" }),
            None => gpu,
        };
        self.placement.line(&gpu, &cpu)
    }

    /// Whether the GPU runs.
    pub fn on_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// The embeddings of `batch` (token ids), on the GPU or the fast CPU path; a GPU failure
    /// moves this batch and every later one to the CPU path ([`Placement::after_failure`]).
    pub async fn embed(&mut self, batch: &[Vec<u32>]) -> Vec<Vec<f32>> {
        if let Some(g) = &self.gpu {
            match g.forward_batch(batch).await {
                Ok(vectors) => return vectors,
                Err(e) => {
                    self.placement = self.placement.after_failure(&e.to_string());
                    self.gpu = None;
                }
            }
        }
        self.fast.forward_batch(batch)
    }
}

/// Puts the model where the ladder says: `choice`, the adapter there is, a kept measurement of
/// this adapter and model (`kept`, `model_key`), else one made now. Returns the backend and a
/// new measurement to keep, when one was made.
pub async fn place(
    tokenizer: WordPiece,
    model: Model,
    kernel: Kernel,
    ask: Ask<'_>,
    words: Words,
) -> (EmbedderBackend, Option<Measured>) {
    let (model_key, clock) = (ask.model_key, ask.clock);
    let finish = |fast, gpu, placement| EmbedderBackend {
        fast,
        gpu,
        placement,
        words: words.clone(),
    };
    let (gpu, adapter, plan) = match crate::start(&ask).await {
        Start::Gpu { gpu, adapter, plan } => (gpu, adapter, plan),
        Start::Cpu(placement) => {
            return (
                finish(
                    FastEmbedder::with_kernel(tokenizer, model, kernel),
                    None,
                    placement,
                ),
                None,
            );
        }
    };
    // The GPU's copy first: the CPU path then takes the model itself, not a copy.
    let uploaded = skillpg_gpu::GpuModel::new(gpu, &model, true).await;
    let fast = FastEmbedder::with_kernel(tokenizer, model, kernel);
    let gpu_model = match uploaded {
        Ok(g) => g,
        Err(e) => {
            return (
                finish(
                    fast,
                    None,
                    Placement {
                        path: Path::Cpu,
                        why: Why::GpuRefused(e.to_string()),
                        adapter: Some(adapter),
                    },
                ),
                None,
            );
        }
    };
    let Plan::Place(path, why) = plan else {
        return match measure(&fast, &gpu_model, clock).await {
            Ok((gpu_ms, cpu_ms, gpu_stopped)) => {
                let measured = Measured::on(&adapter, model_key, gpu_ms, cpu_ms, gpu_stopped);
                let placement = Placement::measured(measured.clone(), adapter);
                let gpu = (placement.path == Path::Gpu).then_some(gpu_model);
                (finish(fast, gpu, placement), Some(measured))
            }
            Err(e) => (
                finish(
                    fast,
                    None,
                    Placement {
                        path: Path::Cpu,
                        why: Why::GpuFailed(e.to_string()),
                        adapter: Some(adapter),
                    },
                ),
                None,
            ),
        };
    };
    let gpu = (path == Path::Gpu).then_some(gpu_model);
    (
        finish(
            fast,
            gpu,
            Placement {
                path,
                why,
                adapter: Some(adapter),
            },
        ),
        None,
    )
}

/// Milliseconds a request on each path (the probe's four texts, divided by four), and whether
/// the GPU's first run was past [`STOP_AFTER`] times the CPU's and stopped there.
async fn measure(
    fast: &FastEmbedder,
    gpu: &skillpg_gpu::GpuModel,
    clock: Clock<'_>,
) -> Result<(f64, f64, bool), skillpg_gpu::GpuError> {
    let batch: Vec<Vec<u32>> = PROBE.iter().map(|t| fast.tokenizer.encode(t)).collect();
    let cpu = time_twice(clock, f64::INFINITY, || {
        let _ = fast.forward_batch(&batch);
        std::future::ready(Ok::<(), skillpg_gpu::GpuError>(()))
    })
    .await?;
    let gpu = time_twice(clock, STOP_AFTER * cpu.ms, || async {
        gpu.forward_batch(&batch).await.map(|_| ())
    })
    .await?;
    let per = PROBE.len() as f64;
    Ok((gpu.ms / per, cpu.ms / per, gpu.stopped))
}
