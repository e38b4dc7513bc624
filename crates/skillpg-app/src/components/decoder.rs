//! The chapter's own experiment: a small instruction model the person brings (a GGUF of the
//! Llama or Qwen2 family: SmolLM2, Qwen2.5-Instruct) sees every skill's `- name: description`
//! line in its system prompt and answers one name or NONE (or, in constrained choice, gives each
//! candidate a probability). Run on the descriptions as written (A) and thinned (B), with the
//! request table and its verbatim answers, Wilson intervals, the paired table and the exact
//! sign test. The model runs in a worker of its own (`model_worker.rs`, the worker crate's
//! `decoder.rs`); nothing is fetched without the person's action, and the model is kept in the
//! origin's Cache API store for the next visit.

use leptos::prelude::*;
use leptos::task::spawn_local;
use skillpg_routing::NONE;
use skillpg_routing::backend::BackendChoice;
use skillpg_routing::protocol::{CheckpointFiles, DecoderMode};
use skillpg_routing::skills::RouteSkill;

use super::ctx;
use super::work::Work;
use crate::browser;
use crate::decoder_run::{
    Brought, DecoderRun, HF_FILES, KEY_PREFIX, Picked, RunProgress, STORE, cell, classify,
    picked_name, stored_models,
};
use crate::phase::{Event, Phase, Progress};

/// The largest model the page takes (wasm32 addresses 4 GiB; the model and its copies must fit).
const MAX_BYTES: u64 = 1_536 * 1_048_576;
/// Qwen2.5-0.5B-Instruct in Q8_0, from its publisher on Hugging Face (CORS allowed).
const QWEN_URL: &str = "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf";

/// A name as it reads, from its encoded form.
fn decoded(name: &str) -> String {
    js_sys::decode_uri_component(name)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| name.to_owned())
}

/// Keeps a loaded model in the origin's store for the next visit; whether the browser took it.
async fn keep(b: &Brought) -> bool {
    browser::cache_clear(STORE).await;
    let dir = format!(
        "{KEY_PREFIX}{}/",
        String::from(js_sys::encode_uri_component(&b.name))
    );
    let model_file = if b.checkpoint.is_some() {
        HF_FILES[0]
    } else {
        "model.gguf"
    };
    let mut kept = browser::cache_put(STORE, &format!("{dir}{model_file}"), &b.model).await;
    if let Some(CheckpointFiles { config, tokenizer }) = &b.checkpoint {
        kept = kept
            && browser::cache_put(STORE, &format!("{dir}{}", HF_FILES[1]), config.as_bytes()).await;
        kept = kept
            && browser::cache_put(
                STORE,
                &format!("{dir}{}", HF_FILES[2]),
                tokenizer.as_bytes(),
            )
            .await;
    }
    if !kept {
        browser::cache_clear(STORE).await;
    }
    kept
}

/// The stored model named `encoded`, or `None` when the browser cleared it.
async fn stored(encoded: &str) -> Option<Brought> {
    let dir = format!("{KEY_PREFIX}{encoded}/");
    let name = decoded(encoded);
    if let Some(model) = browser::cache_get(STORE, &format!("{dir}model.gguf")).await {
        return Some(Brought {
            name,
            model,
            checkpoint: None,
        });
    }
    let model = browser::cache_get(STORE, &format!("{dir}{}", HF_FILES[0])).await?;
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    let config = text(browser::cache_get(STORE, &format!("{dir}{}", HF_FILES[1])).await?);
    let tokenizer = text(browser::cache_get(STORE, &format!("{dir}{}", HF_FILES[2])).await?);
    Some(Brought {
        name,
        model,
        checkpoint: Some(CheckpointFiles { config, tokenizer }),
    })
}

