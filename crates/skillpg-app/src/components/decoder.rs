//! The chapter's own experiment: a small instruction model the person brings (a GGUF of the
//! Llama or Qwen2 family: SmolLM2, Qwen2.5-Instruct) sees every skill's `- name: description`
//! line in its system prompt and answers one name or NONE (or, in constrained choice, gives each
//! candidate a probability). Run on the descriptions as written (A) and thinned (B), with the
//! request table and its verbatim answers, Wilson intervals, the paired table and the exact
//! sign test. The model runs in a worker of its own (`model_worker.rs`, the worker crate's
//! `decoder.rs`); nothing is fetched without the person's action, and the model is kept in the
//! origin's Cache API store for the next visit.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use skillpg_router::route::{self, Labelled, NONE};

use super::ctx;
use crate::browser;
use crate::model_worker::ModelWorker;

/// The Cache API store that keeps the last model loaded.
const STORE: &str = "skillpg-decoder-v1";
/// Where in the store (a path of this origin, never requested from the network).
const KEY_PREFIX: &str = "decoder-model/";
/// The largest model the page takes (wasm32 addresses 4 GiB; the model and its copies must fit).
const MAX_BYTES: u64 = 1_536 * 1_048_576;
/// Qwen2.5-0.5B-Instruct in Q8_0, from its publisher on Hugging Face (CORS allowed).
const QWEN_URL: &str = "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf";

thread_local! {
    // The worker that holds the decoder (a JS handle: not Send, so not in a signal).
    static WORKER: RefCell<Option<Rc<ModelWorker>>> = const { RefCell::new(None) };
}

/// A model as the person brought it: a GGUF, or a Hugging Face checkpoint's
/// `model.safetensors` with its `config.json` and `tokenizer.json`.
#[derive(Debug, Clone)]
struct Brought {
    name: String,
    model: Vec<u8>,
    /// `(config.json, tokenizer.json)` for a checkpoint.
    hf: Option<(String, String)>,
}

/// The files of a store entry: `decoder-model/<name>/<file>`.
const HF_FILES: [&str; 3] = ["model.safetensors", "config.json", "tokenizer.json"];

/// What a set of picked or dropped files is: one GGUF, or a checkpoint's three files; or why
/// neither.
fn classify(names: &[String]) -> Result<Picked, String> {
    if let Some(i) = names.iter().position(|n| n.to_lowercase().ends_with(".gguf")) {
        return Ok(Picked::Gguf(i));
    }
    let base = |n: &String| n.rsplit('/').next().unwrap_or(n).to_owned();
    let find = |want: &str| names.iter().position(|n| base(n) == want);
    if names.iter().any(|n| base(n).starts_with("model-0") && n.ends_with(".safetensors")) {
        return Err("this checkpoint is split into several .safetensors files; the page reads one model.safetensors (Qwen2.5-0.5B and SmolLM2 ship one), or use a GGUF"
            .to_owned());
    }
    match (find("model.safetensors"), find("config.json"), find("tokenizer.json")) {
        (Some(m), Some(c), Some(t)) => Ok(Picked::Hf { model: m, config: c, tokenizer: t }),
        (Some(_), _, _) => Err("a model.safetensors needs its config.json and tokenizer.json beside it: pick the three files together, or the folder".to_owned()),
        _ => Err("pick a .gguf file, or a Hugging Face model's model.safetensors, config.json and tokenizer.json (or its folder)".to_owned()),
    }
}

/// Which of the files to read, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Picked {
    Gguf(usize),
    Hf { model: usize, config: usize, tokenizer: usize },
}

/// One request's answer in one arm.
#[derive(Debug, Clone, PartialEq)]
struct Answer {
    /// The verbatim answer (chapter's protocol), or `None` (constrained choice).
    text: Option<String>,
    /// The skill chosen, or NONE.
    choice: String,
    /// Whether the answer was a name or NONE exactly.
    recognised: bool,
    /// Constrained choice: each candidate's probability (names, then NONE).
    distribution: Vec<f32>,
    /// Constrained choice: each candidate's log-probability (names, then NONE).
    log_probs: Vec<f32>,
    /// Tokens prefilled for the request (its own), and generated.
    prefill: u64,
    generated: u64,
    /// What ran it, when the worker said (a GPU failure moves the model to the CPU).
    backend: Option<String>,
    /// Tokens of the cached system turn.
    prefix: u64,
}

