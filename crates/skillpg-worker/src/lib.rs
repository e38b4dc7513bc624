//! The routing models' worker: the second edge of the page, run in a dedicated Web Worker
//! (`web/worker.js` loads it) so that loading, packing and running the model never block the
//! page's main thread, and so that the page's first module carries none of the model's code.
//!
//! It owns the model and the choice of backend, and nothing else: the page downloads the
//! weights (with its progress bar) and transfers them here; texts come in, embeddings go out.
//!
//! The backend rule: a WebGPU adapter whose device type is CPU (SwiftShader, lavapipe) runs the
//! WGSL kernels slower than the wasm SIMD path, so the worker uses the CPU path there and says
//! so. A GPU that fails mid-run is never hidden: from that text on the CPU path runs, and the
//! backend line says so.
//!
//! `decoder.rs` holds the second router, a decoder the user brought (the chapter's protocol);
//! the page runs it in a worker of its own, so the two never wait on each other.

mod decoder;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use skillpg_router::cpu::Model;
use skillpg_router::fast::FastEmbedder;
use skillpg_router::weights::Weights;
use skillpg_router::wordpiece::WordPiece;
use wasm_bindgen::prelude::*;

/// The loaded model and where it runs.
struct Engine {
    /// The fast CPU path (batched, SIMD in wasm); also what runs when the GPU is software.
    fast: FastEmbedder,
    /// The GPU path, only on an adapter that is not a CPU, until it fails.
    gpu: Option<skillpg_gpu::GpuModel>,
    /// What ran, in words, for the page's backend line.
    backend: String,
    cache: HashMap<String, Vec<f32>>,
}