/// The decoder view's signals, and what the person's actions do to them. `Copy`, so that every
/// handler takes it whole.
#[derive(Clone, Copy)]
struct Panel {
    c: super::Ctx,
    /// The loaded model: what it is, and the line saying that and what runs it.
    model: RwSignal<Option<(String, String)>>,
    /// The work in hand (reading, downloading, loading, a run), or why the last failed.
    work: Work,
    url: RwSignal<String>,
    url_size: RwSignal<Option<String>>,
    mode: RwSignal<DecoderMode>,
    backend_choice: RwSignal<BackendChoice>,
    stored_list: RwSignal<Vec<(String, Option<u64>)>>,
    run: RwSignal<Option<DecoderRun>>,
}

impl Panel {
    fn new() -> Panel {
        let c = ctx();
        Panel {
            c,
            work: Work::new(c.status),
            model: RwSignal::new(None),
            url: RwSignal::new(String::new()),
            url_size: RwSignal::new(None),
            mode: RwSignal::new(DecoderMode::Chapter),
            // The `skillpg-routing-backend` setting starts it on WebGPU (the browser tests).
            backend_choice: RwSignal::new(if browser::force_webgpu() {
                BackendChoice::Webgpu
            } else {
                BackendChoice::Auto
            }),
            stored_list: RwSignal::new(Vec::new()),
            run: RwSignal::new(None),
        }
    }

    fn refresh_stored(self) {
        spawn_local(async move {
            self.stored_list
                .set(stored_models(&browser::cache_entries(STORE).await))
        });
    }

    /// Loads a model into the decoder's worker; keeps it in the store when asked.
    async fn load(self, b: Brought, keep_it: bool) {
        self.work.say(format!(
            "Reading {} ({:.1} MB) in the decoder's worker…",
            b.name,
            b.model.len() as f64 / 1e6
        ));
        let loaded = match self.c.models.decoder_worker() {
            Ok(w) => {
                w.load_decoder(
                    &b.name,
                    &b.model,
                    b.checkpoint.clone(),
                    self.backend_choice.get_untracked(),
                )
                .await
            }
            Err(e) => Err(e),
        };
        match loaded {
            Ok(m) => {
                self.c.models.decoder_loaded(Some(m.0.clone()));
                self.model.set(Some(m));
                self.run.set(None);
                if keep_it {
                    self.work.say(
                        "Keeping the model in this site's storage for the next visit…".to_owned(),
                    );
                    if !keep(&b).await {
                        self.c.status.set("The model loaded, but this browser would not keep it for the next visit.".to_owned());
                    }
                    self.refresh_stored();
                }
                self.c
                    .status
                    .set(format!("Loaded {} into the decoder's worker.", b.name));
                self.work.finish();
            }
            Err(e) => {
                self.model.set(None);
                self.c.models.decoder_loaded(None);
                self.work
                    .fail(format!("{} could not be loaded: {e}", b.name));
            }
        }
    }

