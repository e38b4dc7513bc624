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
use skillpg_routing::backend::{BackendChoice, Measured};
use skillpg_routing::outcome::Decision;
use skillpg_routing::protocol::{CheckpointFiles, DecoderMode};
use skillpg_routing::skills::RouteSkill;
use skillpg_runtime::Ask;
use skillpg_runtime::decoder::DecoderRouting;

struct DecoderEngine {
    /// The model where the ladder put it, with its router and the one fallback.
    routing: DecoderRouting,
    /// What the model is, in words.
    what: String,
    /// What runs the model on the GPU path and on the CPU path, in words.
    gpu: String,
    cpu: String,
}

impl DecoderEngine {
    /// What the model is and what runs it now, in words.
    fn line(&self) -> String {
        format!(
            "{}: {}",
            self.what,
            self.routing.placement().line(&self.gpu, &self.cpu)
        )
    }
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
        Some(CheckpointFiles { config, tokenizer }) => {
            Loaded::from_checkpoint(bytes, &config, &tokenizer)?
        }
    };
    let what = loaded.describe(file_name);
    let Loaded { model, bpe, .. } = loaded;
    Ok(place(model, bpe, what, choice, kept).await)
}

/// What runs `model` on the CPU path. The page is not cross-origin isolated (no
/// SharedArrayBuffer), so the worker runs one thread; the line says so, with the kernel that
/// multiplies the quantized weights.
fn cpu_line(model: &Decoder) -> String {
    format!(
        "CPU path (wasm SIMD, {}, one thread, in a worker)",
        model.products()
    )
}

/// Puts `model` where the ladder puts it (`skillpg_runtime::decoder::place`) and keeps it as
/// the engine; answers what it is, a line saying that and what runs it, and a measurement to
/// keep when one was made.
async fn place(
    model: Decoder,
    bpe: Bpe,
    what: String,
    choice: BackendChoice,
    kept: &[Measured],
) -> (String, String, Option<Measured>) {
    let cpu = cpu_line(&model);
    let clock = crate::now_ms;
    let ask = Ask {
        choice,
        kept,
        model_key: &what,
        chosen_by: "in the page",
        clock: &clock,
    };
    let (backend, placement, measured) = skillpg_runtime::decoder::place(model, ask).await;
    let adapter = placement.adapter.as_ref().map_or_else(
        || "no adapter".to_owned(),
        skillpg_routing::backend::Adapter::describe,
    );
    let gpu = match backend.gpu_holds() {
        Some((mb, storage)) => format!(
            "WebGPU via wgpu ({adapter}), in a worker, {mb:.1} MB of weights on the device ({storage})"
        ),
        None => format!("WebGPU via wgpu ({adapter}), in a worker"),
    };
    let engine = DecoderEngine {
        routing: DecoderRouting::new(backend, bpe, placement),
        what: what.clone(),
        gpu,
        cpu,
    };
    let line = engine.line();
    DECODER.with(|d| *d.borrow_mut() = Some(engine));
    (what, line, measured)
}

/// Moves the loaded model to the backend `choice` picks (its cache and router start afresh);
/// returns what it is, the new line, and a measurement to keep.
pub async fn set_backend(
    choice: BackendChoice,
    kept: &[Measured],
) -> Result<(String, String, Option<Measured>), String> {
    let engine = DECODER
        .with(|d| d.borrow_mut().take())
        .ok_or("no decoder is loaded")?;
    let (model, bpe) = engine.routing.into_parts()?;
    Ok(place(model, bpe, engine.what, choice, kept).await)
}

/// Routes one request over `skills`: the decision, the system turn's tokens, and what runs the
/// model now. A GPU failure moves the model to the CPU path, which answers the request
/// (`DecoderRouting::route`), and the line says so.
pub async fn route_one(
    skills: &[RouteSkill],
    request: &str,
    mode: DecoderMode,
    sampling: Option<Sampling>,
) -> Result<(Decision, u64, String), String> {
    // Out of the cell while the GPU is awaited; the worker answers one message at a time.
    let mut engine = DECODER
        .with(|d| d.borrow_mut().take())
        .ok_or("no decoder is loaded")?;
    let out = engine.routing.route(skills, request, mode, sampling).await;
    let line = engine.line();
    DECODER.with(|d| *d.borrow_mut() = Some(engine));
    let (decision, prefix_tokens) = out?;
    Ok((decision, prefix_tokens as u64, line))
}
