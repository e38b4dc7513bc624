//! The decoder router in the worker: a GGUF or a Hugging Face checkpoint the user brought
//! (Llama or Qwen2 family), its tokenizer, the backend that runs it, and the router of the
//! skills last asked about (its system turn prefilled once and reused for every request of a
//! run). One request a call, so that the page shows progress and can stop between requests.
//!
//! The backend rule, when the person leaves it automatic, is the embedding model's: WebGPU on an
//! adapter that is a real GPU, the CPU path (wasm SIMD) on a software adapter (SwiftShader,
//! lavapipe: the CPU path is faster there) or with no adapter. The person may choose WebGPU (on
//! any adapter: also how the browser tests run the WGSL kernels on SwiftShader) or the CPU, and
//! switch without loading the model again. A GPU that fails (an upload it cannot hold, a lost
//! device) hands the model to the CPU path, which finishes the request, and the backend line says
//! so.

use skillpg_routing::sampling::Sampling;
use std::cell::RefCell;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::{CpuForward, Forward};
use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::{Decoder, Logits};
use skillpg_decoder::protocol::{DEFAULT_MAX_ANSWER_TOKENS, DecoderRouter};
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};
use skillpg_routing::backend::BackendChoice;
use skillpg_routing::outcome::Decision;
use skillpg_routing::protocol::{CheckpointFiles, DecoderMode};
use skillpg_routing::skills::RouteSkill;

/// What runs the model.
#[allow(clippy::large_enum_variant, reason = "one value a worker, moved only when the backend changes")]
enum Backend {
    Cpu(CpuForward<Decoder>),
    Gpu(Box<GpuDecoder>),
}

impl Backend {
    /// The model back, whichever backend held it.
    fn into_model(self) -> Decoder {
        match self {
            Backend::Cpu(cpu) => cpu.into_model(),
            Backend::Gpu(gpu) => gpu.into_model(),
        }
    }
}

impl Forward for Backend {
    fn config(&self) -> skillpg_decoder::model::Config {
        match self {
            Backend::Cpu(c) => c.config(),
            Backend::Gpu(g) => g.config(),
        }
    }

    fn cached(&self) -> usize {
        match self {
            Backend::Cpu(c) => c.cached(),
            Backend::Gpu(g) => g.cached(),
        }
    }

    fn truncate(&mut self, len: usize) {
        match self {
            Backend::Cpu(c) => c.truncate(len),
            Backend::Gpu(g) => g.truncate(len),
        }
    }

    async fn forward(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, String> {
        match self {
            Backend::Cpu(c) => c.forward(ids, logits).await,
            Backend::Gpu(g) => g.forward(ids, logits).await,
        }
    }

    async fn forward_argmax(&mut self, ids: &[u32]) -> Result<u32, String> {
        match self {
            Backend::Cpu(c) => c.forward_argmax(ids).await,
            Backend::Gpu(g) => g.forward_argmax(ids).await,
        }
    }

    async fn forward_log_probs(&mut self, ids: &[u32], wanted: &[(usize, u32)]) -> Result<Vec<f32>, String> {
        match self {
            Backend::Cpu(c) => c.forward_log_probs(ids, wanted).await,
            Backend::Gpu(g) => g.forward_log_probs(ids, wanted).await,
        }
    }
}

struct DecoderEngine {
    backend: Backend,
    bpe: Bpe,
    /// What the model is, in words.
    what: String,
    /// What the model is and what runs it, in words.
    line: String,
    /// The skills the router was made for, and the router.
    router: Option<(Vec<RouteSkill>, DecoderRouter)>,
}

thread_local! {
    static DECODER: RefCell<Option<DecoderEngine>> = const { RefCell::new(None) };
}

/// Reads a GGUF model (the bytes), or a Hugging Face checkpoint's `model.safetensors` with its
/// files, or names what is wrong with them; returns a line that says what was loaded and what
/// runs it.
pub async fn load(bytes: Vec<u8>, file_name: &str, checkpoint: Option<CheckpointFiles>, choice: BackendChoice) -> Result<(String, String), String> {
    DECODER.with(|d| d.borrow_mut().take());
    let loaded = match checkpoint {
        None => Loaded::from_gguf(bytes)?,
        Some(CheckpointFiles { config, tokenizer }) => Loaded::from_checkpoint(bytes, &config, &tokenizer)?,
    };
    install(loaded, file_name, choice).await
}

/// What runs `model` on the CPU path. The page is not cross-origin isolated (no
/// SharedArrayBuffer), so the worker runs one thread; the line says so, with the kernel that
/// multiplies the quantized weights.
fn cpu_line(model: &Decoder) -> String {
    let (arithmetic, kernel) = model.arithmetic();
    let products = match arithmetic {
        skillpg_decoder::model::Arithmetic::Integer => format!("integer products for quantized weights, {} kernel", kernel.name()),
        skillpg_decoder::model::Arithmetic::F32 => "f32 products".to_owned(),
    };
    format!("CPU path (wasm SIMD, {products}, one thread, in a worker)")
}

/// Puts `model` where `choice` says, and says what runs it.
async fn place(model: Decoder, choice: BackendChoice) -> (Backend, String) {
    let cpu_line = cpu_line(&model);
    if choice == BackendChoice::Cpu {
        return (Backend::Cpu(CpuForward::new(model)), format!("{cpu_line}: chosen in the page"));
    }
    match skillpg_gpu::Gpu::new().await {
        Err(e) => (Backend::Cpu(CpuForward::new(model)), format!("{cpu_line}: this browser offers no WebGPU adapter ({e})")),
        Ok(g) if !choice.runs_on_gpu(Some(&g.adapter.device_type)) => (
            Backend::Cpu(CpuForward::new(model)),
            format!("WebGPU is software here ({} {}): {cpu_line}, which is faster on it", g.adapter.backend, g.adapter.device_type),
        ),
        Ok(g) => {
            let adapter = g.adapter.clone();
            match GpuDecoder::new(DecoderKernels::new(g), model).await {
                Ok(gpu) => {
                    let chosen = if choice == BackendChoice::Webgpu { ": chosen in the page" } else { "" };
                    let line = format!(
                        "WebGPU via wgpu ({} {}), in a worker, {:.1} MB of weights on the device ({}){chosen}",
                        adapter.backend,
                        adapter.device_type,
                        gpu.device_bytes as f64 / 1e6,
                        gpu.storage
                    );
                    (Backend::Gpu(Box::new(gpu)), line)
                }
                Err((model, e)) => (Backend::Cpu(CpuForward::new(model)), format!("{cpu_line}: WebGPU could not take the model ({e})")),
            }
        }
    }
}

/// Keeps a loaded model on the backend `choice` picks; answers what it is, and a line saying that
/// and what runs it.
async fn install(loaded: Loaded, file_name: &str, choice: BackendChoice) -> Result<(String, String), String> {
    let what = loaded.describe(file_name);
    let Loaded { model, bpe, .. } = loaded;
    let (backend, how) = place(model, choice).await;
    let line = format!("{what}: {how}");
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { backend, bpe, what: what.clone(), line: line.clone(), router: None }));
    Ok((what, line))
}