    /// Picked or dropped files: one GGUF, or a checkpoint's three files.
    fn take_files(self, files: web_sys::FileList) {
        let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        let names: Vec<String> = list
            .iter()
            .map(|f| {
                browser::relative_path(f)
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| f.name())
            })
            .collect();
        let picked = match classify(&names) {
            Ok(p) => p,
            Err(e) => return self.work.refuse(e),
        };
        let model_file = list[picked.model()].clone();
        if model_file.size() > MAX_BYTES as f64 {
            let mb = model_file.size() / 1e6;
            return self.work.refuse(format!(
                "{} is {mb:.0} MB; the page takes models up to {} MB (a 0.5B model in Q8_0 is about 530 MB)",
                model_file.name(),
                MAX_BYTES / 1_000_000
            ));
        }
        let name = picked_name(&names, picked);
        if !self.work.begin(format!("Reading {name}…")) {
            return;
        }
        spawn_local(async move {
            let read = async {
                let model = browser::file_bytes(&model_file).await?;
                let checkpoint = match picked {
                    Picked::Gguf(_) => None,
                    Picked::Checkpoint {
                        config, tokenizer, ..
                    } => {
                        let text = |b: Vec<u8>| {
                            String::from_utf8(b).map_err(|_| {
                                "config.json or tokenizer.json is not UTF-8 text".to_owned()
                            })
                        };
                        Some(CheckpointFiles {
                            config: text(browser::file_bytes(&list[config]).await?)?,
                            tokenizer: text(browser::file_bytes(&list[tokenizer]).await?)?,
                        })
                    }
                };
                Ok::<_, String>(Brought {
                    name: name.clone(),
                    model,
                    checkpoint,
                })
            };
            match read.await {
                Ok(b) => self.load(b, true).await,
                Err(e) => self.work.fail(e),
            }
        });
    }

    /// The address typed, when it is one.
    fn address(self) -> Option<String> {
        let u = self.url.get_untracked().trim().to_owned();
        if u.starts_with("https://") || u.starts_with("http://") {
            return Some(u);
        }
        self.work
            .refuse("Paste a full address (https://…) of a GGUF file.".to_owned());
        None
    }

    fn check_size(self) {
        let Some(u) = self.address() else { return };
        spawn_local(async move {
            self.url_size.set(Some("Asking for the size…".to_owned()));
            self.url_size
                .set(Some(match browser::declared_size(&u).await {
                    Ok(Some(n)) => format!("{:.1} MB", n as f64 / 1e6),
                    Ok(None) => "size not stated by the server".to_owned(),
                    Err(e) => format!("unknown ({e})"),
                }));
        });
    }

    fn start_download(self) {
        let Some(u) = self.address() else { return };
        if !self.work.begin(format!("Downloading {u}…")) {
            return;
        }
        spawn_local(async move {
            let got = browser::fetch_cancellable(
                &u,
                MAX_BYTES,
                |loaded, total| {
                    self.work
                        .send(Event::Progressed(Progress::Bytes { loaded, total }))
                },
                || self.work.stop_asked(),
            )
            .await;
            match got {
                Ok(bytes) => {
                    self.load(
                        Brought {
                            name: u.rsplit('/').next().unwrap_or("model.gguf").to_owned(),
                            model: bytes,
                            checkpoint: None,
                        },
                        true,
                    )
                    .await
                }
                Err(browser::DownloadError::Cancelled) => self
                    .work
                    .fail("The download was cancelled; nothing was kept.".to_owned()),
                Err(browser::DownloadError::Failed(why)) => self.work.fail(why),
            }
        });
    }

    fn load_stored(self, encoded: String) {
        if !self.work.begin("Reading the stored model…".to_owned()) {
            return;
        }
        spawn_local(async move {
            match stored(&encoded).await {
                Some(b) => self.load(b, false).await,
                None => {
                    self.work.fail("The stored model is gone (the browser may have cleared the site's storage).".to_owned());
                    self.refresh_stored();
                }
            }
        });
    }

    /// Moves a loaded model to `choice` at once; otherwise the choice waits for the next load.
    fn move_to(self, choice: BackendChoice) {
        self.backend_choice.set(choice);
        let Some(worker) = self
            .c
            .models
            .loaded_decoder()
            .map(|(w, _)| w)
            .filter(|_| self.model.get_untracked().is_some())
        else {
            return;
        };
        if !self.work.begin("Moving the model…".to_owned()) {
            return;
        }
        spawn_local(async move {
            match worker.move_decoder(choice).await {
                Ok(m) => {
                    self.model.set(Some(m));
                    self.c
                        .status
                        .set("The decoder moved; its next run starts afresh.".to_owned());
                    self.work.finish();
                }
                Err(e) => self.work.fail(format!("The decoder could not move: {e}")),
            }
        });
    }

    /// Both arms over the requests, one request a message, until done or cancelled.
    fn start_run(self) {
        let (Some((worker, _)), Some((model_name, _))) =
            (self.c.models.loaded_decoder(), self.model.get_untracked())
        else {
            return self.work.refuse(
                "Load a model first: a GGUF file, a stored model, or an address.".to_owned(),
            );
        };
        let requests = match self.c.routing_requests() {
            Ok(r) if !r.is_empty() => r,
            Ok(_) => {
                return self.work.refuse(
                    "Type some requests first (in the routing preview's box above), one per line."
                        .to_owned(),
                );
            }
            Err(e) => {
                return self
                    .work
                    .refuse(format!("The requests could not be read: {e}"));
            }
        };
        let skills: Vec<RouteSkill> = self
            .c
            .computed
            .with_untracked(|c| c.analyses.iter().map(RouteSkill::from_analysis).collect());
        if skills.is_empty() {
            return self.work.refuse("Load some skills first.".to_owned());
        }
        if !self.work.begin("Starting the run…".to_owned()) {
            return;
        }
        spawn_local(async move {
            let mut progress = RunProgress::new(
                skills,
                requests,
                self.mode.get_untracked(),
                browser::now_ms(),
            );
            while let Some((skills, request, m)) = progress.next() {
                if self.work.stop_asked() {
                    self.work.finish();
                    self.c.status.set("The run was stopped.".to_owned());
                    return;
                }
                self.work.say(progress.status(browser::now_ms()));
                match worker.route_one(skills, request, m, None).await {
                    Ok((decision, prefix_tokens, line)) => {
                        // A GPU that failed hands the model to the CPU: the line says so.
                        self.model.update(|m| {
                            if let Some((_, l)) = m.as_mut().filter(|(_, l)| *l != line) {
                                *l = line
                            }
                        });
                        progress.record(decision, prefix_tokens);
                    }
                    Err(e) => return self.work.fail(format!("The decoder failed: {e}")),
                }
            }
            let done = progress.finish(model_name, browser::now_ms());
            if let Some(r) = &done {
                self.c.status.set(format!(
                    "The decoder answered {} requests in {:.1} s.",
                    2 * r.requests.len(),
                    r.ms / 1000.0
                ));
            }
            self.run.set(done);
            self.work.finish();
        });
    }
}

