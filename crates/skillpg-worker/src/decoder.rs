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

use std::cell::RefCell;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::{CpuForward, Forward};
use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::{Decoder, Logits};
use skillpg_decoder::protocol::{DEFAULT_MAX_ANSWER_TOKENS, DecoderRouter};
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};
use wasm_bindgen::prelude::*;

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
}

struct DecoderEngine {
    backend: Backend,
    bpe: Bpe,
    /// What the model is, in words.
    what: String,
    /// What the model is and what runs it, in words.
    line: String,
    /// The skills the router was made for, and the router.
    router: Option<(Vec<(String, String)>, DecoderRouter)>,
}

thread_local! {
    static DECODER: RefCell<Option<DecoderEngine>> = const { RefCell::new(None) };
}

/// Where the person asked the model to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// WebGPU on a real GPU, the CPU path otherwise.
    Auto,
    /// WebGPU on any adapter.
    Webgpu,
    /// The CPU path.
    Cpu,
}

impl Choice {
    /// `auto`, `webgpu` or `cpu`.
    pub fn parse(s: &str) -> Result<Choice, String> {
        match s {
            "auto" | "" => Ok(Choice::Auto),
            "webgpu" => Ok(Choice::Webgpu),
            "cpu" => Ok(Choice::Cpu),
            other => Err(format!("unknown backend {other} (auto, webgpu or cpu)")),
        }
    }
}

/// Reads a GGUF model and its tokenizer, or names what is wrong with the file; returns a line
/// that says what was loaded and what runs it.
pub async fn load_decoder(bytes: Vec<u8>, choice: Choice) -> Result<String, String> {
    DECODER.with(|d| d.borrow_mut().take());
    install(Loaded::from_gguf(bytes)?, choice).await
}

/// Reads a Hugging Face checkpoint (`model.safetensors`, `config.json`, `tokenizer.json`).
pub async fn load_decoder_hf(bytes: Vec<u8>, config: &str, tokenizer: &str, choice: Choice) -> Result<String, String> {
    DECODER.with(|d| d.borrow_mut().take());
    install(Loaded::from_checkpoint(bytes, config, tokenizer)?, choice).await
}

