//! A decoder where the placement ladder puts it: the GPU (`skillpg_gpu::decoder::GpuDecoder`) or
//! the CPU path (`skillpg_decoder::forward::CpuForward`), behind one [`Forward`], measured on a
//! request-sized piece of work (a 16-token prompt, then four greedy steps) when the choice is
//! automatic and no kept measurement fits. A GPU that fails hands the model to the CPU path
//! ([`DecoderBackend::fall_back`]), which answers the request again, and the line says so.

use skillpg_decoder::forward::{CpuForward, Forward};
use skillpg_decoder::model::{Config, Decoder, Logits};
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};
use skillpg_routing::backend::{Measured, Path, Placement, Plan, STOP_AFTER, Why};

use crate::{Ask, Clock, Start};

/// What runs the model.
#[allow(clippy::large_enum_variant, reason = "one value an engine, moved only when the backend changes")]
#[derive(Debug)]
pub enum DecoderBackend {
    Cpu(CpuForward<Decoder>),
    Gpu(Box<GpuDecoder>),
}

impl DecoderBackend {
    /// The model back, whichever backend held it.
    pub fn into_model(self) -> Decoder {
        match self {
            DecoderBackend::Cpu(cpu) => cpu.into_model(),
            DecoderBackend::Gpu(gpu) => gpu.into_model(),
        }
    }

    /// The CPU path, after the GPU failed (a no-op on the CPU path).
    pub fn fall_back(self) -> DecoderBackend {
        DecoderBackend::Cpu(CpuForward::new(self.into_model()))
    }

    /// Whether the GPU runs.
    pub fn on_gpu(&self) -> bool {
        matches!(self, DecoderBackend::Gpu(_))
    }

    /// What the GPU holds, for its line: weights' megabytes and storage.
    pub fn gpu_holds(&self) -> Option<(f64, String)> {
        match self {
            DecoderBackend::Gpu(g) => Some((g.device_bytes as f64 / 1e6, g.storage.clone())),
            DecoderBackend::Cpu(_) => None,
        }
    }
}

impl Forward for DecoderBackend {
    fn config(&self) -> Config {
        match self {
            DecoderBackend::Cpu(c) => c.config(),
            DecoderBackend::Gpu(g) => g.config(),
        }
    }

    fn cached(&self) -> usize {
        match self {
            DecoderBackend::Cpu(c) => c.cached(),
            DecoderBackend::Gpu(g) => g.cached(),
        }
    }

    fn truncate(&mut self, len: usize) {
        match self {
            DecoderBackend::Cpu(c) => c.truncate(len),
            DecoderBackend::Gpu(g) => g.truncate(len),
        }
    }

    async fn forward(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, String> {
        match self {
            DecoderBackend::Cpu(c) => c.forward(ids, logits).await,
            DecoderBackend::Gpu(g) => g.forward(ids, logits).await,
        }
    }

    async fn forward_argmax(&mut self, ids: &[u32]) -> Result<u32, String> {
        match self {
            DecoderBackend::Cpu(c) => c.forward_argmax(ids).await,
            DecoderBackend::Gpu(g) => g.forward_argmax(ids).await,
        }
    }

    async fn forward_log_probs(&mut self, ids: &[u32], wanted: &[(usize, u32)]) -> Result<Vec<f32>, String> {
        match self {
            DecoderBackend::Cpu(c) => c.forward_log_probs(ids, wanted).await,
            DecoderBackend::Gpu(g) => g.forward_log_probs(ids, wanted).await,
        }
    }
}

/// The probe's prompt length and greedy steps: a request of the chapter's protocol is about
/// twenty tokens and a short answer.
const PROBE_PROMPT: usize = 16;
const PROBE_STEPS: usize = 4;

/// Runs the probe on `model` from an empty cache, step by step; `Ok(false)` when it stopped
/// because the clock passed `deadline` (absolute milliseconds).
async fn probe(model: &mut impl Forward, clock: Clock<'_>, deadline: f64) -> Result<bool, String> {
    let vocab = model.config().vocab.max(1);
    let ids: Vec<u32> = (0..PROBE_PROMPT).map(|i| ((i * 7919 + 13) % vocab) as u32).collect();
    model.truncate(0);
    let mut next = model.forward_argmax(&ids).await?;
    for _ in 0..PROBE_STEPS {
        if clock() > deadline {
            return Ok(false);
        }
        next = model.forward_argmax(&[next]).await?;
    }
    model.truncate(0);
    Ok(clock() <= deadline)
}

/// Milliseconds of the probe's second run (the first warms it), or of its first when that was
/// stopped at `budget` milliseconds.
async fn time_probe(model: &mut impl Forward, clock: Clock<'_>, budget: f64) -> Result<(f64, bool), String> {
    let start = clock();
    if !probe(model, clock, start + budget).await? {
        model.truncate(0);
        return Ok((clock() - start, true));
    }
    let start = clock();
    probe(model, clock, f64::INFINITY).await?;
    Ok((clock() - start, false))
}

/// Puts `model` where the ladder says (see [`crate::embedder::place`]); the backend, its
/// placement, and a new measurement to keep when one was made.
pub async fn place(model: Decoder, ask: Ask<'_>) -> (DecoderBackend, Placement, Option<Measured>) {
    let (model_key, clock) = (ask.model_key, ask.clock);
    let cpu = |model, path, why, adapter| (DecoderBackend::Cpu(CpuForward::new(model)), Placement { path, why, adapter }, None);
    let (gpu, adapter, plan) = match crate::start(&ask).await {
        Start::Gpu { gpu, adapter, plan } => (gpu, adapter, plan),
        Start::Cpu(placement) => return (DecoderBackend::Cpu(CpuForward::new(model)), placement, None),
    };
    let upload = async |model| match GpuDecoder::new(DecoderKernels::new(gpu), model).await {
        Ok(g) => Ok(g),
        Err((model, e)) => Err(cpu(model, Path::Cpu, Why::GpuRefused(e), Some(adapter.clone()))),
    };
    let cpu_ms = match plan {
        // Chosen, or kept from an earlier measurement: the GPU runs, nothing to time.
        Plan::Place(path, why) => {
            return match upload(model).await {
                Ok(g) => (DecoderBackend::Gpu(Box::new(g)), Placement { path, why, adapter: Some(adapter) }, None),
                Err(refused) => refused,
            };
        }
        // The CPU's time first (on the model itself), then the GPU's on its own copy.
        Plan::Measure => match time_probe(&mut CpuForward::new(&model), clock, f64::INFINITY).await {
            Ok((ms, _)) => ms,
            Err(e) => return cpu(model, Path::Cpu, Why::GpuFailed(e), Some(adapter)),
        },
    };
    let mut on_gpu = match upload(model).await {
        Ok(g) => g,
        Err(refused) => return refused,
    };
    match time_probe(&mut on_gpu, clock, STOP_AFTER * cpu_ms).await {
        Ok((gpu_ms, gpu_stopped)) => {
            let measured = Measured { adapter: adapter.key(), model: model_key.to_owned(), gpu_ms, cpu_ms, gpu_stopped };
            let placement = Placement::measured(measured.clone(), adapter);
            let backend = if placement.path == Path::Gpu { DecoderBackend::Gpu(Box::new(on_gpu)) } else { DecoderBackend::Cpu(CpuForward::new(on_gpu.into_model())) };
            (backend, placement, Some(measured))
        }
        Err(e) => cpu(on_gpu.into_model(), Path::Cpu, Why::GpuFailed(e), Some(adapter)),
    }
}