/// The decoder view.
#[component]
pub fn DecoderPanel() -> impl IntoView {
    let p = Panel::new();
    p.refresh_stored();
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            p.take_files(files);
        }
    };
    view! {
        <div class="decoder" data-testid="decoder" on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <p class="note">"The chapter's own protocol, rerun in this page: a small instruction model sees every skill's "<code>"- name: description"</code>" line in its system prompt and answers with one name or NONE. A preview by a small model you bring (open or drop it here), not any product's router; it runs in a worker of its own, on WebGPU or on this device's CPU (wasm SIMD), whichever a measurement on the first load found faster (the line under the model says which, and what it measured), and nothing is fetched unless you ask."</p>
            <ModelSources p=p/>
            <Busy p=p/>
            {move || p.work.with(|ph| ph.failure().map(str::to_owned)).map(|e| view! { <p class="warning" role="alert" data-testid="decoder-error">{e}</p> })}
            <p data-testid="decoder-model">{move || p.model.get().map_or_else(|| "No decoder loaded.".to_owned(), |(_, line)| line)}</p>
            <RunControls p=p/>
            <SystemPrompt/>
            {move || p.run.get().map(|r| view! { <DecoderResults run=r/> })}
        </div>
    }
}

/// Where a model comes from: a file, a folder, the store, or an address.
#[component]
fn ModelSources(p: Panel) -> impl IntoView {
    let on_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(files) = input.files() {
            p.take_files(files);
        }
    };
    let folder_input = NodeRef::<leptos::html::Input>::new();
    // `webkitdirectory` is not among the view macro's known attributes; set it on the element.
    Effect::new(move |_| {
        if let Some(el) = folder_input.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    view! {
        <div class="controls">
            <label class="button">"Open a model: a GGUF, or model.safetensors + config.json + tokenizer.json"
                <input type="file" multiple class="visually-hidden" accept=".gguf,.safetensors,.json" data-testid="decoder-file" on:change=on_file/>
            </label>
            <label class="button">"Open a model folder"
                <input type="file" multiple class="visually-hidden" node_ref=folder_input data-testid="decoder-folder" on:change=on_file/>
            </label>
            {move || p.stored_list.get().into_iter().map(|(encoded, size)| {
                let label = format!("Load the stored {}{}", decoded(&encoded), size.map(|n| format!(" ({:.1} MB)", n as f64 / 1e6)).unwrap_or_default());
                view! { <button data-testid="decoder-stored" on:click=move |_| p.load_stored(encoded.clone())>{label}</button> }
            }).collect_view()}
            <Show when=move || !p.stored_list.get().is_empty()>
                <button data-testid="decoder-forget" on:click=move |_| spawn_local(async move { browser::cache_clear(STORE).await; p.refresh_stored(); })>"Forget the stored model"</button>
            </Show>
        </div>
        <div class="controls">
            <label for="decoder-url">"or an address "</label>
            <input id="decoder-url" type="url" size="60" data-testid="decoder-url" placeholder=QWEN_URL prop:value=move || p.url.get()
                on:input=move |ev| { p.url.set(event_target_value(&ev)); p.url_size.set(None); }/>
            <button on:click=move |_| { p.url.set(QWEN_URL.to_owned()); p.url_size.set(None); }>"Qwen2.5-0.5B-Instruct (Q8_0)"</button>
            <button data-testid="decoder-size" on:click=move |_| p.check_size()>"Size?"</button>
            <span data-testid="decoder-size-text">{move || p.url_size.get().unwrap_or_default()}</span>
            <button data-testid="decoder-download" on:click=move |_| p.start_download() disabled=move || p.work.is_working()>"Download and load"</button>
        </div>
        <StrongerModels/>
    }
}

/// The public models a person with a GPU can bring instead, each with how it did on the
/// routing benchmark or that it was not measured here.
#[component]
fn StrongerModels() -> impl IntoView {
    view! {
        <details class="stronger-models" data-testid="stronger-models">
            <summary>"Stronger models for those with the hardware"</summary>
            <table>
                <thead><tr><th scope="col">"model"</th><th scope="col">"size"</th><th scope="col">"where"</th><th scope="col">"on the routing benchmark"</th></tr></thead>
                <tbody>{skillpg_routing::stronger::STRONGER_MODELS.iter().map(|m| view! {
                    <tr><th scope="row">{m.name}</th><td>{m.size}</td><td>{m.source}</td><td>{m.benchmark}</td></tr>
                }).collect_view()}</tbody>
            </table>
        </details>
    }
}

/// What the view is doing, its progress, and a way to stop it.
#[component]
fn Busy(p: Panel) -> impl IntoView {
    view! {
        <Show when=move || p.work.is_working()>
            <div class="controls" role="status">
                <super::progress::DownloadProgress download=Signal::derive(move || p.work.with(Phase::download)) test_id="decoder-progress" idle_label="Working"/>
                <span data-testid="decoder-busy">{move || p.work.with(|ph| ph.line().unwrap_or_default().to_owned())}</span>
                <button data-testid="decoder-cancel" on:click=move |_| p.work.send(Event::Stop)>"Cancel"</button>
            </div>
        </Show>
    }
}

/// Where the model runs, how it answers, and the run button.
#[component]
fn RunControls(p: Panel) -> impl IntoView {
    view! {
        <div class="controls">
            <label>"Run on "
                <select data-testid="decoder-backend" disabled=move || p.work.is_working()
                    on:change=move |ev| if let Ok(choice) = BackendChoice::parse(&event_target_value(&ev)) { p.move_to(choice) }>
                    <option value="auto" selected=move || p.backend_choice.get() == BackendChoice::Auto>"automatic: the faster of WebGPU and the CPU, measured on the first load"</option>
                    <option value="webgpu" selected=move || p.backend_choice.get() == BackendChoice::Webgpu>"WebGPU (any adapter)"</option>
                    <option value="cpu" selected=move || p.backend_choice.get() == BackendChoice::Cpu>"the CPU (wasm SIMD)"</option>
                </select>
            </label>
            <label>"Mode "
                <select data-testid="decoder-mode" on:change=move |ev| if let Ok(m) = DecoderMode::parse(&event_target_value(&ev)) { p.mode.set(m) }>
                    <option value="chapter" selected=move || p.mode.get() == DecoderMode::Chapter>"the chapter's protocol: greedy answer, read as a name or NONE"</option>
                    <option value="choice" selected=move || p.mode.get() == DecoderMode::Choice>"constrained choice: each name's and NONE's probability"</option>
                </select>
            </label>
            <button data-testid="decoder-run" on:click=move |_| p.start_run() disabled=move || p.work.is_working() || p.model.get().is_none()>"Run both arms on the requests"</button>
        </div>
    }
}

/// The system prompt of the descriptions as written, written only while open: typing in the
/// editor must not pay for it.
#[component]
fn SystemPrompt() -> impl IntoView {
    let c = ctx();
    let open = RwSignal::new(false);
    view! {
        <details on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            open.set(ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open()));
        }>
            <summary>"The system prompt the model sees (descriptions as written)"</summary>
            <pre class="prompt" data-testid="decoder-prompt">{move || open.get().then(|| {
                let skills: Vec<RouteSkill> = c.computed.with(|comp| comp.analyses.iter().map(RouteSkill::from_analysis).collect());
                skillpg_routing::prompt::system_prompt(&skills)
            })}</pre>
        </details>
    }
}

