//! The embedding model in the worker: all-MiniLM-L6-v2 from the bytes the page downloaded, on
//! the path `skillpg_runtime`'s ladder picks (measured when automatic), and its embeddings
//! cached by text.
//!
//! A GPU that fails mid-run is never hidden: from that batch on the fast CPU path runs, and the
//! backend line says so.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use skillpg_embedder::cpu::Model;
use skillpg_embedder::fast::Kernel;
use skillpg_embedder::weights::Weights;
use skillpg_embedder::wordpiece::WordPiece;
use skillpg_routing::backend::{BackendChoice, Measured};
use skillpg_runtime::Ask;
use skillpg_runtime::embedder::{EmbedderBackend, Words};

/// The loaded model, where it runs, and the embeddings made so far.
struct Engine {
    backend: EmbedderBackend,
    cache: HashMap<String, Vec<f32>>,
}

thread_local! {
    // GPU handles are not Send: the engine lives in the worker's one thread.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// The model, in words.
pub const MODEL: &str = "all-MiniLM-L6-v2";

/// What a kept measurement is kept for: the model and its packed weights.
pub const MODEL_KEY: &str = "all-MiniLM-L6-v2 (int8 weights, wasm SIMD)";

/// The width of every embedding.
pub const DIM: usize = skillpg_embedder::weights::MINILM_L6.hidden;

/// How the page's worker names each path.
pub fn words() -> Words {
    Words {
        gpu: "WebGPU via wgpu ({adapter}), in a worker".to_owned(),
        cpu: "CPU path (wasm SIMD, {kernel} kernel, in a worker)".to_owned(),
    }
}

/// Loads the model from the bytes of a `.spgm` file and the WordPiece vocabulary, where the
/// ladder puts it; returns the backend line and a measurement to keep, when one was made.
pub async fn load(
    model: Vec<u8>,
    vocab: &str,
    choice: BackendChoice,
    kept: &[Measured],
) -> Result<(String, Option<Measured>), String> {
    let weights = Weights::from_spgm(&model)?;
    drop(model);
    let model = Model::from_weights(&weights)?;
    drop(weights);
    let tokenizer = WordPiece::from_vocab_txt(vocab)?;
    let clock = crate::now_ms;
    let ask = Ask {
        choice,
        kept,
        model_key: MODEL_KEY,
        chosen_by: "in the page",
        clock: &clock,
    };
    let (backend, measured) =
        skillpg_runtime::embedder::place(tokenizer, model, Kernel::Auto, ask, words()).await;
    let line = backend.line();
    ENGINE.with(|e| {
        *e.borrow_mut() = Some(Engine {
            backend,
            cache: HashMap::new(),
        })
    });
    Ok((line, measured))
}

/// The sentence embeddings of `texts`, flattened (`texts.len() × DIM` floats), from the cache
/// where known; the rest in one batch, where the model runs. Answers the backend line too.
pub async fn embed(texts: &[String]) -> Result<(Vec<f32>, String), String> {
    let mut engine = ENGINE
        .with(|e| e.borrow_mut().take())
        .ok_or("the routing model is not loaded")?;
    let missing: Vec<String> = {
        let mut seen = HashSet::new();
        texts
            .iter()
            .filter(|t| !engine.cache.contains_key(*t) && seen.insert(t.as_str()))
            .cloned()
            .collect()
    };
    if !missing.is_empty() {
        let batch: Vec<Vec<u32>> = missing
            .iter()
            .map(|t| engine.backend.fast.tokenizer.encode(t))
            .collect();
        let vectors = engine.backend.embed(&batch).await;
        engine.cache.extend(missing.iter().cloned().zip(vectors));
    }
    let mut out = Vec::with_capacity(texts.len() * DIM);
    let mut missing_after = 0;
    for t in texts {
        match engine.cache.get(t) {
            Some(v) => out.extend_from_slice(v),
            None => missing_after += 1,
        }
    }
    let backend = engine.backend.line();
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    if missing_after > 0 {
        return Err(format!(
            "{missing_after} of {} texts have no embedding",
            texts.len()
        ));
    }
    Ok((out, backend))
}