/// A whole run: both arms over the same requests.
#[derive(Debug, Clone, PartialEq)]
struct DecoderRun {
    mode: String,
    model: String,
    names: Vec<String>,
    requests: Vec<Labelled>,
    a: Vec<Answer>,
    b: Vec<Answer>,
    ms: f64,
}

fn parse_answer(json: &str, names: &[String]) -> Result<Answer, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("the decoder worker sent unreadable JSON: {e}"))?;
    let choice = v["choice"].as_u64().and_then(|i| names.get(i as usize)).cloned().unwrap_or_else(|| NONE.to_owned());
    Ok(Answer {
        text: v["answer"].as_str().map(str::to_owned),
        choice,
        recognised: v["recognised"].as_bool().unwrap_or(false),
        distribution: v["distribution"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).map(|x| x as f32).collect()).unwrap_or_default(),
        log_probs: v["log_probs"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).map(|x| x as f32).collect()).unwrap_or_default(),
        prefill: v["prefill_tokens"].as_u64().unwrap_or(0),
        generated: v["generated_tokens"].as_u64().unwrap_or(0),
        prefix: v["prefix_tokens"].as_u64().unwrap_or(0),
        backend: v["backend"].as_str().map(str::to_owned),
    })
}

/// One value a candidate (the names, then NONE) as a JSON object; empty when there are none.
fn by_candidate(names: &[String], values: &[f32]) -> serde_json::Map<String, serde_json::Value> {
    names.iter().map(String::as_str).chain([NONE]).zip(values).map(|(n, v)| (n.to_owned(), serde_json::json!(v))).collect()
}

/// A map as JSON, or null when it is empty (a mode that has no such values).
fn or_null(map: serde_json::Map<String, serde_json::Value>) -> serde_json::Value {
    if map.is_empty() { serde_json::Value::Null } else { map.into() }
}

/// The run as JSON, with its A/B comparison when every request is labelled.
fn to_json(run: &DecoderRun, comparison: Option<&skillpg_stats::Comparison>) -> String {
    let arm = |answers: &[Answer]| -> Vec<serde_json::Value> {
        run.requests
            .iter()
            .zip(answers)
            .map(|(r, a)| {
                let (dist, lp) = (by_candidate(&run.names, &a.distribution), by_candidate(&run.names, &a.log_probs));
                serde_json::json!({"query": r.query, "expected": r.expected, "choice": a.choice, "answer": a.text, "recognised": a.recognised, "distribution": or_null(dist), "log_probs": or_null(lp), "prefill_tokens": a.prefill, "generated_tokens": a.generated})
            })
            .collect()
    };
    let stats = comparison.map(|cmp| {
        serde_json::json!({"a": cmp.a.line("A", NONE), "b": cmp.b.line("B", NONE), "paired": {"both": cmp.paired.both, "only_a": cmp.paired.only_a, "only_b": cmp.paired.only_b, "neither": cmp.paired.neither}, "sign_test_p": cmp.paired.p_value()})
    });
    serde_json::to_string_pretty(&serde_json::json!({
        "model": run.model, "mode": run.mode,
        "note": "a preview by a small instruction model, not any product's router",
        "a_descriptions_as_written": arm(&run.a), "b_descriptions_thinned": arm(&run.b), "comparison": stats,
    }))
    .unwrap_or_default()
}

fn to_csv(run: &DecoderRun) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = String::from("query,expected,a_choice,a_answer,b_choice,b_answer\n");
    for ((r, a), b) in run.requests.iter().zip(&run.a).zip(&run.b) {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            q(&r.query),
            q(&r.expected),
            q(&a.choice),
            q(a.text.as_deref().unwrap_or("")),
            q(&b.choice),
            q(b.text.as_deref().unwrap_or(""))
        ));
    }
    out
}

fn labelled(run: &DecoderRun) -> bool {
    run.requests.iter().all(|r| !r.expected.is_empty())
}

