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

/// What a measurement made after the first result needs: the model's bytes and vocabulary,
/// kept from a load that ran on the CPU path at once (the fast path packs the model's layers,
/// so the GPU's copy is made from the bytes again).
struct Deferred {
    model: Vec<u8>,
    vocab: String,
}

thread_local! {
    // GPU handles are not Send: the engine lives in the worker's one thread.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    static DEFERRED: RefCell<Option<Deferred>> = const { RefCell::new(None) };
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
/// ladder puts it; returns the backend line and a measurement to keep, when one was made. With
/// `measure_later`, left automatic and no measurement of this model kept, it runs on the CPU
/// path at once (no adapter asked for, nothing measured) and [`measure`] places it later.
pub async fn load(
    model: Vec<u8>,
    vocab: &str,
    choice: BackendChoice,
    kept: &[Measured],
    measure_later: bool,
) -> Result<(String, Option<Measured>), String> {
    let defer = measure_later
        && choice == BackendChoice::Auto
        && !kept.iter().any(|m| m.model == MODEL_KEY);
    let deferred = defer.then(|| Deferred {
        model: model.clone(),
        vocab: vocab.to_owned(),
    });
    let (mut backend, measured) = place(
        model,
        vocab,
        if defer { BackendChoice::Cpu } else { choice },
        kept,
    )
    .await?;
    if defer {
        backend.placement.why = skillpg_routing::backend::Why::MeasureLater;
    }
    let line = backend.line();
    DEFERRED.with(|d| *d.borrow_mut() = deferred);
    ENGINE.with(|e| {
        *e.borrow_mut() = Some(Engine {
            backend,
            cache: HashMap::new(),
        })
    });
    Ok((line, measured))
}

/// The model from its bytes, where the ladder puts it for `choice`.
async fn place(
    model: Vec<u8>,
    vocab: &str,
    choice: BackendChoice,
    kept: &[Measured],
) -> Result<(skillpg_runtime::embedder::EmbedderBackend, Option<Measured>), String> {
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
    Ok(skillpg_runtime::embedder::place(tokenizer, model, Kernel::Auto, ask, words()).await)
}

/// Measures both paths for a model loaded with `measure_later` (after its first result) and
/// runs on the faster from now on, its embeddings cache kept; returns the backend line and the
/// measurement to keep. Nothing left to measure: the line as it is, no measurement.
pub async fn measure(kept: &[Measured]) -> Result<(String, Option<Measured>), String> {
    let Some(deferred) = DEFERRED.with(|d| d.borrow_mut().take()) else {
        let line = ENGINE
            .with(|e| e.borrow().as_ref().map(|e| e.backend.line()))
            .ok_or("the routing model is not loaded")?;
        return Ok((line, None));
    };
    let (backend, measured) =
        place(deferred.model, &deferred.vocab, BackendChoice::Auto, kept).await?;
    let line = backend.line();
    ENGINE.with(|e| {
        if let Some(engine) = e.borrow_mut().as_mut() {
            // A run's embeddings all come from one path (the GPU's f16 weights round a little).
            if engine.backend.on_gpu() != backend.on_gpu() {
                engine.cache.clear();
            }
            engine.backend = backend;
        }
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