thread_local! {
    // GPU handles are not Send: the engine lives in the worker's one thread.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// Sets the panic hook (a panic reaches the console with its message).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The backend line for an adapter, and whether the GPU path should run on it; `cpu_kernel`
/// names the CPU path's kernel ("int8" or "f32").
pub fn backend_choice(adapter: Result<&skillpg_gpu::AdapterSummary, &str>, cpu_kernel: &str) -> (String, bool) {
    match adapter {
        Ok(a) if a.device_type.eq_ignore_ascii_case("cpu") => (
            format!("WebGPU is software here ({} {}): using the CPU path (wasm SIMD, {cpu_kernel} kernel, in a worker), which is faster on it", a.backend, a.device_type),
            false,
        ),
        Ok(a) => {
            (format!("WebGPU via wgpu ({} {}{}), in a worker", a.backend, a.device_type, if a.name.is_empty() { String::new() } else { format!(", {}", a.name) }), true)
        }
        Err(e) => (format!("CPU path (wasm SIMD, {cpu_kernel} kernel, in a worker): this browser offers no WebGPU adapter ({e})"), false),
    }
}

/// Loads the model from the bytes of a `.spgm` file and the WordPiece vocabulary, picks the
/// backend (WebGPU on any adapter when `force_webgpu`: the browser tests' way to run the WGSL
/// kernels on SwiftShader), and returns the backend line.
#[wasm_bindgen]
pub async fn load(model: Vec<u8>, vocab: String, force_webgpu: bool) -> Result<String, JsError> {
    let weights = Weights::from_spgm(&model).map_err(|e| JsError::new(&e))?;
    drop(model);
    let model = Model::from_weights(&weights).map_err(|e| JsError::new(&e))?;
    drop(weights);
    let tokenizer = WordPiece::from_vocab_txt(&vocab).map_err(|e| JsError::new(&e))?;
    let adapter = skillpg_gpu::Gpu::new().await;
    let use_gpu = matches!(&adapter, Ok(g) if force_webgpu || !g.adapter.device_type.eq_ignore_ascii_case("cpu"));
    let gpu = match adapter.as_ref() {
        Ok(g) if use_gpu => Some(skillpg_gpu::GpuModel::new(g.clone(), &model, true)),
        _ => None,
    };
    let fast = FastEmbedder::new(tokenizer, model);
    let kernel = if fast.runs_on_integers() { "int8" } else { "f32" };
    let (mut backend, _) = backend_choice(adapter.as_ref().map(|g| &g.adapter).map_err(String::as_str), kernel);
    if let (Ok(a), true, Some(g)) = (&adapter, force_webgpu, &gpu) {
        backend = format!(
            "WebGPU via wgpu ({} {}), in a worker, weights in {}: forced by the skillpg-routing-backend setting",
            a.adapter.backend,
            a.adapter.device_type,
            if g.f16 { "f16" } else { "f32" }
        );
    }
    let engine = Engine { fast, gpu, backend: backend.clone(), cache: HashMap::new() };
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    Ok(backend)
}

/// What ran the last texts, in words.
#[wasm_bindgen]
pub fn backend() -> String {
    ENGINE.with(|e| e.borrow().as_ref().map(|e| e.backend.clone()).unwrap_or_default())
}

/// The sentence embeddings of `texts`, flattened (`texts.len() × 384` floats), from the cache
/// where known; the rest in one batch, on the GPU or the CPU path.
#[wasm_bindgen]
pub async fn embed(texts: Vec<String>) -> Result<Vec<f32>, JsError> {
    let Some(mut engine) = ENGINE.with(|e| e.borrow_mut().take()) else {
        return Err(JsError::new("the routing model is not loaded"));
    };
    let missing: Vec<String> = {
        let mut seen = HashSet::new();
        texts.iter().filter(|t| !engine.cache.contains_key(*t) && seen.insert(t.as_str())).cloned().collect()
    };
    // On the GPU all missing texts go in one packed batch; if it fails, the CPU path runs them
    // and every later run, and the backend line says so.
    let mut on_cpu: &[String] = &missing;
    if let (Some(g), false) = (&engine.gpu, missing.is_empty()) {
        let batch: Vec<Vec<u32>> = missing.iter().map(|t| engine.fast.tokenizer.encode(t)).collect();
        match g.forward_batch(&batch).await {
            Ok(vectors) => {
                engine.cache.extend(missing.iter().cloned().zip(vectors));
                on_cpu = &[];
            }
            Err(e) => {
                engine.backend = format!(
                    "The GPU failed ({e}): the CPU path (wasm SIMD, {} kernel, in a worker) ran this run, and runs from now on",
                    if engine.fast.runs_on_integers() { "int8" } else { "f32" }
                );
                engine.gpu = None;
            }
        }
    }
    if !on_cpu.is_empty() {
        let batch: Vec<Vec<u32>> = on_cpu.iter().map(|t| engine.fast.tokenizer.encode(t)).collect();
        let vectors = engine.fast.forward_batch(&batch);
        engine.cache.extend(on_cpu.iter().cloned().zip(vectors));
    }
    let dim = skillpg_router::weights::MINILM_L6.hidden;
    let mut out = Vec::with_capacity(texts.len() * dim);
    for t in &texts {
        match engine.cache.get(t) {
            Some(v) => out.extend_from_slice(v),
            None => out.extend(std::iter::repeat_n(0.0, dim)),
        }
    }
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(device_type: &str, name: &str) -> skillpg_gpu::AdapterSummary {
        skillpg_gpu::AdapterSummary { name: name.into(), backend: "BrowserWebGpu".into(), device_type: device_type.into(), shader_f16: false }
    }

    #[test]
    fn a_software_adapter_runs_the_cpu_path_and_says_so() {
        let (line, gpu) = backend_choice(Ok(&adapter("Cpu", "")), "int8");
        assert!(!gpu);
        assert!(line.starts_with("WebGPU is software here") && line.contains("CPU path (wasm SIMD, int8 kernel, in a worker)"), "{line}");
    }

    #[test]
    fn a_real_gpu_runs_webgpu_and_no_adapter_runs_the_cpu_path() {
        let (line, gpu) = backend_choice(Ok(&adapter("DiscreteGpu", "NVIDIA")), "int8");
        assert!(gpu && line.starts_with("WebGPU via wgpu") && line.contains("NVIDIA"), "{line}");
        let (line, gpu) = backend_choice(Err("navigator.gpu is undefined"), "f32");
        assert!(!gpu && line.contains("no WebGPU adapter") && line.contains("navigator.gpu is undefined"), "{line}");
    }
}