/// A store key's model (its encoded name) and file.
fn split_key(key: &str) -> Option<(String, String)> {
    let tail = key.rsplit_once(KEY_PREFIX)?.1;
    let (name, file) = tail.split_once('/')?;
    Some((name.to_owned(), file.to_owned()))
}

/// A name as it reads, from its encoded form.
fn decoded(name: &str) -> String {
    js_sys::decode_uri_component(name).ok().and_then(|s| s.as_string()).unwrap_or_else(|| name.to_owned())
}

/// The stored models: encoded name and the model file's size, from the store's keys.
fn stored_models(entries: &[(String, Option<u64>)]) -> Vec<(String, Option<u64>)> {
    let mut out: Vec<(String, Option<u64>)> = Vec::new();
    for (key, size) in entries {
        let Some((name, file)) = split_key(key) else { continue };
        if file == "model.gguf" || file == "model.safetensors" {
            out.push((name, *size));
        }
    }
    out
}

/// The decoder view.
#[component]
pub fn DecoderPanel() -> impl IntoView {
    let c = ctx();
    let model_line = RwSignal::new(String::new());
    let busy = RwSignal::new(None::<String>);
    let download = RwSignal::new(None::<(u64, Option<u64>)>);
    let cancel = RwSignal::new(false);
    let url = RwSignal::new(String::new());
    let url_size = RwSignal::new(None::<String>);
    let mode = RwSignal::new("chapter".to_owned());
    // Where the model runs: `auto` (WebGPU on a real GPU, the CPU otherwise), `webgpu` or `cpu`;
    // the `skillpg-routing-backend` setting starts it on WebGPU (the browser tests).
    let backend_choice = RwSignal::new(if browser::force_webgpu() { "webgpu" } else { "auto" }.to_owned());
    let stored = RwSignal::new(Vec::<(String, Option<u64>)>::new());
    let run = RwSignal::new(None::<DecoderRun>);
    let error = RwSignal::new(None::<String>);
    let prompt_open = RwSignal::new(false);

    let refresh_stored = move || spawn_local(async move { stored.set(stored_models(&browser::cache_entries(STORE).await)) });
    refresh_stored();

    // Loads a model into the decoder's worker; keeps it in the store when asked.
    let load_bytes = move |b: Brought, keep: bool| async move {
        let Brought { name, model: bytes, hf } = b;
        busy.set(Some(format!("Reading {name} ({:.1} MB) in the decoder's worker…", bytes.len() as f64 / 1e6)));
        error.set(None);
        let worker = match WORKER.with(|w| w.borrow().clone()) {
            Some(w) => w,
            None => match ModelWorker::spawn("skillpg-decoder") {
                Ok(w) => {
                    let w = Rc::new(w);
                    WORKER.with(|slot| *slot.borrow_mut() = Some(w.clone()));
                    w
                }
                Err(e) => {
                    busy.set(None);
                    error.set(Some(e));
                    return;
                }
            },
        };
        match worker.decoder_load(&bytes, hf.as_ref().map(|(c, t)| (c.as_str(), t.as_str())), &backend_choice.get_untracked()).await {
            Ok(line) => {
                model_line.set(line);
                run.set(None);
                if keep {
                    busy.set(Some("Keeping the model in this site's storage for the next visit…".to_owned()));
                    browser::cache_clear(STORE).await;
                    let dir = format!("{KEY_PREFIX}{}/", String::from(js_sys::encode_uri_component(&name)));
                    let mut kept = match &hf {
                        None => browser::cache_put(STORE, &format!("{dir}model.gguf"), &bytes).await,
                        Some(_) => browser::cache_put(STORE, &format!("{dir}model.safetensors"), &bytes).await,
                    };
                    if let Some((config, tokenizer)) = &hf {
                        kept = kept
                            && browser::cache_put(STORE, &format!("{dir}config.json"), config.as_bytes()).await
                            && browser::cache_put(STORE, &format!("{dir}tokenizer.json"), tokenizer.as_bytes()).await;
                    }
                    if !kept {
                        browser::cache_clear(STORE).await;
                        c.status.set("The model loaded, but this browser would not keep it for the next visit.".to_owned());
                    }
                    refresh_stored();
                }
                c.status.set(format!("Loaded {name} into the decoder's worker."));
            }
            Err(e) => {
                model_line.set(String::new());
                error.set(Some(format!("{name} could not be loaded: {e}")));
            }
        }
        busy.set(None);
    };

    // Picked or dropped files: one GGUF, or a checkpoint's three files.
    let take_files = move |files: web_sys::FileList| {
        let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        let names: Vec<String> = list.iter().map(|f| browser::relative_path(f).filter(|r| !r.is_empty()).unwrap_or_else(|| f.name())).collect();
        let picked = match classify(&names) {
            Ok(p) => p,
            Err(e) => {
                error.set(Some(e));
                return;
            }
        };
        let model_index = match picked {
            Picked::Gguf(i) => i,
            Picked::Hf { model, .. } => model,
        };
        let model_file = list[model_index].clone();
        if model_file.size() > MAX_BYTES as f64 {
            error.set(Some(format!(
                "{} is {:.0} MB; the page takes models up to {} MB (a 0.5B model in Q8_0 is about 530 MB)",
                model_file.name(),
                model_file.size() / 1e6,
                MAX_BYTES / 1_000_000
            )));
            return;
        }
        // A checkpoint is named after its folder when the browser says which.
        let name = match picked {
            Picked::Gguf(_) => model_file.name(),
            Picked::Hf { .. } => names[model_index].rsplit_once('/').map_or_else(|| "model".to_owned(), |(dir, _)| dir.rsplit('/').next().unwrap_or(dir).to_owned()),
        };
        spawn_local(async move {
            busy.set(Some(format!("Reading {name}…")));
            let read = async {
                let model = browser::file_bytes(&model_file).await?;
                let hf = match picked {
                    Picked::Gguf(_) => None,
                    Picked::Hf { config, tokenizer, .. } => {
                        let text = |b: Vec<u8>| String::from_utf8(b).map_err(|_| "config.json or tokenizer.json is not UTF-8 text".to_owned());
                        Some((text(browser::file_bytes(&list[config]).await?)?, text(browser::file_bytes(&list[tokenizer]).await?)?))
                    }
                };
                Ok::<_, String>(Brought { name: name.clone(), model, hf })
            };
            match read.await {
                Ok(b) => load_bytes(b, true).await,
                Err(e) => {
                    busy.set(None);
                    error.set(Some(e));
                }
            }
        });
    };
    let on_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(files) = input.files() {
            take_files(files);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            take_files(files);
        }
    };
    let folder_input = NodeRef::<leptos::html::Input>::new();
    // `webkitdirectory` is not among the view macro's known attributes; set it on the element.
    Effect::new(move |_| {
        if let Some(el) = folder_input.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });

    let check_size = move |_| {
        let u = url.get_untracked().trim().to_owned();
        if !(u.starts_with("https://") || u.starts_with("http://")) {
            error.set(Some("Paste a full address (https://…) of a GGUF file.".to_owned()));
            return;
        }
        spawn_local(async move {
            url_size.set(Some("Asking for the size…".to_owned()));
            url_size.set(Some(match browser::declared_size(&u).await {
                Ok(Some(n)) => format!("{:.1} MB", n as f64 / 1e6),
                Ok(None) => "size not stated by the server".to_owned(),
                Err(e) => format!("unknown ({e})"),
            }));
        });
    };

    let start_download = move |_| {
        let u = url.get_untracked().trim().to_owned();
        if !(u.starts_with("https://") || u.starts_with("http://")) {
            error.set(Some("Paste a full address (https://…) of a GGUF file.".to_owned()));
            return;
        }
        cancel.set(false);
        error.set(None);
        spawn_local(async move {
            busy.set(Some(format!("Downloading {u}…")));
            let got = browser::fetch_cancellable(&u, MAX_BYTES, |loaded, total| download.set(Some((loaded, total))), || cancel.get_untracked()).await;
            download.set(None);
            match got {
                Ok(bytes) => {
                    let name = u.rsplit('/').next().unwrap_or("model.gguf").to_owned();
                    load_bytes(Brought { name, model: bytes, hf: None }, true).await;
                }
                Err(e) => {
                    busy.set(None);
                    error.set(Some(if e == browser::CANCELLED { "The download was cancelled; nothing was kept.".to_owned() } else { e }));
                }
            }
        });
    };

    let load_stored = move |encoded: String| {
        spawn_local(async move {
            busy.set(Some("Reading the stored model…".to_owned()));
            let dir = format!("{KEY_PREFIX}{encoded}/");
            let gguf = browser::cache_get(STORE, &format!("{dir}model.gguf")).await;
            let brought = match gguf {
                Some(model) => Some(Brought { name: decoded(&encoded), model, hf: None }),
                None => {
                    let mut parts = Vec::new();
                    for f in HF_FILES {
                        parts.push(browser::cache_get(STORE, &format!("{dir}{f}")).await);
                    }
                    match (parts[0].take(), parts[1].take(), parts[2].take()) {
                        (Some(model), Some(config), Some(tokenizer)) => Some(Brought {
                            name: decoded(&encoded),
                            model,
                            hf: Some((String::from_utf8_lossy(&config).into_owned(), String::from_utf8_lossy(&tokenizer).into_owned())),
                        }),
                        _ => None,
                    }
                }
            };
            match brought {
                Some(b) => load_bytes(b, false).await,
                None => {
                    busy.set(None);
                    error.set(Some("The stored model is gone (the browser may have cleared the site's storage).".to_owned()));
                    refresh_stored();
                }
            }
        });
    };

    let start_run = move |_| {
        let Some(worker) = WORKER.with(|w| w.borrow().clone()) else {
            error.set(Some("Load a model first: a GGUF file, a stored model, or an address.".to_owned()));
            return;
        };
        if model_line.get_untracked().is_empty() {
            error.set(Some("Load a model first: a GGUF file, a stored model, or an address.".to_owned()));
            return;
        }
        let computed = c.computed.get_untracked();
        let (text, selected_name) =
            c.state.with_untracked(|s| (s.routing.requests.clone(), computed.analyses.get(s.selected).map(|a| a.display_name().to_owned()).unwrap_or_default()));
        let requests = match route::parse_requests(&text, Some(&selected_name)) {
            Ok(r) if !r.is_empty() => r,
            Ok(_) => {
                error.set(Some("Type some requests first (in the routing preview's box above), one per line.".to_owned()));
                return;
            }
            Err(e) => {
                error.set(Some(format!("The requests could not be read: {e}")));
                return;
            }
        };
        let names: Vec<String> = computed.analyses.iter().map(|a| a.display_name().to_owned()).collect();
        if names.is_empty() {
            error.set(Some("Load some skills first.".to_owned()));
            return;
        }
        let rich: Vec<(String, String)> = computed.analyses.iter().map(|a| (a.display_name().to_owned(), a.description().unwrap_or("").trim().to_owned())).collect();
        let thin: Vec<(String, String)> = rich.iter().map(|(n, d)| (n.clone(), route::thin(d))).collect();
        let m = mode.get_untracked();
        cancel.set(false);
        error.set(None);
        spawn_local(async move {
            let start = browser::now_ms();
            let total = requests.len() * 2;
            let mut arms: Vec<Vec<Answer>> = Vec::new();
            for (label, skills) in [("A (as written)", &rich), ("B (thinned)", &thin)] {
                let skills_json = serde_json::to_string(skills).unwrap_or_default();
                let mut answers = Vec::with_capacity(requests.len());
                for r in &requests {
                    if cancel.get_untracked() {
                        busy.set(None);
                        c.status.set("The run was stopped.".to_owned());
                        return;
                    }
                    let done = arms.len() * requests.len() + answers.len();
                    let per = if done > 0 { format!(", {:.1} s a request", (browser::now_ms() - start) / 1000.0 / done as f64) } else { String::new() };
                    busy.set(Some(format!("Arm {label}: request {} of {} ({done} of {total} done{per})…", answers.len() + 1, requests.len())));
                    match worker.decoder_route(&skills_json, &r.query, &m).await.and_then(|j| parse_answer(&j, &names)) {
                        Ok(a) => {
                            if let Some(line) = a.backend.as_ref().filter(|l| **l != model_line.get_untracked()) {
                                model_line.set(line.clone());
                            }
                            answers.push(a);
                        }
                        Err(e) => {
                            busy.set(None);
                            error.set(Some(format!("The decoder failed: {e}")));
                            return;
                        }
                    }
                }
                arms.push(answers);
            }
            let b = arms.pop().unwrap_or_default();
            let a = arms.pop().unwrap_or_default();
            let ms = browser::now_ms() - start;
            run.set(Some(DecoderRun { mode: m, model: model_line.get_untracked(), names, requests, a, b, ms }));
            busy.set(None);
            c.status.set(format!("The decoder answered {total} requests in {:.1} s.", ms / 1000.0));
        });
    };

    view! {
        <div class="decoder" data-testid="decoder" on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
            <p class="note">"The chapter's own protocol, rerun in this page: a small instruction model sees every skill's "<code>"- name: description"</code>" line in its system prompt and answers with one name or NONE. A preview by a small model you bring (open or drop it here), not any product's router; it runs in a worker of its own, on WebGPU where this device has a real GPU and on its CPU (wasm SIMD) otherwise (the line under the model says which), and nothing is fetched unless you ask."</p>
            <div class="controls">
                <label class="button">"Open a model: a GGUF, or model.safetensors + config.json + tokenizer.json"
                    <input type="file" multiple class="visually-hidden" accept=".gguf,.safetensors,.json" data-testid="decoder-file" on:change=on_file/>
                </label>
                <label class="button">"Open a model folder"
                    <input type="file" multiple class="visually-hidden" node_ref=folder_input data-testid="decoder-folder" on:change=on_file/>
                </label>
                {move || stored.get().into_iter().map(|(encoded, size)| {
                    let label = format!("Load the stored {}{}", decoded(&encoded), size.map(|n| format!(" ({:.1} MB)", n as f64 / 1e6)).unwrap_or_default());
                    view! { <button data-testid="decoder-stored" on:click=move |_| load_stored(encoded.clone())>{label}</button> }
                }).collect_view()}
                <Show when=move || !stored.get().is_empty()>
                    <button data-testid="decoder-forget" on:click=move |_| spawn_local(async move { browser::cache_clear(STORE).await; refresh_stored(); })>"Forget the stored model"</button>
                </Show>
            </div>
            <div class="controls">
                <label for="decoder-url">"or an address "</label>
                <input id="decoder-url" type="url" size="60" data-testid="decoder-url" placeholder=QWEN_URL prop:value=move || url.get()
                    on:input=move |ev| { url.set(event_target_value(&ev)); url_size.set(None); }/>
                <button on:click=move |_| { url.set(QWEN_URL.to_owned()); url_size.set(None); }>"Qwen2.5-0.5B-Instruct (Q8_0)"</button>
                <button data-testid="decoder-size" on:click=check_size>"Size?"</button>
                <span data-testid="decoder-size-text">{move || url_size.get().unwrap_or_default()}</span>
                <button data-testid="decoder-download" on:click=start_download disabled=move || busy.get().is_some()>"Download and load"</button>
            </div>
            <Show when=move || busy.get().is_some()>
                <div class="controls" role="status">
                    {move || match download.get() {
                        Some((loaded, Some(total))) => view! {
                            <progress data-testid="decoder-progress" aria-label="Downloading the model" max=total.to_string() value=loaded.to_string()></progress>
                            <span>{format!("{} of {} bytes", super::n(loaded as usize), super::n(total as usize))}</span>
                        }.into_any(),
                        Some((loaded, None)) => view! { <progress data-testid="decoder-progress" aria-label="Downloading the model"></progress><span>{format!("{} bytes", super::n(loaded as usize))}</span> }.into_any(),
                        None => view! { <progress aria-label="Working"></progress> }.into_any(),
                    }}
                    <span data-testid="decoder-busy">{move || busy.get().unwrap_or_default()}</span>
                    <button data-testid="decoder-cancel" on:click=move |_| cancel.set(true)>"Cancel"</button>
                </div>
            </Show>
            {move || error.get().map(|e| view! { <p class="warning" role="alert" data-testid="decoder-error">{e}</p> })}
            <p data-testid="decoder-model">{move || { let l = model_line.get(); if l.is_empty() { "No decoder loaded.".to_owned() } else { l } }}</p>
            <div class="controls">
                <label>"Run on "
                    <select data-testid="decoder-backend" disabled=move || busy.get().is_some() on:change=move |ev| {
                        let choice = event_target_value(&ev);
                        backend_choice.set(choice.clone());
                        // A loaded model moves at once; otherwise the choice waits for the next load.
                        let Some(worker) = WORKER.with(|w| w.borrow().clone()).filter(|_| !model_line.get_untracked().is_empty()) else { return };
                        busy.set(Some("Moving the model…".to_owned()));
                        spawn_local(async move {
                            match worker.decoder_backend(&choice).await {
                                Ok(line) => {
                                    model_line.set(line);
                                    c.status.set("The decoder moved; its next run starts afresh.".to_owned());
                                }
                                Err(e) => error.set(Some(format!("The decoder could not move: {e}"))),
                            }
                            busy.set(None);
                        });
                    }>
                        <option value="auto" selected=move || backend_choice.get() == "auto">"automatic: WebGPU on a real GPU, else the CPU"</option>
                        <option value="webgpu" selected=move || backend_choice.get() == "webgpu">"WebGPU (any adapter)"</option>
                        <option value="cpu" selected=move || backend_choice.get() == "cpu">"the CPU (wasm SIMD)"</option>
                    </select>
                </label>
                <label>"Mode "
                    <select data-testid="decoder-mode" on:change=move |ev| mode.set(event_target_value(&ev))>
                        <option value="chapter" selected=move || mode.get() == "chapter">"the chapter's protocol: greedy answer, read as a name or NONE"</option>
                        <option value="choice" selected=move || mode.get() == "choice">"constrained choice: each name's and NONE's probability"</option>
                    </select>
                </label>
                <button data-testid="decoder-run" on:click=start_run disabled=move || busy.get().is_some() || model_line.get().is_empty()>"Run both arms on the requests"</button>
            </div>
            // Written only while open: typing in the editor must not pay for it.
            <details on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                prompt_open.set(ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open()));
            }>
                <summary>"The system prompt the model sees (descriptions as written)"</summary>
                <pre class="prompt" data-testid="decoder-prompt">{move || prompt_open.get().then(|| {
                    let skills: Vec<(String, String)> = c.computed.with(|comp| comp.analyses.iter().map(|a| (a.display_name().to_owned(), a.description().unwrap_or("").trim().to_owned())).collect());
                    skillpg_decoder::protocol::system_prompt(&skills)
                })}</pre>
            </details>
            {move || run.get().map(|r| view! { <DecoderResults run=r/> })}
        </div>
    }
}

