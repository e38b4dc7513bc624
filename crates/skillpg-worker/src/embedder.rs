//! The embedding model in the worker: all-MiniLM-L6-v2 from the bytes the page downloaded, on
//! the backend [`BackendChoice::runs_on_gpu`] picks, and its embeddings cached by text.
//!
//! A GPU that fails mid-run is never hidden: from that text on the CPU path runs, and the
//! backend line says so.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use skillpg_router::cpu::Model;
use skillpg_router::fast::FastEmbedder;
use skillpg_router::weights::Weights;
use skillpg_router::wordpiece::WordPiece;
use skillpg_routing::backend::BackendChoice;

/// The loaded model and where it runs.
struct Engine {
    /// The fast CPU path (batched, SIMD in wasm); also what runs when the GPU is software.
    fast: FastEmbedder,
    /// The GPU path, only where the backend rule says, until it fails.
    gpu: Option<skillpg_gpu::GpuModel>,
    /// What ran, in words, for the page's backend line.
    backend: String,
    cache: HashMap<String, Vec<f32>>,
}

thread_local! {
    // GPU handles are not Send: the engine lives in the worker's one thread.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// The model, in words.
pub const MODEL: &str = "all-MiniLM-L6-v2";

/// The width of every embedding.
pub const DIM: usize = skillpg_router::weights::MINILM_L6.hidden;

/// The backend line for an adapter (or why there is none), and whether the GPU path runs on it
/// under `choice`; `cpu_kernel` names the CPU path's kernel ("int8" or "f32").
pub fn backend_line(adapter: Result<&skillpg_gpu::AdapterSummary, &str>, choice: BackendChoice, cpu_kernel: &str) -> (String, bool) {
    let cpu = format!("CPU path (wasm SIMD, {cpu_kernel} kernel, in a worker)");
    match adapter {
        Err(e) => (format!("{cpu}: this browser offers no WebGPU adapter ({e})"), false),
        Ok(_) if choice == BackendChoice::Cpu => (format!("{cpu}: chosen in the page"), false),
        Ok(a) if !choice.runs_on_gpu(Some(&a.device_type)) => {
            (format!("WebGPU is software here ({} {}): using the {cpu}, which is faster on it", a.backend, a.device_type), false)
        }
        Ok(a) => {
            let name = if a.name.is_empty() { String::new() } else { format!(", {}", a.name) };
            (format!("WebGPU via wgpu ({} {}{name}), in a worker", a.backend, a.device_type), true)
        }
    }
}

/// Loads the model from the bytes of a `.spgm` file and the WordPiece vocabulary, on the backend
/// `choice` picks; returns the backend line.
pub async fn load(model: Vec<u8>, vocab: &str, choice: BackendChoice) -> Result<String, String> {
    let weights = Weights::from_spgm(&model)?;
    drop(model);
    let model = Model::from_weights(&weights)?;
    drop(weights);
    let tokenizer = WordPiece::from_vocab_txt(vocab)?;
    let adapter = skillpg_gpu::Gpu::new().await;
    // The GPU's copy first: the CPU path then takes the model itself, not a copy.
    let (gpu, refused) = match &adapter {
        Ok(g) if choice.runs_on_gpu(Some(&g.adapter.device_type)) => match skillpg_gpu::GpuModel::new(g.clone(), &model, true).await {
            Ok(gpu) => (Some(gpu), None),
            Err(e) => (None, Some(e)),
        },
        _ => (None, None),
    };
    let fast = FastEmbedder::new(tokenizer, model);
    let kernel = if fast.runs_on_integers() { "int8" } else { "f32" };
    let (mut backend, _) = backend_line(adapter.as_ref().map(|g| &g.adapter).map_err(String::as_str), choice, kernel);
    if let Some(e) = refused {
        backend = format!("CPU path (wasm SIMD, {kernel} kernel, in a worker): {e}");
    }
    if let Some(g) = &gpu {
        backend.push_str(if g.f16 { ", weights in f16" } else { ", weights in f32" });
        if choice == BackendChoice::Webgpu {
            backend.push_str(": chosen in the page");
        }
    }
    ENGINE.with(|e| *e.borrow_mut() = Some(Engine { fast, gpu, backend: backend.clone(), cache: HashMap::new() }));
    Ok(backend)
}

/// The sentence embeddings of `texts`, flattened (`texts.len() × DIM` floats), from the cache
/// where known; the rest in one batch, on the GPU or the CPU path. Answers the backend line too.
pub async fn embed(texts: &[String]) -> Result<(Vec<f32>, String), String> {
    let mut engine = ENGINE.with(|e| e.borrow_mut().take()).ok_or("the routing model is not loaded")?;
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
                let kernel = if engine.fast.runs_on_integers() { "int8" } else { "f32" };
                engine.backend = format!("The GPU failed ({e}): the CPU path (wasm SIMD, {kernel} kernel, in a worker) ran this run, and runs from now on");
                engine.gpu = None;
            }
        }
    }
    if !on_cpu.is_empty() {
        let batch: Vec<Vec<u32>> = on_cpu.iter().map(|t| engine.fast.tokenizer.encode(t)).collect();
        let vectors = engine.fast.forward_batch(&batch);
        engine.cache.extend(on_cpu.iter().cloned().zip(vectors));
    }
    let mut out = Vec::with_capacity(texts.len() * DIM);
    let mut missing_after = 0;
    for t in texts {
        match engine.cache.get(t) {
            Some(v) => out.extend_from_slice(v),
            None => missing_after += 1,
        }
    }
    let backend = engine.backend.clone();
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    if missing_after > 0 {
        return Err(format!("{missing_after} of {} texts have no embedding", texts.len()));
    }
    Ok((out, backend))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(device_type: &str, name: &str) -> skillpg_gpu::AdapterSummary {
        skillpg_gpu::AdapterSummary { name: name.into(), backend: "BrowserWebGpu".into(), device_type: device_type.into(), shader_f16: false, timestamps: false }
    }

    #[test]
    fn a_software_adapter_runs_the_cpu_path_and_says_so() {
        let (line, gpu) = backend_line(Ok(&adapter("Cpu", "")), BackendChoice::Auto, "int8");
        assert!(!gpu);
        assert!(line.starts_with("WebGPU is software here") && line.contains("CPU path (wasm SIMD, int8 kernel, in a worker)"), "{line}");
        let (line, gpu) = backend_line(Ok(&adapter("Cpu", "")), BackendChoice::Webgpu, "int8");
        assert!(gpu && line.starts_with("WebGPU via wgpu (BrowserWebGpu Cpu), in a worker"), "{line}");
    }

    #[test]
    fn a_real_gpu_runs_webgpu_and_no_adapter_runs_the_cpu_path() {
        let (line, gpu) = backend_line(Ok(&adapter("DiscreteGpu", "NVIDIA")), BackendChoice::Auto, "int8");
        assert!(gpu && line.starts_with("WebGPU via wgpu") && line.contains("NVIDIA"), "{line}");
        let (line, gpu) = backend_line(Ok(&adapter("DiscreteGpu", "NVIDIA")), BackendChoice::Cpu, "int8");
        assert!(!gpu && line.contains("chosen in the page"), "{line}");
        let (line, gpu) = backend_line(Err("navigator.gpu is undefined"), BackendChoice::Webgpu, "f32");
        assert!(!gpu && line.contains("no WebGPU adapter") && line.contains("navigator.gpu is undefined"), "{line}");
    }
}
