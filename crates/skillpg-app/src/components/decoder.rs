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
    /// Tokens prefilled for the request (its own), and generated.
    prefill: u64,
    generated: u64,
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
        prefill: v["prefill_tokens"].as_u64().unwrap_or(0),
        generated: v["generated_tokens"].as_u64().unwrap_or(0),
        prefix: v["prefix_tokens"].as_u64().unwrap_or(0),
    })
}

fn to_json(run: &DecoderRun) -> String {
    let arm = |answers: &[Answer]| -> Vec<serde_json::Value> {
        run.requests
            .iter()
            .zip(answers)
            .map(|(r, a)| {
                let dist: serde_json::Map<String, serde_json::Value> = run.names.iter().map(String::as_str).chain([NONE]).zip(&a.distribution).map(|(n, p)| (n.to_owned(), serde_json::json!(p))).collect();
                serde_json::json!({"query": r.query, "expected": r.expected, "choice": a.choice, "answer": a.text, "recognised": a.recognised, "distribution": if dist.is_empty() { serde_json::Value::Null } else { dist.into() }, "prefill_tokens": a.prefill, "generated_tokens": a.generated})
            })
            .collect()
    };
    let expected: Vec<&str> = run.requests.iter().map(|r| r.expected.as_str()).collect();
    let stats = labelled(run).then(|| {
        let (ca, cb): (Vec<&str>, Vec<&str>) = (run.a.iter().map(|a| a.choice.as_str()).collect(), run.b.iter().map(|a| a.choice.as_str()).collect());
        let cmp = skillpg_stats::compare(&expected, &ca, &cb, NONE);
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
        out.push_str(&format!("{},{},{},{},{},{}\n", q(&r.query), q(&r.expected), q(&a.choice), q(a.text.as_deref().unwrap_or("")), q(&b.choice), q(b.text.as_deref().unwrap_or(""))));
    }
    out
}

fn labelled(run: &DecoderRun) -> bool {
    run.requests.iter().all(|r| !r.expected.is_empty())
}

/// The name a store key stands for.
fn stored_name(key: &str) -> String {
    let tail = key.rsplit_once(KEY_PREFIX).map_or(key, |(_, t)| t);
    js_sys::decode_uri_component(tail).ok().and_then(|s| s.as_string()).unwrap_or_else(|| tail.to_owned())
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
    let stored = RwSignal::new(Vec::<(String, Option<u64>)>::new());
    let run = RwSignal::new(None::<DecoderRun>);
    let error = RwSignal::new(None::<String>);

    let refresh_stored = move || spawn_local(async move { stored.set(browser::cache_entries(STORE).await) });
    refresh_stored();

    // Loads `bytes` into the decoder's worker; keeps them in the store under `name` when asked.
    let load_bytes = move |bytes: Vec<u8>, name: String, keep: bool| async move {
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
        match worker.decoder_load(&bytes).await {
            Ok(line) => {
                model_line.set(line);
                run.set(None);
                if keep {
                    busy.set(Some("Keeping the model in this site's storage for the next visit…".to_owned()));
                    browser::cache_clear(STORE).await;
                    let key = format!("{KEY_PREFIX}{}", js_sys::encode_uri_component(&name));
                    if !browser::cache_put(STORE, &key, &bytes).await {
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

    let on_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            error.set(Some(format!("{name} is {:.0} MB; the page takes models up to {} MB (a 0.5B model in Q8_0 is about 530 MB)", file.size() / 1e6, MAX_BYTES / 1_000_000)));
            return;
        }
        spawn_local(async move {
            busy.set(Some(format!("Reading {name}…")));
            match browser::file_bytes(&file).await {
                Ok(bytes) => load_bytes(bytes, name, true).await,
                Err(e) => {
                    busy.set(None);
                    error.set(Some(e));
                }
            }
        });
    };

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
                    load_bytes(bytes, name, true).await;
                }
                Err(e) => {
                    busy.set(None);
                    error.set(Some(if e == browser::CANCELLED { "The download was cancelled; nothing was kept.".to_owned() } else { e }));
                }
            }
        });
    };

    let load_stored = move |key: String| {
        spawn_local(async move {
            busy.set(Some("Reading the stored model…".to_owned()));
            match browser::cache_get(STORE, &key).await {
                Some(bytes) => load_bytes(bytes, stored_name(&key), false).await,
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
        let (text, selected_name) = c.state.with_untracked(|s| (s.routing.requests.clone(), computed.analyses.get(s.selected).map(|a| a.display_name().to_owned()).unwrap_or_default()));
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
                        Ok(a) => answers.push(a),
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
        <div class="decoder" data-testid="decoder">
            <p class="note">"The chapter's own protocol, rerun in this page: a small instruction model sees every skill's "<code>"- name: description"</code>" line in its system prompt and answers with one name or NONE. A preview by a small model you bring, not any product's router; it runs on this device's CPU (wasm SIMD, in a worker of its own), and nothing is fetched unless you ask."</p>
            <div class="controls">
                <label class="button">"Open a GGUF model (SmolLM2, Qwen2.5-Instruct)"
                    <input type="file" class="visually-hidden" accept=".gguf" data-testid="decoder-file" on:change=on_file/>
                </label>
                {move || stored.get().into_iter().map(|(key, size)| {
                    let label = format!("Load the stored {}{}", stored_name(&key), size.map(|n| format!(" ({:.1} MB)", n as f64 / 1e6)).unwrap_or_default());
                    view! { <button data-testid="decoder-stored" on:click=move |_| load_stored(key.clone())>{label}</button> }
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
                <label>"Mode "
                    <select data-testid="decoder-mode" on:change=move |ev| mode.set(event_target_value(&ev))>
                        <option value="chapter" selected=move || mode.get() == "chapter">"the chapter's protocol: greedy answer, read as a name or NONE"</option>
                        <option value="choice" selected=move || mode.get() == "choice">"constrained choice: each name's and NONE's probability"</option>
                    </select>
                </label>
                <button data-testid="decoder-run" on:click=start_run disabled=move || busy.get().is_some() || model_line.get().is_empty()>"Run both arms on the requests"</button>
            </div>
            <details>
                <summary>"The system prompt the model sees (descriptions as written)"</summary>
                <pre class="prompt" data-testid="decoder-prompt">{move || {
                    let skills: Vec<(String, String)> = c.computed.with(|comp| comp.analyses.iter().map(|a| (a.display_name().to_owned(), a.description().unwrap_or("").trim().to_owned())).collect());
                    skillpg_decoder::protocol::system_prompt(&skills)
                }}</pre>
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
    let json = to_json(&run);
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
                        <tr data-testid="decoder-row" data-a-choice=a.choice.clone() data-b-choice=b.choice.clone() data-a-answer=ta data-b-answer=tb>
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
            Some(cmp) => {
                let p = cmp.paired;
                view! {
                    <div data-testid="decoder-comparison">
                        <p>{cmp.a.line("A", NONE)}</p>
                        <p>{cmp.b.line("B", NONE)}</p>
                        <table class="paired"><caption>"Paired outcomes on the same requests"</caption>
                            <tbody>
                                <tr><th scope="row">"both right"</th><td>{p.both}</td><th scope="row">"only A right"</th><td>{p.only_a}</td></tr>
                                <tr><th scope="row">"only B right"</th><td>{p.only_b}</td><th scope="row">"neither"</th><td>{p.neither}</td></tr>
                            </tbody>
                        </table>
                        <p data-testid="decoder-sign-test">{format!("Exact two-sided sign test on the {} discordant pairs: p = {:.4}.", p.only_a + p.only_b, p.p_value())}</p>
                    </div>
                }.into_any()
            }
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_from_the_workers_json() {
        let names = vec!["sql-review".to_owned(), "release-notes".to_owned()];
        let a = parse_answer(r#"{"answer":"release-notes","choice":1,"recognised":true,"distribution":null,"prefill_tokens":18,"generated_tokens":3,"prefix_tokens":300}"#, &names).expect("json");
        assert_eq!((a.choice.as_str(), a.recognised, a.prefill, a.prefix), ("release-notes", true, 18, 300));
        let b = parse_answer(r#"{"answer":"I think SQL","choice":null,"recognised":false,"distribution":null,"prefill_tokens":18,"generated_tokens":4,"prefix_tokens":300}"#, &names).expect("json");
        assert_eq!((b.choice.as_str(), b.text.as_deref()), (NONE, Some("I think SQL")));
        assert!(parse_answer("not json", &names).is_err());
    }
}
