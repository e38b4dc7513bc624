//! The routing models' worker: the second edge of the page, run in a dedicated Web Worker
//! (`web/worker.js` loads it) so that loading, packing and running a model never block the
//! page's main thread, and so that the page's first module carries none of the model's code.
//!
//! It owns the models and the choice of backend, and nothing else: the page downloads the
//! weights (with its progress bar) and moves them here. Every message is a typed
//! [`ToWorker`] and every answer a [`FromWorker`] (`skillpg_routing::protocol`), read and
//! written here, in Rust; the JavaScript only moves their text and bytes.
//!
//! - `embedder.rs`: the embedding model (texts in, embeddings out);
//! - `decoder.rs`: a decoder the person brought (the chapter's protocol); the page runs it in a
//!   worker of its own, so the two never wait on each other.
//!
//! Where each runs is `skillpg_runtime`'s ladder: the person's choice, else the faster of the two
//! paths as measured on the first load (kept by the page per adapter and model).

mod decoder;
mod embedder;

use skillpg_routing::protocol::{self, FromWorker, ToWorker};
use wasm_bindgen::prelude::*;

/// Sets the panic hook (a panic reaches the console with its message).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The one entry point: a message's JSON and the bytes moved beside it in; `[answer JSON,
/// bytes or null]` out.
#[wasm_bindgen]
pub async fn handle(message: String, bytes: Option<Vec<u8>>) -> js_sys::Array {
    let (reply, out) = answer(&message, bytes).await;
    let out = out.map_or(JsValue::NULL, |b| js_sys::Uint8Array::from(&b[..]).into());
    js_sys::Array::of2(&JsValue::from_str(&protocol::encode(&reply)), &out)
}

/// Milliseconds from the worker's clock (`performance.now()`; natively, since the first call),
/// for the placement ladder's measurement.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        let performance =
            js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance")).ok();
        let now = performance
            .as_ref()
            .and_then(|p| js_sys::Reflect::get(p, &JsValue::from_str("now")).ok());
        match (
            performance,
            now.and_then(|f| f.dyn_into::<js_sys::Function>().ok()),
        ) {
            (Some(p), Some(f)) => f
                .call0(&p)
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or_else(js_sys::Date::now),
            _ => js_sys::Date::now(),
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
            * 1e3
    }
}

/// The bytes a message needs beside it, or why they are missing.
fn needed(bytes: Option<Vec<u8>>, what: &str) -> Result<Vec<u8>, String> {
    bytes
        .filter(|b| !b.is_empty())
        .ok_or_else(|| format!("the page sent no bytes for {what}"))
}

/// Answers one message; a message that cannot be read, or a request that fails, answers
/// [`FromWorker::Failed`] with the reason.
pub async fn answer(message: &str, bytes: Option<Vec<u8>>) -> (FromWorker, Option<Vec<u8>>) {
    let answered = async {
        match protocol::decode::<ToWorker>(message)? {
            ToWorker::LoadEmbedder {
                vocab,
                backend,
                kept,
                measure_later,
            } => {
                let (line, measured) = embedder::load(
                    needed(bytes, "the model's weights")?,
                    &vocab,
                    backend,
                    &kept,
                    measure_later,
                )
                .await?;
                Ok((
                    FromWorker::Ready {
                        model: embedder::MODEL.to_owned(),
                        backend: line,
                        measured,
                    },
                    None,
                ))
            }
            ToWorker::MeasureEmbedder { kept } => {
                let (line, measured) = embedder::measure(&kept).await?;
                Ok((
                    FromWorker::Ready {
                        model: embedder::MODEL.to_owned(),
                        backend: line,
                        measured,
                    },
                    None,
                ))
            }
            ToWorker::Embed { texts } => {
                let (vectors, backend) = embedder::embed(&texts).await?;
                Ok((
                    FromWorker::Embedded {
                        count: texts.len(),
                        dim: embedder::DIM,
                        backend,
                    },
                    Some(protocol::f32s_to_bytes(&vectors)),
                ))
            }
            ToWorker::LoadDecoder {
                file_name,
                checkpoint,
                backend,
                kept,
            } => {
                let (model, line, measured) = decoder::load(
                    needed(bytes, "the model")?,
                    &file_name,
                    checkpoint,
                    backend,
                    &kept,
                )
                .await?;
                Ok((
                    FromWorker::Ready {
                        model,
                        backend: line,
                        measured,
                    },
                    None,
                ))
            }
            ToWorker::MoveDecoder { backend, kept } => {
                let (model, line, measured) = decoder::set_backend(backend, &kept).await?;
                Ok((
                    FromWorker::Ready {
                        model,
                        backend: line,
                        measured,
                    },
                    None,
                ))
            }
            ToWorker::RouteOne {
                skills,
                request,
                mode,
                sampling,
            } => {
                let (decision, prefix_tokens, backend) =
                    decoder::route_one(&skills, &request, mode, sampling).await?;
                Ok((
                    FromWorker::Routed {
                        decision,
                        prefix_tokens,
                        backend,
                    },
                    None,
                ))
            }
        }
    };
    answered
        .await
        .unwrap_or_else(|message: String| (FromWorker::Failed { message }, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now<T>(f: impl std::future::Future<Output = T>) -> T {
        skillpg_decoder::forward::now(f).expect("the answer needs no GPU")
    }

    #[test]
    fn a_message_it_cannot_read_or_serve_is_answered_with_the_reason() {
        let (reply, bytes) = now(answer(r#"{"embed":{"text":["a"]}}"#, None));
        assert!(
            matches!(&reply, FromWorker::Failed { message } if message.contains("unreadable") && message.contains("text")),
            "{reply:?}"
        );
        assert!(bytes.is_none());
        let (reply, _) = now(answer(r#"{"embed":{"texts":["a"]}}"#, None));
        assert_eq!(
            reply,
            FromWorker::Failed {
                message: "the routing model is not loaded".into()
            }
        );
        let (reply, _) = now(answer(
            r#"{"load-embedder":{"vocab":"","backend":"cpu"}}"#,
            None,
        ));
        assert_eq!(
            reply,
            FromWorker::Failed {
                message: "the page sent no bytes for the model's weights".into()
            }
        );
        let (reply, _) = now(answer(r#"{"move-decoder":{"backend":"cpu"}}"#, None));
        assert_eq!(
            reply,
            FromWorker::Failed {
                message: "no decoder is loaded".into()
            }
        );
        let garbage =
            r#"{"load-decoder":{"file_name":"x.gguf","checkpoint":null,"backend":"cpu"}}"#;
        let (reply, _) = now(answer(garbage, Some(b"not a model".to_vec())));
        assert!(
            matches!(&reply, FromWorker::Failed { message } if message.contains("GGUF")),
            "{reply:?}"
        );
    }
}