/// The request table and the A/B statistics of a run.
#[component]
fn DecoderResults(run: DecoderRun) -> impl IntoView {
    let choice_mode = run.mode == "choice";
    let prefix = run.a.first().map_or(0, |a| a.prefix);
    let mean_prefill = run.a.iter().chain(&run.b).map(|a| a.prefill as f64).sum::<f64>() / (run.a.len() + run.b.len()).max(1) as f64;
    let cell = move |a: &Answer| {
        let shown = if choice_mode {
            let p = a.distribution.iter().copied().fold(0.0f32, f32::max);
            format!("{} ({:.0}%)", a.choice, p * 100.0)
        } else if a.recognised {
            a.choice.clone()
        } else {
            format!("{:?} → NONE", a.text.clone().unwrap_or_default())
        };
        (shown, a.text.clone().unwrap_or_default())
    };
    let expected: Vec<&str> = run.requests.iter().map(|r| r.expected.as_str()).collect();
    let (ca, cb): (Vec<&str>, Vec<&str>) = (run.a.iter().map(|a| a.choice.as_str()).collect(), run.b.iter().map(|a| a.choice.as_str()).collect());
    let comparison = labelled(&run).then(|| skillpg_stats::compare(&expected, &ca, &cb, NONE));
    let json = to_json(&run, comparison.as_ref());
    let csv = to_csv(&run);
    view! {
        <p data-testid="decoder-summary">{format!(
            "{} requests × 2 arms in {:.1} s ({:.1} s a request). The system turn ({prefix} tokens) is prefilled once per arm and its key/value cache reused: a request prefills {mean_prefill:.0} tokens of its own on average, {:.0} without the cache.",
            run.requests.len(), run.ms / 1000.0, run.ms / 1000.0 / (2 * run.requests.len()).max(1) as f64, mean_prefill + prefix as f64
        )}</p>
        <table class="routes" data-testid="decoder-routes">
            <caption>{if choice_mode { "Constrained choice: the most probable candidate and its probability." } else { "The chapter's protocol: the answer, read as a name or NONE; anything else counts as NONE and is shown verbatim." }}</caption>
            <thead><tr><th scope="col">"request"</th><th scope="col">"expected"</th><th scope="col">"A: as written"</th><th scope="col">"B: thinned"</th></tr></thead>
            <tbody>
                {run.requests.iter().zip(&run.a).zip(&run.b).map(|((q, a), b)| {
                    let ((sa, ta), (sb, tb)) = (cell(a), cell(b));
                    let bad = |x: &Answer| !q.expected.is_empty() && q.expected != x.choice;
                    view! {
                        <tr data-testid="decoder-row" data-a-choice=a.choice.clone() data-b-choice=b.choice.clone() data-a-answer=ta data-b-answer=tb data-a-log-probs=serde_json::Value::from(by_candidate(&run.names, &a.log_probs)).to_string()>
                            <th scope="row">{q.query.clone()}</th>
                            <td>{q.expected.clone()}</td>
                            <td class:none={a.choice == NONE} class:bad={bad(a)}>{sa}</td>
                            <td class:none={b.choice == NONE} class:bad={bad(b)}>{sb}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <div class="controls">
            <button on:click=move |_| browser::download("decoder-routing.json", "application/json", json.as_bytes())>"Export results (JSON)"</button>
            <button on:click=move |_| browser::download("decoder-routing.csv", "text/csv", csv.as_bytes())>"Export results (CSV)"</button>
        </div>
        {match comparison {
            None => view! { <p>"Label every request (`request => skill` or NONE) to compare the two arms."</p> }.into_any(),
            Some(cmp) => view! {
                <div data-testid="decoder-comparison">
                    <super::paired::PairedOutcomes cmp=cmp sign_test_id="decoder-sign-test" note=""/>
                </div>
            }.into_any(),
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picked_files_are_a_gguf_or_a_checkpoint() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(classify(&names(&["notes.txt", "SmolLM2.Q4_1.GGUF"])), Ok(Picked::Gguf(1)));
        assert_eq!(
            classify(&names(&["qwen/config.json", "qwen/model.safetensors", "qwen/tokenizer.json", "qwen/README.md"])),
            Ok(Picked::Hf { model: 1, config: 0, tokenizer: 2 })
        );
        assert!(classify(&names(&["model.safetensors"])).expect_err("refused").contains("config.json and tokenizer.json"));
        assert!(classify(&names(&["model-00001-of-00002.safetensors", "config.json"])).expect_err("refused").contains("several"));
        assert!(classify(&names(&["skill.md"])).expect_err("refused").contains(".gguf"));
    }

    #[test]
    fn answers_read_from_the_workers_json() {
        let names = vec!["sql-review".to_owned(), "release-notes".to_owned()];
        let a = parse_answer(
            r#"{"answer":"release-notes","choice":1,"recognised":true,"distribution":null,"prefill_tokens":18,"generated_tokens":3,"prefix_tokens":300}"#,
            &names,
        )
        .expect("json");
        assert_eq!((a.choice.as_str(), a.recognised, a.prefill, a.prefix), ("release-notes", true, 18, 300));
        let b = parse_answer(
            r#"{"answer":"I think SQL","choice":null,"recognised":false,"distribution":null,"prefill_tokens":18,"generated_tokens":4,"prefix_tokens":300}"#,
            &names,
        )
        .expect("json");
        assert_eq!((b.choice.as_str(), b.text.as_deref()), (NONE, Some("I think SQL")));
        assert!(parse_answer("not json", &names).is_err());
    }
}