/// One request on the engine's backend, the router made first when the skills changed; the
/// decision and the system turn's tokens.
async fn route_on(engine: &mut DecoderEngine, skills: &[RouteSkill], request: &str, mode: DecoderMode, sampling: Option<Sampling>) -> Result<(Decision, u64), String> {
    if engine.router.as_ref().is_none_or(|(s, _)| s != skills) {
        engine.router = None;
        let router = DecoderRouter::new(&mut engine.backend, &engine.bpe, skills, true).await?;
        engine.router = Some((skills.to_vec(), router));
    }
    let DecoderEngine { backend, bpe, router, .. } = engine;
    let Some((_, router)) = router.as_ref() else { return Err("no router".to_owned()) };
    let decision = match mode {
        DecoderMode::Chapter => router.chapter_sampled(backend, bpe, request, DEFAULT_MAX_ANSWER_TOKENS, sampling).await?.decision(),
        DecoderMode::Choice => router.choice(backend, bpe, request).await?.decision(),
    };
    Ok((decision, router.prefix_tokens() as u64))
}

/// Moves the loaded model to the backend `choice` picks (its cache and router start afresh);
/// returns the new line.
pub async fn set_backend(choice: BackendChoice) -> Result<(String, String), String> {
    let engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let DecoderEngine { backend, bpe, what, .. } = engine;
    let model = backend.into_model();
    let (backend, how) = place(model, choice).await;
    let line = format!("{what}: {how}");
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { backend, bpe, what: what.clone(), line: line.clone(), router: None }));
    Ok((what, line))
}

/// Routes one request over `skills`: the decision, the system turn's tokens, and what runs the
/// model now. A GPU failure moves the model to the CPU path, which answers the request.
pub async fn route_one(skills: &[RouteSkill], request: &str, mode: DecoderMode, sampling: Option<Sampling>) -> Result<(Decision, u64, String), String> {
    // Out of the cell while the GPU is awaited; the worker answers one message at a time.
    let mut engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let mut out = route_on(&mut engine, skills, request, mode, sampling).await;
    if let Err(failure) = &out
        && let Backend::Gpu(_) = &engine.backend
    {
        let failure = failure.clone();
        let DecoderEngine { backend, bpe, what, .. } = engine;
        let model = backend.into_model();
        let line = format!("{what}: {}: the GPU failed ({failure}), so this and later requests run on the CPU", cpu_line(&model));
        engine = DecoderEngine { backend: Backend::Cpu(CpuForward::new(model)), bpe, what, line, router: None };
        out = route_on(&mut engine, skills, request, mode, sampling).await;
    }
    let line = engine.line.clone();
    DECODER.with(|d| *d.borrow_mut() = Some(engine));
    let (decision, prefix_tokens) = out?;
    Ok((decision, prefix_tokens, line))
}
