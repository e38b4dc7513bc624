//! The page's side of a model's Web Worker (`web/worker.js` running the `skillpg-worker`
//! crate): spawns it, sends it typed messages (`skillpg_routing::protocol`) with their bytes
//! moved beside them, and turns its answers into futures. The model never runs on the page's
//! main thread, so typing, scrolling and the level table stay responsive during a run.
//!
//! The envelope is positional, `[id, JSON, ArrayBuffer or null]` each way (a failure of the
//! worker itself: `[id, null, null, message]`), so no protocol key is spelled here; an answer
//! that does not read as the answer expected is an error the page shows.

use skillpg_routing::sampling::Sampling;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::oneshot;
use js_sys::{Array, Uint8Array};
use skillpg_routing::backend::BackendChoice;
use skillpg_routing::outcome::Decision;
use skillpg_routing::protocol::{self, CheckpointFiles, DecoderMode, FromWorker, ToWorker};
use skillpg_routing::skills::RouteSkill;

use crate::browser;
use wasm_bindgen::prelude::*;

/// An answer: the worker's message and the bytes beside it.
type Answer = Result<(FromWorker, Option<Vec<u8>>), String>;
type Pending = Rc<RefCell<HashMap<u32, oneshot::Sender<Answer>>>>;

/// A running worker and the requests waiting for its answer.
#[derive(Debug)]
pub struct ModelWorker {
    worker: web_sys::Worker,
    pending: Pending,
    next_id: Cell<u32>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

/// Reads `[id, JSON or null, ArrayBuffer or null, failure?]`.
fn read_envelope(data: &JsValue) -> Option<(u32, Answer)> {
    let parts: &Array = data.dyn_ref()?;
    let id = parts.get(0).as_f64()? as u32;
    let answer = match parts.get(1).as_string() {
        Some(json) => protocol::decode::<FromWorker>(&json).map(|reply| {
            let bytes = parts
                .get(2)
                .dyn_into::<js_sys::ArrayBuffer>()
                .ok()
                .map(|b| Uint8Array::new(&b).to_vec());
            (reply, bytes)
        }),
        None => Err(format!(
            "the worker failed: {}",
            parts
                .get(3)
                .as_string()
                .unwrap_or_else(|| "no reason given".into())
        )),
    };
    Some((id, answer))
}

impl ModelWorker {
    /// Starts `worker.js` (a module worker beside the page), named for the devtools.
    pub fn spawn(name: &str) -> Result<ModelWorker, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        options.set_name(name);
        let worker = web_sys::Worker::new_with_options("./worker.js", &options)
            .map_err(|e| format!("the model's worker could not start: {e:?}"))?;
        let pending: Pending = Rc::default();
        let on_message = {
            let pending = pending.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                let Some((id, answer)) = read_envelope(&ev.data()) else {
                    // Not an envelope: nobody can be told which request it answers, so all are.
                    for (_, tx) in pending.borrow_mut().drain() {
                        let _ = tx.send(Err("the worker sent an unreadable answer".into()));
                    }
                    return;
                };
                if let Some(tx) = pending.borrow_mut().remove(&id) {
                    let _ = tx.send(answer);
                }
            })
        };
        // A script error (the module failed to load, or a throw outside a handler): every
        // waiting request fails with the message instead of waiting forever.
        let on_error = {
            let pending = pending.clone();
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
                let message = format!("the model's worker stopped: {}", ev.message());
                for (_, tx) in pending.borrow_mut().drain() {
                    let _ = tx.send(Err(message.clone()));
                }
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(ModelWorker {
            worker,
            pending,
            next_id: Cell::new(0),
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends `message` with `bytes` moved beside it; answers the worker's answer, or its
    /// failure as an error.
    async fn call(
        &self,
        message: &ToWorker,
        bytes: Option<&[u8]>,
    ) -> Result<(FromWorker, Option<Vec<u8>>), String> {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        let buffer = bytes.map(|b| Uint8Array::from(b).buffer());
        let envelope = Array::of3(
            &JsValue::from(id),
            &JsValue::from_str(&protocol::encode(message)),
            buffer.as_ref().map_or(&JsValue::NULL, |b| b.as_ref()),
        );
        let transfer = buffer.map_or_else(Array::new, |b| Array::of1(&b));
        let (tx, rx) = oneshot::channel();
        self.pending.borrow_mut().insert(id, tx);
        if let Err(e) = self.worker.post_message_with_transfer(&envelope, &transfer) {
            self.pending.borrow_mut().remove(&id);
            return Err(format!("the model's worker could not be reached: {e:?}"));
        }
        match rx
            .await
            .unwrap_or_else(|_| Err("the model's worker stopped".into()))?
        {
            (FromWorker::Failed { message }, _) => Err(message),
            answer => Ok(answer),
        }
    }

    /// Sends a message that a model is loaded or moved by; answers what the model is and the
    /// line saying that and what runs it.
    /// A measurement of both paths made for the model is kept in the page's storage, so the
    /// next load on this adapter decides at once.
    async fn ready(
        &self,
        message: &ToWorker,
        bytes: Option<&[u8]>,
    ) -> Result<(String, String), String> {
        match self.call(message, bytes).await? {
            (
                FromWorker::Ready {
                    model,
                    backend,
                    measured,
                },
                _,
            ) => {
                if let Some(m) = measured {
                    browser::keep_measurement(m);
                }
                Ok((model, backend))
            }
            (other, _) => Err(format!(
                "the worker answered {} where the page awaited a loaded model",
                kind(&other)
            )),
        }
    }

    /// Sends the embedding model's weights (moved, not copied, into the worker) and vocabulary;
    /// answers the backend line.
    pub async fn load_embedder(
        &self,
        model: &[u8],
        vocab: &str,
        backend: BackendChoice,
    ) -> Result<String, String> {
        Ok(self
            .ready(
                &ToWorker::LoadEmbedder {
                    vocab: vocab.to_owned(),
                    backend,
                    kept: browser::kept_measurements(),
                    // The first result never waits for the GPU to be found and measured.
                    measure_later: true,
                },
                Some(model),
            )
            .await?
            .1)
    }

    /// Measures both paths for an embedding model that ran on the CPU path at once (loaded with
    /// `measure_later`), the faster running from then on; answers the backend line. The
    /// measurement is kept, so later loads decide at once.
    pub async fn measure_embedder(&self) -> Result<String, String> {
        Ok(self
            .ready(
                &ToWorker::MeasureEmbedder {
                    kept: browser::kept_measurements(),
                },
                None,
            )
            .await?
            .1)
    }

    /// The embeddings of `texts` (the worker caches them by text), and the backend line.
    pub async fn embed(&self, texts: &[String]) -> Result<(Vec<Vec<f32>>, String), String> {
        match self
            .call(
                &ToWorker::Embed {
                    texts: texts.to_vec(),
                },
                None,
            )
            .await?
        {
            (
                FromWorker::Embedded {
                    count,
                    dim,
                    backend,
                },
                bytes,
            ) if count == texts.len() => Ok((
                protocol::bytes_to_vectors(&bytes.unwrap_or_default(), count, dim)?,
                backend,
            )),
            (other, _) => Err(format!(
                "the worker answered {} where the page awaited {} embeddings",
                kind(&other),
                texts.len()
            )),
        }
    }

    /// Sends a decoder (moved into the worker): a GGUF, or a checkpoint's `model.safetensors`
    /// with its files; answers what loaded, and the line saying that and what runs it.
    pub async fn load_decoder(
        &self,
        file_name: &str,
        model: &[u8],
        checkpoint: Option<CheckpointFiles>,
        backend: BackendChoice,
    ) -> Result<(String, String), String> {
        self.ready(
            &ToWorker::LoadDecoder {
                file_name: file_name.to_owned(),
                checkpoint,
                backend,
                kept: browser::kept_measurements(),
            },
            Some(model),
        )
        .await
    }

    /// Moves the loaded decoder to `backend`; answers what it is and the new line.
    pub async fn move_decoder(&self, backend: BackendChoice) -> Result<(String, String), String> {
        self.ready(
            &ToWorker::MoveDecoder {
                backend,
                kept: browser::kept_measurements(),
            },
            None,
        )
        .await
    }

    /// Routes one request with the loaded decoder: its decision, the system turn's tokens, and
    /// what runs the model now.
    pub async fn route_one(
        &self,
        skills: &[RouteSkill],
        request: &str,
        mode: DecoderMode,
        sampling: Option<Sampling>,
    ) -> Result<(Decision, u64, String), String> {
        match self
            .call(
                &ToWorker::RouteOne {
                    skills: skills.to_vec(),
                    request: request.to_owned(),
                    mode,
                    sampling,
                },
                None,
            )
            .await?
        {
            (
                FromWorker::Routed {
                    decision,
                    prefix_tokens,
                    backend,
                },
                _,
            ) => Ok((decision, prefix_tokens, backend)),
            (other, _) => Err(format!(
                "the worker answered {} where the page awaited a decision",
                kind(&other)
            )),
        }
    }
}

/// An answer's kind, for a message about the wrong one.
fn kind(answer: &FromWorker) -> &'static str {
    match answer {
        FromWorker::Ready { .. } => "a loaded model",
        FromWorker::Embedded { .. } => "embeddings",
        FromWorker::Routed { .. } => "a decision",
        FromWorker::Failed { .. } => "a failure",
    }
}

impl Drop for ModelWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
