//! The decoder router in the worker: a GGUF or a Hugging Face checkpoint the user brought
//! (Llama or Qwen2 family), its tokenizer, the backend that runs it, and the router of the
//! skills last asked about (its system turn prefilled once and reused for every request of a
//! run). One request a call, so that the page shows progress and can stop between requests.
//!
//! Where it runs is `skillpg_runtime`'s ladder, as for the embedding model: left automatic, the
//! faster path as measured on the first load of this model on this adapter (the page keeps the
//! measurement). The person may choose WebGPU (on any adapter: also how the browser tests run the
//! WGSL kernels on SwiftShader) or the CPU, and switch without loading the model again. A GPU that
//! fails (an upload it cannot hold, a lost device) hands the model to the CPU path, which
//! finishes the request, and the backend line says so.

use skillpg_routing::sampling::Sampling;
use std::cell::RefCell;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::Decoder;
use skillpg_decoder::protocol::{DEFAULT_MAX_ANSWER_TOKENS, DecoderRouter};
use skillpg_routing::backend::{BackendChoice, Measured, Placement};
use skillpg_routing::outcome::Decision;
use skillpg_routing::protocol::{CheckpointFiles, DecoderMode};
use skillpg_routing::skills::RouteSkill;
use skillpg_runtime::Ask;
use skillpg_runtime::decoder::DecoderBackend;

struct DecoderEngine {
    backend: DecoderBackend,
    bpe: Bpe,
    /// What the model is, in words.
    what: String,
    /// What the model is and what runs it, in words.
    line: String,
    /// Where the ladder put the model and why; a GPU failure words the fallback from it.
    placement: Placement,
    /// What runs the model on the CPU path, in words.
    cpu: String,
    /// The skills the router was made for, and the router.
    router: Option<(Vec<RouteSkill>, DecoderRouter)>,
}

thread_local! {
    static DECODER: RefCell<Option<DecoderEngine>> = const { RefCell::new(None) };
}

/// Reads a GGUF model (the bytes), or a Hugging Face checkpoint's `model.safetensors` with its
/// files, or names what is wrong with them; returns a line that says what was loaded and what
/// runs it.
pub async fn load(
    bytes: Vec<u8>,
    file_name: &str,
    checkpoint: Option<CheckpointFiles>,
    choice: BackendChoice,
    kept: &[Measured],
) -> Result<(String, String, Option<Measured>), String> {
    DECODER.with(|d| d.borrow_mut().take());
    let loaded = match checkpoint {
        None => Loaded::from_gguf(bytes)?,
        Some(CheckpointFiles { config, tokenizer }) => Loaded::from_checkpoint(bytes, &config, &tokenizer)?,
    };
    install(loaded, file_name, choice, kept).await
}

/// What runs `model` on the CPU path. The page is not cross-origin isolated (no
/// SharedArrayBuffer), so the worker runs one thread; the line says so, with the kernel that
/// multiplies the quantized weights.
fn cpu_line(model: &Decoder) -> String {
    format!("CPU path (wasm SIMD, {}, one thread, in a worker)", model.products())
}

/// What the ladder gave: the backend, where it runs and why, what runs the CPU path, the line
/// saying what runs it, and a measurement to keep when one was made.
struct Placed {
    backend: DecoderBackend,
    placement: Placement,
    cpu: String,
    how: String,
    measured: Option<Measured>,
}

/// Puts `model` where the ladder puts it (`skillpg_runtime::decoder::place`).
async fn place(model: Decoder, choice: BackendChoice, kept: &[Measured], what: &str) -> Placed {
    let cpu = cpu_line(&model);
    let clock = crate::now_ms;
    let ask = Ask { choice, kept, model_key: what, chosen_by: "in the page", clock: &clock };
    let (backend, placement, measured) = skillpg_runtime::decoder::place(model, ask).await;
    let adapter = placement.adapter.as_ref().map_or_else(|| "no adapter".to_owned(), skillpg_routing::backend::Adapter::describe);
    let gpu = match backend.gpu_holds() {
        Some((mb, storage)) => format!("WebGPU via wgpu ({adapter}), in a worker, {mb:.1} MB of weights on the device ({storage})"),
        None => format!("WebGPU via wgpu ({adapter}), in a worker"),
    };
    let how = placement.line(&gpu, &cpu);
    Placed { backend, placement, cpu, how, measured }
}

/// Keeps what the ladder placed as the engine; answers what the model is, the line, and a
/// measurement to keep.
fn keep(placed: Placed, bpe: Bpe, what: String) -> (String, String, Option<Measured>) {
    let Placed { backend, placement, cpu, how, measured } = placed;
    let line = format!("{what}: {how}");
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { backend, bpe, what: what.clone(), line: line.clone(), placement, cpu, router: None }));
    (what, line, measured)
}

/// Keeps a loaded model where the ladder puts it; answers what it is, a line saying that and
/// what runs it, and a measurement to keep.
async fn install(loaded: Loaded, file_name: &str, choice: BackendChoice, kept: &[Measured]) -> Result<(String, String, Option<Measured>), String> {
    let what = loaded.describe(file_name);
    let Loaded { model, bpe, .. } = loaded;
    let placed = place(model, choice, kept, &what).await;
    Ok(keep(placed, bpe, what))
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
/// returns what it is, the new line, and a measurement to keep.
pub async fn set_backend(choice: BackendChoice, kept: &[Measured]) -> Result<(String, String, Option<Measured>), String> {
    let engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let DecoderEngine { backend, bpe, what, .. } = engine;
    let placed = place(backend.into_model(), choice, kept, &what).await;
    Ok(keep(placed, bpe, what))
}

/// Routes one request over `skills`: the decision, the system turn's tokens, and what runs the
/// model now. A GPU failure moves the model to the CPU path, which answers the request.
pub async fn route_one(skills: &[RouteSkill], request: &str, mode: DecoderMode, sampling: Option<Sampling>) -> Result<(Decision, u64, String), String> {
    // Out of the cell while the GPU is awaited; the worker answers one message at a time.
    let mut engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let mut out = route_on(&mut engine, skills, request, mode, sampling).await;
    if let Err(failure) = &out
        && engine.backend.on_gpu()
    {
        // The one fallback: the CPU path takes the model and answers the request again.
        let failure = failure.clone();
        let DecoderEngine { backend, bpe, what, placement, cpu, .. } = engine;
        let placement = placement.after_failure(&failure);
        let line = format!("{what}: {}", placement.line("", &cpu));
        engine = DecoderEngine { backend: backend.fall_back(), bpe, what, line, placement, cpu, router: None };
        out = route_on(&mut engine, skills, request, mode, sampling).await;
    }
    let line = engine.line.clone();
    DECODER.with(|d| *d.borrow_mut() = Some(engine));
    let (decision, prefix_tokens) = out?;
    Ok((decision, prefix_tokens, line))
}