/// The request table and the A/B statistics of a run.
#[component]
fn DecoderResults(run: DecoderRun) -> impl IntoView {
    let comparison = run.comparison();
    // The export files are written when asked for, not on every render.
    let (for_json, for_csv) = (run.clone(), run.clone());
    let caption = match run.mode {
        DecoderMode::Choice => {
            "Constrained choice: the most probable candidate and its probability."
        }
        DecoderMode::Chapter => {
            "The chapter's protocol: the answer, read as a name or NONE; anything else counts as NONE and is shown verbatim."
        }
    };
    view! {
        <p data-testid="decoder-summary">{run.summary()}</p>
        <table class="routes" data-testid="decoder-routes">
            <caption>{caption}</caption>
            <thead><tr><th scope="col">"request"</th><th scope="col">"expected"</th><th scope="col">"A: as written"</th><th scope="col">"B: thinned"</th></tr></thead>
            <tbody>
                {run.requests.iter().zip(&run.a.decisions).zip(&run.b.decisions).map(|((q, a), b)| {
                    let ((sa, ta), (sb, tb)) = (cell(&run.a, a), cell(&run.b, b));
                    let (ca, cb) = (run.a.name_of(a).to_owned(), run.b.name_of(b).to_owned());
                    let bad = |choice: &str| q.label().is_some_and(|e| e != choice);
                    // In the candidates' order (the names, then NONE), as the export lists them.
                    let log_probs: &[f32] = match &a.evidence {
                        skillpg_routing::outcome::Evidence::Choice { log_probs, .. } => log_probs,
                        _ => &[],
                    };
                    view! {
                        <tr data-testid="decoder-row" data-a-choice=ca.clone() data-b-choice=cb.clone() data-a-answer=ta data-b-answer=tb data-a-log-probs=serde_json::json!(log_probs).to_string()>
                            <th scope="row">{q.query.clone()}</th>
                            <td>{q.expected.clone()}</td>
                            <td class:none={ca == NONE} class:bad={bad(&ca)}>{sa}</td>
                            <td class:none={cb == NONE} class:bad={bad(&cb)}>{sb}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <div class="controls">
            <button data-testid="decoder-export-json" on:click=move |_| browser::download("decoder-routing.json", "application/json", for_json.json().as_bytes())>"Export results (JSON)"</button>
            <button data-testid="decoder-export-csv" on:click=move |_| browser::download("decoder-routing.csv", "text/csv", for_csv.csv().as_bytes())>"Export results (CSV)"</button>
        </div>
        {match comparison {
            None => view! { <p>"Label every request (`request => skill` or NONE) to compare the two arms."</p> }.into_any(),
            Some(cmp) => view! {
                <div data-testid="decoder-comparison">
                    <super::paired::PairedOutcomes cmp=cmp.stats sign_test_id="decoder-sign-test" note=""/>
                </div>
            }.into_any(),
        }}
    }
}
