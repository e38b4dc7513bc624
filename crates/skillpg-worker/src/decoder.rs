//! The decoder router in the worker: a GGUF or a Hugging Face checkpoint the user brought
//! (Llama or Qwen2 family), its
//! tokenizer, and the router of the skills last asked about (its system turn prefilled once and
//! reused for every request of a run). One request a call, so that the page shows progress and
//! can stop between requests.

use std::cell::RefCell;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::Decoder;
use skillpg_decoder::protocol::{DEFAULT_MAX_ANSWER_TOKENS, DecoderRouter};
use wasm_bindgen::prelude::*;

struct DecoderEngine {
    model: Decoder,
    bpe: Bpe,
    /// The skills the router was made for, and the router.
    router: Option<(Vec<(String, String)>, DecoderRouter)>,
}

thread_local! {
    static DECODER: RefCell<Option<DecoderEngine>> = const { RefCell::new(None) };
}

/// Reads a GGUF model and its tokenizer, or names what is wrong with the file; returns a line
/// that says what was loaded.
pub fn load_decoder(bytes: Vec<u8>) -> Result<String, String> {
    DECODER.with(|d| d.borrow_mut().take());
    Ok(install(Loaded::from_gguf(bytes)?))
}

/// Reads a Hugging Face checkpoint (`model.safetensors`, `config.json`, `tokenizer.json`).
pub fn load_decoder_hf(bytes: Vec<u8>, config: &str, tokenizer: &str) -> Result<String, String> {
    DECODER.with(|d| d.borrow_mut().take());
    Ok(install(Loaded::from_checkpoint(bytes, config, tokenizer)?))
}

/// Keeps a loaded model, and says what it is.
fn install(Loaded { model, bpe, name, size }: Loaded) -> String {
    let c = model.config;
    let line = format!(
        "{} ({:?} family, {} layers, width {}, {} heads / {} key-value heads, vocabulary {}, {:.1} MB): CPU path (wasm SIMD, in a worker)",
        name.unwrap_or_else(|| "a GGUF model".to_owned()),
        c.family,
        c.layers,
        c.dim,
        c.heads,
        c.kv_heads,
        c.vocab,
        size as f64 / 1e6
    );
    DECODER.with(|d| *d.borrow_mut() = Some(DecoderEngine { model, bpe, router: None }));
    line
}

/// Routes one request over `skills` (`chapter` or `choice`); answers JSON:
/// `{answer, choice, recognised, distribution, prefill_tokens, generated_tokens, prefix_tokens}`,
/// `choice` an index into the skills or null for NONE.
pub fn route_one(skills: Vec<(String, String)>, request: &str, mode: &str) -> Result<String, String> {
    DECODER.with(|d| {
        let mut guard = d.borrow_mut();
        let engine = guard.as_mut().ok_or("no decoder is loaded")?;
        if engine.router.as_ref().is_none_or(|(s, _)| *s != skills) {
            let router = DecoderRouter::new(&engine.model, &engine.bpe, &skills, true)?;
            engine.router = Some((skills, router));
        }
        let DecoderEngine { model, bpe, router } = engine;
        let Some((_, router)) = router.as_mut() else { return Err("no router".to_owned()) };
        let prefix_tokens = router.prefix_tokens();
        let out = match mode {
            "chapter" => {
                let a = router.chapter(model, bpe, request, DEFAULT_MAX_ANSWER_TOKENS);
                serde_json::json!({"answer": a.verbatim, "choice": a.parsed.choice, "recognised": a.parsed.recognised, "distribution": null, "prefill_tokens": a.prefill_tokens, "generated_tokens": a.generated_tokens, "prefix_tokens": prefix_tokens})
            }
            "choice" => {
                let a = router.choice(model, bpe, request);
                serde_json::json!({"answer": null, "choice": a.choice, "recognised": true, "distribution": a.distribution, "prefill_tokens": a.prefill_tokens, "generated_tokens": 0, "prefix_tokens": prefix_tokens})
            }
            other => return Err(format!("unknown mode {other} (chapter or choice)")),
        };
        Ok(out.to_string())
    })
}

/// Loads a decoder from a GGUF's bytes (see `load_decoder`).
#[wasm_bindgen(js_name = decoderLoad)]
pub fn decoder_load(bytes: Vec<u8>) -> Result<String, JsError> {
    load_decoder(bytes).map_err(|e| JsError::new(&e))
}

/// Loads a decoder from a Hugging Face checkpoint (see `load_decoder_hf`).
#[wasm_bindgen(js_name = decoderLoadHf)]
pub fn decoder_load_hf(bytes: Vec<u8>, config: String, tokenizer: String) -> Result<String, JsError> {
    load_decoder_hf(bytes, &config, &tokenizer).map_err(|e| JsError::new(&e))
}

/// Routes one request (see `route_one`); `skills` is a JSON list of `[name, description]`.
#[wasm_bindgen(js_name = decoderRoute)]
pub fn decoder_route(skills: String, request: String, mode: String) -> Result<String, JsError> {
    let skills: Vec<(String, String)> = serde_json::from_str(&skills).map_err(|e| JsError::new(&format!("the skills are not a list of [name, description]: {e}")))?;
    route_one(skills, &request, &mode).map_err(|e| JsError::new(&e))
}
