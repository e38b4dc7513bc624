//! The page's model service: the routing model's worker, loaded once whichever view asks first
//! (the routing preview, the description lab), and what every view shows of it while it loads
//! and after; and the decoder's worker with what it holds (the chapter's experiment loads it,
//! the lab runs on it). Views ask it for a handle; none holds a worker of its own.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use skillpg_routing::backend::BackendChoice;

use crate::browser::{self, Kept};
use crate::load_once::LoadOnce;
use crate::model_worker::ModelWorker;
use crate::routing_run::{MODEL_CACHE, WEIGHTS};

/// What the views show of the routing model while it loads and after: what ran, the
/// download's progress, and why the model will be downloaded again. One for the page, so every
/// view that uses the model shows the same load.
#[derive(Clone, Copy, Debug)]
pub struct ModelUi {
    /// What ran, in the worker's words.
    pub backend: RwSignal<String>,
    pub loading: RwSignal<bool>,
    /// Bytes of the model downloaded so far, and in all when the server says.
    pub download: RwSignal<Option<(u64, Option<u64>)>>,
    /// Why the model will be downloaded again next visit, when the browser would not keep it.
    pub not_kept: RwSignal<Option<String>>,
}

/// The models the page loads, each once. `Copy`: it travels in [`super::Ctx`], so tasks outside
/// the component tree reach it too.
#[derive(Clone, Copy, Debug)]
pub struct Models {
    /// The routing model's worker (a JS handle: not `Send`, so kept in local storage).
    embedder: StoredValue<Rc<LoadOnce<Rc<ModelWorker>>>, LocalStorage>,
    /// The decoder's worker, once started, and what it holds.
    decoder: StoredValue<Rc<RefCell<DecoderSlot>>, LocalStorage>,
    /// What the views show of the routing model.
    pub ui: ModelUi,
}

impl Default for Models {
    fn default() -> Models {
        Models {
            embedder: StoredValue::new_local(Rc::new(LoadOnce::default())),
            decoder: StoredValue::new_local(Rc::default()),
            ui: ModelUi {
                backend: RwSignal::new(String::new()),
                loading: RwSignal::new(false),
                download: RwSignal::new(None),
                not_kept: RwSignal::new(None),
            },
        }
    }
}

/// The decoder's worker (the person brings the model, so it loads on their action, not once for
/// every view), and the model it holds (an export's `model`).
#[derive(Debug, Default)]
struct DecoderSlot {
    worker: Option<Rc<ModelWorker>>,
    loaded: Option<String>,
}

impl Models {
    /// The decoder's worker, started on first use.
    pub fn decoder_worker(self) -> Result<Rc<ModelWorker>, String> {
        let slot = self.decoder.get_value();
        if let Some(w) = slot.borrow().worker.clone() {
            return Ok(w);
        }
        let w = Rc::new(ModelWorker::spawn("skillpg-decoder")?);
        slot.borrow_mut().worker = Some(w.clone());
        Ok(w)
    }

    /// Records what the decoder's worker holds: a model's name once loaded, `None` after a load
    /// failed (the worker then holds nothing usable).
    pub fn decoder_loaded(self, model: Option<String>) {
        self.decoder.get_value().borrow_mut().loaded = model;
    }

    /// The decoder's worker and the model it holds, when one is loaded.
    pub fn loaded_decoder(self) -> Option<(Rc<ModelWorker>, String)> {
        let slot = self.decoder.get_value();
        let slot = slot.borrow();
        Some((slot.worker.clone()?, slot.loaded.clone()?))
    }

    /// After a result: when the routing model ran on the CPU path at once (no measurement kept),
    /// both paths are measured now, in the worker, and the faster runs from then on (kept for
    /// later loads); the backend line says which. Nothing happens once measured.
    pub fn measure_after_result(self, worker: Rc<ModelWorker>) {
        leptos::task::spawn_local(async move {
            if let Ok(line) = worker.measure_embedder().await {
                self.ui.backend.set(line);
            }
        });
    }

    /// Forgets the routing model's worker (after it failed): the next run starts a fresh one.
    pub fn drop_embedder(self) {
        self.embedder.with_value(|once| once.forget());
        self.ui.backend.set(String::new());
    }

    /// The routing model's worker, loaded first when it is not (one load however many views ask
    /// at once), or `None` with the reason in the status line.
    pub async fn embedder(self, status: RwSignal<String>) -> Option<Rc<ModelWorker>> {
        let once = self.embedder.get_value();
        match once.get_or_load(|| self.load_embedder(status)).await {
            Ok(worker) => Some(worker),
            Err(e) => {
                status.set(format!("The routing model could not be loaded: {e}. Build the page after `bash scripts/fetch-model` to serve it."));
                None
            }
        }
    }

    /// Starts the worker, downloads the model (with its progress) and loads it there.
    async fn load_embedder(self, status: RwSignal<String>) -> Result<Rc<ModelWorker>, String> {
        let ui = self.ui;
        ui.loading.set(true);
        status.set(
            "Loading the routing model (all-MiniLM-L6-v2, int8 weights, 24 MB, from this site)…"
                .to_owned(),
        );
        let res: Result<ModelWorker, String> = async {
            let worker = ModelWorker::spawn("skillpg-routing-model")?;
            let (vocab, vocab_kept) = browser::fetch_kept(MODEL_CACHE, "model/vocab.txt", 16 * 1024 * 1024, |_, _| {}).await?;
            let vocab = String::from_utf8_lossy(&vocab).into_owned();
            let (bytes, kept) =
                browser::fetch_kept(MODEL_CACHE, &format!("model/minilm-{WEIGHTS}.spgm"), 64 * 1024 * 1024, |loaded, total| ui.download.set(Some((loaded, total))))
                    .await?;
            let refused = [vocab_kept, kept].contains(&Kept::Refused);
            ui.not_kept
                .set(refused.then(|| "The browser refused to keep the model (its storage is full or off for this site): the next visit downloads it again.".to_owned()));
            ui.download.set(None);
            status.set("Preparing the routing model in a worker…".to_owned());
            ui.backend.set(worker.load_embedder(&bytes, &vocab, backend_choice()).await?);
            Ok(worker)
        }
        .await;
        ui.loading.set(false);
        ui.download.set(None);
        res.map(Rc::new)
    }
}

/// Where the routing model runs: the `skillpg-routing-backend` setting forces WebGPU (the
/// browser tests' way to run the WGSL kernels on SwiftShader).
fn backend_choice() -> BackendChoice {
    if browser::force_webgpu() {
        BackendChoice::Webgpu
    } else {
        BackendChoice::Auto
    }
}