/// Puts `model` where `choice` says, and says what runs it.
async fn place(model: Decoder, choice: Choice) -> (Backend, String) {
    let cpu_line = "CPU path (wasm SIMD, in a worker)";
    if choice == Choice::Cpu {
        return (Backend::Cpu(CpuForward::new(model)), format!("{cpu_line}: chosen in the page"));
    }
    match skillpg_gpu::Gpu::new().await {
        Err(e) => (Backend::Cpu(CpuForward::new(model)), format!("{cpu_line}: this browser offers no WebGPU adapter ({e})")),
        Ok(g) if choice == Choice::Auto && g.adapter.device_type.eq_ignore_ascii_case("cpu") => (
            Backend::Cpu(CpuForward::new(model)),
            format!("WebGPU is software here ({} {}): {cpu_line}, which is faster on it", g.adapter.backend, g.adapter.device_type),
        ),
        Ok(g) => {
            let adapter = g.adapter.clone();
            match GpuDecoder::new(DecoderKernels::new(g), model).await {
                Ok(gpu) => {
                    let chosen = if choice == Choice::Webgpu { ": chosen in the page" } else { "" };
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

/// Keeps a loaded model on the backend `choice` picks, and says what it is and what runs it.
async fn install(Loaded { model, bpe, name, size }: Loaded, choice: Choice) -> Result<String, String> {
    let c = model.config;
    let what = format!(
        "{} ({:?} family, {} layers, width {}, {} heads / {} key-value heads, vocabulary {}, {:.1} MB)",
        name.unwrap_or_else(|| "a GGUF model".to_owned()),
        c.family,
        c.layers,
        c.dim,
        c.heads,
        c.kv_heads,
        c.vocab,
        size as f64 / 1e6
    );
    let (backend, how) = place(model, choice).await;
    let line = format!("{what}: {how}");
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { backend, bpe, what, line: line.clone(), router: None }));
    Ok(line)
}

/// One request on the engine's backend, the router made first when the skills changed.
async fn route_on(engine: &mut DecoderEngine, skills: &[(String, String)], request: &str, mode: &str) -> Result<serde_json::Value, String> {
    if engine.router.as_ref().is_none_or(|(s, _)| s != skills) {
        engine.router = None;
        let router = DecoderRouter::new(&mut engine.backend, &engine.bpe, skills, true).await?;
        engine.router = Some((skills.to_vec(), router));
    }
    let DecoderEngine { backend, bpe, router, .. } = engine;
    let Some((_, router)) = router.as_ref() else { return Err("no router".to_owned()) };
    let prefix_tokens = router.prefix_tokens();
    Ok(match mode {
        "chapter" => {
            let a = router.chapter(backend, bpe, request, DEFAULT_MAX_ANSWER_TOKENS).await?;
            serde_json::json!({"answer": a.verbatim, "choice": a.parsed.choice, "recognised": a.parsed.recognised, "distribution": null, "prefill_tokens": a.prefill_tokens, "generated_tokens": a.generated_tokens, "prefix_tokens": prefix_tokens})
        }
        "choice" => {
            let a = router.choice(backend, bpe, request).await?;
            serde_json::json!({"answer": null, "choice": a.choice, "recognised": true, "distribution": a.distribution, "log_probs": a.log_probs, "prefill_tokens": a.prefill_tokens, "generated_tokens": 0, "prefix_tokens": prefix_tokens})
        }
        other => return Err(format!("unknown mode {other} (chapter or choice)")),
    })
}

/// Moves the loaded model to the backend `choice` picks (its cache and router start afresh);
/// returns the new line.
pub async fn set_backend(choice: Choice) -> Result<String, String> {
    let engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let DecoderEngine { backend, bpe, what, .. } = engine;
    let model = backend.into_model();
    let (backend, how) = place(model, choice).await;
    let line = format!("{what}: {how}");
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { backend, bpe, what, line: line.clone(), router: None }));
    Ok(line)
}

/// Routes one request over `skills` (`chapter` or `choice`); answers JSON:
/// `{answer, choice, recognised, distribution, log_probs, prefill_tokens, generated_tokens,
/// prefix_tokens, backend}`, `choice` an index into the skills or null for NONE. A GPU failure moves the model
/// to the CPU path, which answers the request.
pub async fn route_one(skills: Vec<(String, String)>, request: &str, mode: &str) -> Result<String, String> {
    // Out of the cell while the GPU is awaited; the worker answers one message at a time.
    let mut engine = DECODER.with(|d| d.borrow_mut().take()).ok_or("no decoder is loaded")?;
    let mut out = route_on(&mut engine, &skills, request, mode).await;
    if let Err(failure) = &out
        && let Backend::Gpu(_) = &engine.backend
    {
        let failure = failure.clone();
        let DecoderEngine { backend, bpe, what, .. } = engine;
        let model = backend.into_model();
        let line = format!("{what}: CPU path (wasm SIMD, in a worker): the GPU failed ({failure}), so this and later requests run on the CPU");
        engine = DecoderEngine { backend: Backend::Cpu(CpuForward::new(model)), bpe, what, line, router: None };
        out = route_on(&mut engine, &skills, request, mode).await;
    }
    let line = engine.line.clone();
    DECODER.with(|d| *d.borrow_mut() = Some(engine));
    let mut out = out?;
    out["backend"] = serde_json::Value::String(line);
    Ok(out.to_string())
}

/// Loads a decoder from a GGUF's bytes (see `load_decoder`); `backend` is `auto`, `webgpu` or
/// `cpu`.
#[wasm_bindgen(js_name = decoderLoad)]
pub async fn decoder_load(bytes: Vec<u8>, backend: String) -> Result<String, JsError> {
    let choice = Choice::parse(&backend).map_err(|e| JsError::new(&e))?;
    load_decoder(bytes, choice).await.map_err(|e| JsError::new(&e))
}

/// Loads a decoder from a Hugging Face checkpoint (see `load_decoder_hf`).
#[wasm_bindgen(js_name = decoderLoadHf)]
pub async fn decoder_load_hf(bytes: Vec<u8>, config: String, tokenizer: String, backend: String) -> Result<String, JsError> {
    let choice = Choice::parse(&backend).map_err(|e| JsError::new(&e))?;
    load_decoder_hf(bytes, &config, &tokenizer, choice).await.map_err(|e| JsError::new(&e))
}

/// Moves the loaded decoder to another backend (see `set_backend`).
#[wasm_bindgen(js_name = decoderBackend)]
pub async fn decoder_backend(backend: String) -> Result<String, JsError> {
    let choice = Choice::parse(&backend).map_err(|e| JsError::new(&e))?;
    set_backend(choice).await.map_err(|e| JsError::new(&e))
}

/// Routes one request (see `route_one`); `skills` is a JSON list of `[name, description]`.
#[wasm_bindgen(js_name = decoderRoute)]
pub async fn decoder_route(skills: String, request: String, mode: String) -> Result<String, JsError> {
    let skills: Vec<(String, String)> = serde_json::from_str(&skills).map_err(|e| JsError::new(&format!("the skills are not a list of [name, description]: {e}")))?;
    route_one(skills, &request, &mode).await.map_err(|e| JsError::new(&e))
}
