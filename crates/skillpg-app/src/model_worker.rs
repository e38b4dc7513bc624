//! The page's side of the routing model's Web Worker (`web/worker.js` running the
//! `skillpg-worker` crate): spawns it, sends it the weights and texts, and turns its replies into
//! futures. The model never runs on the page's main thread, so typing, scrolling and the level
//! table stay responsive during a routing run.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::oneshot;
use js_sys::{Array, Float32Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

/// A reply: the backend line, and the embeddings for an `embed`.
#[derive(Debug)]
pub struct Reply {
    /// What ran, in words.
    pub backend: String,
    /// `texts × dim` floats, flattened (empty for `load`).
    pub vectors: Vec<f32>,
    /// A decoder's answer, JSON (empty otherwise).
    pub answer: String,
}

type Pending = Rc<RefCell<HashMap<u32, oneshot::Sender<Result<Reply, String>>>>>;

/// A running worker and the requests waiting for its answer.
#[derive(Debug)]
pub struct ModelWorker {
    worker: web_sys::Worker,
    pending: Pending,
    next_id: Cell<u32>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(obj: &Object, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

impl ModelWorker {
    /// Starts `worker.js` (a module worker beside the page), named for the devtools.
    pub fn spawn(name: &str) -> Result<ModelWorker, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        options.set_name(name);
        let worker = web_sys::Worker::new_with_options("./worker.js", &options).map_err(|e| format!("the routing worker could not start: {e:?}"))?;
        let pending: Pending = Rc::default();
        let on_message = {
            let pending = pending.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                let data = ev.data();
                let id = get(&data, "id").as_f64().unwrap_or(-1.0) as u32;
                let Some(tx) = pending.borrow_mut().remove(&id) else { return };
                let reply = match get(&data, "kind").as_string().as_deref() {
                    Some("error") => Err(get(&data, "message").as_string().unwrap_or_else(|| "the routing worker failed".into())),
                    Some(_) => Ok(Reply {
                        backend: get(&data, "backend").as_string().unwrap_or_default(),
                        vectors: get(&data, "vectors").dyn_into::<Float32Array>().map(|a| a.to_vec()).unwrap_or_default(),
                        answer: get(&data, "answer").as_string().unwrap_or_default(),
                    }),
                    None => Err("the routing worker sent an unreadable reply".into()),
                };
                let _ = tx.send(reply);
            })
        };
        // A script error (the module failed to load, or a throw outside a handler): every
        // waiting request fails with the message instead of waiting forever.
        let on_error = {
            let pending = pending.clone();
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
                let message = format!("the routing worker stopped: {}", ev.message());
                for (_, tx) in pending.borrow_mut().drain() {
                    let _ = tx.send(Err(message.clone()));
                }
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(ModelWorker { worker, pending, next_id: Cell::new(0), _on_message: on_message, _on_error: on_error })
    }

    async fn request(&self, msg: Object, transfer: &Array) -> Result<Reply, String> {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        set(&msg, "id", &JsValue::from(id));
        let (tx, rx) = oneshot::channel();
        self.pending.borrow_mut().insert(id, tx);
        if let Err(e) = self.worker.post_message_with_transfer(&msg, transfer) {
            self.pending.borrow_mut().remove(&id);
            return Err(format!("the routing worker could not be reached: {e:?}"));
        }
        rx.await.unwrap_or_else(|_| Err("the routing worker stopped".into()))
    }

    /// Sends the weights (moved, not copied, into the worker) and the vocabulary; answers the
    /// backend line. `force_webgpu` runs WebGPU even on a software adapter.
    pub async fn load(&self, model: &[u8], vocab: &str, force_webgpu: bool) -> Result<String, String> {
        let msg = Object::new();
        set(&msg, "kind", &"load".into());
        set(&msg, "forceWebgpu", &JsValue::from_bool(force_webgpu));
        let bytes = Uint8Array::from(model);
        let buffer = bytes.buffer();
        set(&msg, "model", &buffer);
        set(&msg, "vocab", &vocab.into());
        Ok(self.request(msg, &Array::of1(&buffer)).await?.backend)
    }

    /// The embeddings of `texts` (the worker caches them by text).
    pub async fn embed(&self, texts: &[String], dim: usize) -> Result<(Vec<Vec<f32>>, String), String> {
        let msg = Object::new();
        set(&msg, "kind", &"embed".into());
        let list: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
        set(&msg, "texts", &list);
        let reply = self.request(msg, &Array::new()).await?;
        if reply.vectors.len() != texts.len() * dim {
            return Err(format!("the routing worker sent {} floats for {} texts", reply.vectors.len(), texts.len()));
        }
        Ok((reply.vectors.chunks_exact(dim).map(<[f32]>::to_vec).collect(), reply.backend))
    }
}

impl ModelWorker {
    /// Sends a decoder (moved into the worker): a GGUF, or with `hf` a Hugging Face
    /// `model.safetensors` and its `config.json` and `tokenizer.json`; answers the line saying
    /// what loaded and what runs it. `backend` is `auto` (WebGPU on a real GPU, the CPU
    /// otherwise), `webgpu` or `cpu`.
    pub async fn decoder_load(&self, model: &[u8], hf: Option<(&str, &str)>, backend: &str) -> Result<String, String> {
        let msg = Object::new();
        set(&msg, "kind", &"decoder-load".into());
        set(&msg, "backend", &backend.into());
        if let Some((config, tokenizer)) = hf {
            set(&msg, "config", &config.into());
            set(&msg, "tokenizer", &tokenizer.into());
        }
        let bytes = Uint8Array::from(model);
        let buffer = bytes.buffer();
        set(&msg, "model", &buffer);
        Ok(self.request(msg, &Array::of1(&buffer)).await?.backend)
    }

    /// Moves the loaded decoder to `backend` (`auto`, `webgpu` or `cpu`); answers the new line.
    pub async fn decoder_backend(&self, backend: &str) -> Result<String, String> {
        let msg = Object::new();
        set(&msg, "kind", &"decoder-backend".into());
        set(&msg, "backend", &backend.into());
        Ok(self.request(msg, &Array::new()).await?.backend)
    }

    /// Routes one request with the loaded decoder; answers its JSON (see the worker's
    /// `decoder.rs`).
    pub async fn decoder_route(&self, skills_json: &str, request: &str, mode: &str) -> Result<String, String> {
        let msg = Object::new();
        set(&msg, "kind", &"decoder-route".into());
        set(&msg, "skills", &skills_json.into());
        set(&msg, "request", &request.into());
        set(&msg, "mode", &mode.into());
        Ok(self.request(msg, &Array::new()).await?.answer)
    }
}

impl Drop for ModelWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
