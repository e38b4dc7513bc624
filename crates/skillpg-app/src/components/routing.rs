//! The routing preview: which requests would activate which skill, or none, by a small
//! embedding model (all-MiniLM-L6-v2) run in a Web Worker (`model_worker.rs`): WebGPU on a real GPU,
//! the wasm SIMD path otherwise;
//! thresholds, calibration, a collision matrix, the "thin it" switch and an honest A/B
//! comparison. A preview by a small model, not any product's router.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use skillpg_router::route::{self, Labelled, NONE, Thresholds};
use skillpg_stats::recall_precision;

use super::ctx;
use crate::model_worker::ModelWorker;
use crate::{browser, samples};

/// The embedding width of all-MiniLM-L6-v2.
const DIM: usize = 384;

thread_local! {
    // The worker that holds the model, once loaded (a JS handle: not Send, so not in a signal).
    static MODEL: RefCell<Option<Rc<ModelWorker>>> = const { RefCell::new(None) };
}

/// Forgets the worker (after it failed): the next run starts a fresh one.
fn drop_model() {
    MODEL.with(|m| m.borrow_mut().take());
}

/// What a run produced; decisions are derived from it with the current thresholds.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRun {
    /// Skill names, in catalog order.
    pub names: Vec<String>,
    /// The requests, labelled or not.
    pub requests: Vec<Labelled>,
    /// `[request][skill]` cosines with the descriptions as written.
    pub rich: Vec<Vec<f32>>,
    /// The same with every description cut to its bare subject.
    pub thin: Vec<Vec<f32>>,
    /// Skill-to-skill cosines (descriptions as written).
    pub collisions: Vec<Vec<f32>>,
    /// Milliseconds the run took (embeddings included).
    pub ms: f64,
}

/// Results as CSV (`query,expected,choice,<skill>...`).
fn to_csv(run: &RouteRun, choices: &[&str]) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!("query,expected,choice,{}\n", run.names.iter().map(|n| q(n)).collect::<Vec<_>>().join(","));
    for ((r, row), c) in run.requests.iter().zip(&run.rich).zip(choices) {
        out.push_str(&format!("{},{},{},{}\n", q(&r.query), q(&r.expected), q(c), row.iter().map(|s| format!("{s:.4}")).collect::<Vec<_>>().join(",")));
    }
    out
}

/// Results as JSON, the shape of `skillpg route --format json`.
fn to_json(run: &RouteRun, choices: &[&str]) -> String {
    let items: Vec<serde_json::Value> = run
        .requests
        .iter()
        .zip(&run.rich)
        .zip(choices)
        .map(|((r, row), c)| {
            let scores: serde_json::Map<String, serde_json::Value> = run.names.iter().zip(row).map(|(n, s)| (n.clone(), serde_json::json!(s))).collect();
            serde_json::json!({"query": r.query, "expected": r.expected, "choice": c, "scores": scores})
        })
        .collect();
    serde_json::to_string_pretty(
        &serde_json::json!({"model": "all-MiniLM-L6-v2", "note": "a preview by a small embedding model, not any product's router", "requests": items}),
    )
    .unwrap_or_default()
}

/// The routing view.
#[component]
pub fn RoutingPanel() -> impl IntoView {
    let c = ctx();
    let backend = RwSignal::new(String::new());
    let loading = RwSignal::new(false);
    // Bytes of the model downloaded so far, and in all when the server says.
    let download = RwSignal::new(None::<(u64, Option<u64>)>);
    let run = RwSignal::new(None::<RouteRun>);
    let use_thin = RwSignal::new(false);

    let load_model = move || async move {
        if MODEL.with(|m| m.borrow().is_some()) {
            return true;
        }
        loading.set(true);
        c.status.set("Loading the routing model (all-MiniLM-L6-v2, int8 weights, 24 MB, from this site)…".to_owned());
        let res: Result<ModelWorker, String> = async {
            let worker = ModelWorker::spawn("skillpg-routing-model")?;
            let vocab = String::from_utf8_lossy(&browser::fetch_bytes("model/vocab.txt", u64::MAX).await?).into_owned();
            let bytes = browser::fetch_with_progress("model/minilm-i8.spgm", 64 * 1024 * 1024, |loaded, total| {
                download.set(Some((loaded, total)));
            })
            .await?;
            download.set(None);
            c.status.set("Preparing the routing model in a worker…".to_owned());
            backend.set(worker.load(&bytes, &vocab, browser::force_webgpu()).await?);
            Ok(worker)
        }
        .await;
        loading.set(false);
        download.set(None);
        match res {
            Ok(worker) => {
                MODEL.with(|m| *m.borrow_mut() = Some(Rc::new(worker)));
                true
            }
            Err(e) => {
                c.status.set(format!("The routing model could not be loaded: {e}. Build the page after `bash scripts/fetch-model` to serve it."));
                false
            }
        }
    };

    let start_run = move |_| {
        spawn_local(async move {
            if !load_model().await {
                return;
            }
            let Some(worker) = MODEL.with(|m| m.borrow().clone()) else { return };
            let computed = c.computed.get_untracked();
            let (text, selected_name) =
                c.state.with_untracked(|s| (s.routing.requests.clone(), computed.analyses.get(s.selected).map(|a| a.display_name().to_owned()).unwrap_or_default()));
            let requests = match route::parse_requests(&text, Some(&selected_name)) {
                Ok(r) if !r.is_empty() => r,
                Ok(_) => {
                    c.status.set("Type some requests first, one per line.".to_owned());
                    return;
                }
                Err(e) => {
                    c.status.set(format!("The requests could not be read: {e}"));
                    return;
                }
            };
            let names: Vec<String> = computed.analyses.iter().map(|a| a.display_name().to_owned()).collect();
            let descriptions: Vec<String> = computed.analyses.iter().map(|a| a.description().unwrap_or("").trim().to_owned()).collect();
            let start = browser::now_ms();
            let total = names.len() * 2 + requests.len();
            let mut done = 0;
            // Each step's embeddings come from the worker; the page stays live meanwhile.
            let embed_all = |texts: Vec<String>| {
                let worker = worker.clone();
                async move {
                    let (vectors, line) = worker.embed(&texts, DIM).await?;
                    backend.set(line);
                    Ok::<_, String>(vectors)
                }
            };
            let steps = async {
                let rich = embed_all(names.iter().zip(&descriptions).map(|(n, d)| format!("{n}: {d}")).collect()).await?;
                done += names.len();
                c.status.set(format!("Embedding: {done} of {total}…"));
                let thin = embed_all(names.iter().zip(&descriptions).map(|(n, d)| format!("{n}: {}", route::thin(d))).collect()).await?;
                done += names.len();
                c.status.set(format!("Embedding: {done} of {total}…"));
                let requests = embed_all(requests.iter().map(|r| r.query.clone()).collect()).await?;
                Ok::<_, String>((rich, thin, requests))
            };
            let (rich_vecs, thin_vecs, req_vecs) = match steps.await {
                Ok(v) => v,
                Err(e) => {
                    drop_model();
                    backend.set(String::new());
                    c.status.set(format!("The routing run failed: {e}. Route again to restart the model."));
                    return;
                }
            };
            let ms = browser::now_ms() - start;
            run.set(Some(RouteRun {
                rich: route::score_matrix(&req_vecs, &rich_vecs),
                thin: route::score_matrix(&req_vecs, &thin_vecs),
                collisions: route::score_matrix(&rich_vecs, &rich_vecs),
                names,
                requests,
                ms,
            }));
            c.status.set(format!("Routed the requests over {} skills in {:.0} ms ({total} texts embedded or cached).", rich_vecs.len(), ms));
        });
    };

    let thresholds = move || c.state.with(|s| Thresholds { tau: s.routing.tau, delta: s.routing.delta });
    let calibrate = move |_| {
        let Some(r) = run.get_untracked() else { return };
        let labels: Vec<&str> = r.requests.iter().map(|q| q.expected.as_str()).collect();
        if labels.iter().any(|l| l.is_empty()) {
            c.status.set("Calibration needs every request labelled (`request => skill` or NONE).".to_owned());
            return;
        }
        let cal = route::calibrate(if use_thin.get_untracked() { &r.thin } else { &r.rich }, &r.names, &labels);
        c.state.update(|s| {
            s.routing.tau = cal.best.tau;
            s.routing.delta = cal.best.delta;
        });
        c.status.set(format!(
            "Calibrated on {} labelled requests ({} pairs tried): τ {:.2}, δ {:.2}, {} right.",
            labels.len(),
            cal.n_tried,
            cal.best.tau,
            cal.best.delta,
            cal.correct
        ));
    };

    view! {
        <div class="routing" data-testid="routing">
            <p class="note">"A preview by a small embedding model (all-MiniLM-L6-v2, 6 layers), not any product's router: real agents route with a large model and do better. It shows the mechanism: what a description lets a request find."</p>
            <div class="controls">
                <button data-testid="routing-sample" on:click=move |_| {
                    c.state.update(|s| {
                        s.skills = samples::routing_inputs();
                        s.selected = 0;
                        s.selected_file = "SKILL.md".into();
                        s.routing.requests = samples::ROUTING_REQUESTS.to_owned();
                    });
                    run.set(None);
                }>"Load the six-skill routing set"</button>
                <button data-testid="routing-run" on:click=start_run disabled=move || loading.get()>"Route the requests"</button>
                <Show when=move || loading.get()>
                    {move || match download.get() {
                        Some((loaded, Some(total))) => view! {
                            <progress data-testid="model-progress" aria-label="Downloading the model" max=total.to_string() value=loaded.to_string()></progress>
                            <span>{format!("{} of {} bytes", super::n(loaded as usize), super::n(total as usize))}</span>
                        }.into_any(),
                        Some((loaded, None)) => view! { <progress aria-label="Downloading the model"></progress><span>{format!("{} bytes", super::n(loaded as usize))}</span> }.into_any(),
                        None => view! { <progress aria-label="Loading the model"></progress> }.into_any(),
                    }}
                </Show>
                <span data-testid="routing-backend">{move || backend.get()}</span>
            </div>
            <label class="button">"Import requests (JSON or text)"
                <input type="file" class="visually-hidden" accept=".json,.txt" data-testid="routing-import" on:change=move |ev: leptos::ev::Event| {
                    use wasm_bindgen::JsCast;
                    let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
                    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
                    spawn_local(async move {
                        match browser::file_bytes(&file).await {
                            Ok(bytes) => c.state.update(|s| s.routing.requests = String::from_utf8_lossy(&bytes).into_owned()),
                            Err(e) => c.status.set(e),
                        }
                    });
                }/>
            </label>
            <label for="routing-requests">"Requests: one per line, optionally `request => expected-skill` (or NONE); or a JSON list in skill-creator's or the multi-skill format"</label>
            <textarea id="routing-requests" data-testid="routing-requests" rows="8" prop:value=move || c.state.with(|s| s.routing.requests.clone())
                on:input=move |ev| { let v = event_target_value(&ev); c.state.update(|s| s.routing.requests = v); }></textarea>
            <div class="controls">
                <label>"τ (threshold) " <input type="number" step="0.01" min="-1" max="1" data-testid="routing-tau" prop:value=move || format!("{:.2}", thresholds().tau)
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f32>() { c.state.update(|s| s.routing.tau = v) } }/></label>
                <label>"δ (margin) " <input type="number" step="0.01" min="0" max="1" data-testid="routing-delta" prop:value=move || format!("{:.2}", thresholds().delta)
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f32>() { c.state.update(|s| s.routing.delta = v) } }/></label>
                <button on:click=calibrate data-testid="routing-calibrate">"Calibrate τ and δ"</button>
                <label><input type="checkbox" data-testid="routing-thin" prop:checked=move || use_thin.get() on:change=move |_| use_thin.update(|t| *t = !*t)/>" Thin it: cut every description to its bare subject"</label>
            </div>
            {move || run.get().map(|r| {
                let t = thresholds();
                let matrix = if use_thin.get() { r.thin.clone() } else { r.rich.clone() };
                let choices = route::choices(&matrix, &r.names, t);
                let choices_owned: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
                let csv = to_csv(&RouteRun { rich: matrix.clone(), ..r.clone() }, &choices);
                let json = to_json(&RouteRun { rich: matrix.clone(), ..r.clone() }, &choices);
                view! {
                    <p>{format!("{} requests × {} skills in {:.0} ms.", r.requests.len(), r.names.len(), r.ms)}</p>
                    <table class="routes" data-testid="routes">
                        <caption>{format!("Decision: the top skill by cosine, or NONE below τ {:.2} or within δ {:.2} of the second. Descriptions {}.", t.tau, t.delta, if use_thin.get() { "thinned" } else { "as written" })}</caption>
                        <thead><tr><th scope="col">"request"</th><th scope="col">"expected"</th><th scope="col">"choice"</th><th scope="col">"scores"</th></tr></thead>
                        <tbody>
                            {r.requests.iter().zip(&matrix).zip(choices_owned).map(|((q, row), choice)| {
                                let ok = q.expected.is_empty() || q.expected == choice;
                                let scores_attr = row.iter().map(|s| format!("{s:.5}")).collect::<Vec<_>>().join(",");
                                view! {
                                    <tr data-testid="route-row" data-choice=choice.clone() data-scores=scores_attr>
                                        <th scope="row">{q.query.clone()}</th>
                                        <td>{q.expected.clone()}</td>
                                        <td class:none={choice == NONE} class:bad={!ok}>{if ok { choice.clone() } else { format!("{choice} ✗") }}</td>
                                        <td class="bars">{r.names.iter().zip(row).map(|(n, s)| view! {
                                            <span class="bar-row" title=format!("{n}: {s:.3}")><span class="bar-label">{n.clone()}</span><span class="bar-fill" data-score=format!("{s:.4}") style:width=format!("{:.1}%", (s.max(0.0) * 100.0).min(100.0))></span><span class="bar-value">{format!("{s:.2}")}</span></span>
                                        }).collect_view()}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <div class="controls">
                        <button on:click={let json = json.clone(); move |_| browser::download("routing.json", "application/json", json.as_bytes())}>"Export results (JSON)"</button>
                        <button on:click={let csv = csv.clone(); move |_| browser::download("routing.csv", "text/csv", csv.as_bytes())}>"Export results (CSV)"</button>
                        <button on:click={let reqs = r.requests.clone(); move |_| browser::download("requests.json", "application/json", route::to_labelled_json(&reqs).as_bytes())}>"Export the labelled set"</button>
                        <button data-testid="export-skill-creator" on:click={let reqs = r.requests.clone(); move |_| {
                            // skill-creator evaluates one skill at a time: the selected one.
                            let name = c.computed.with_untracked(|comp| c.state.with_untracked(|s| comp.analyses.get(s.selected).map(|a| a.display_name().to_owned()))).unwrap_or_default();
                            browser::download(&format!("{name}.evals.json"), "application/json", route::to_skill_creator_json(&reqs, &name).as_bytes());
                        }}>"Export for skill-creator (the selected skill)"</button>
                    </div>
                    <Collisions run=r.clone()/>
                    <Comparison run=r.clone() t=t/>
                }
            })}
        </div>
    }
}

/// Skill-to-skill similarity, with a warning where two descriptions compete.
#[component]
fn Collisions(run: RouteRun) -> impl IntoView {
    let n = run.names.len();
    let mut warnings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if run.collisions[i][j] >= 0.6 {
                warnings.push(format!("{} and {} compete (cosine {:.2}): a request for one may reach the other.", run.names[i], run.names[j], run.collisions[i][j]));
            }
        }
    }
    view! {
        <h3>"Collision matrix"</h3>
        <table class="collisions" data-testid="collisions">
            <caption>"Cosine between descriptions; 0.6 or more is flagged."</caption>
            <thead><tr><th></th>{run.names.iter().map(|nm| view! { <th scope="col">{nm.clone()}</th> }).collect_view()}</tr></thead>
            <tbody>{(0..n).map(|i| view! {
                <tr><th scope="row">{run.names[i].clone()}</th>{(0..n).map(|j| { let v = run.collisions[i][j]; view! { <td class:bad={i != j && v >= 0.6}>{format!("{v:.2}")}</td> } }).collect_view()}</tr>
            }).collect_view()}</tbody>
        </table>
        {warnings.into_iter().map(|w| view! { <p class="warning">{w}</p> }).collect_view()}
    }
}

/// Descriptions as written (A) against thinned (B) on the labelled requests.
#[component]
fn Comparison(run: RouteRun, t: Thresholds) -> impl IntoView {
    let labelled = run.requests.iter().all(|r| !r.expected.is_empty());
    if !labelled {
        return view! { <p>"Label every request (`request => skill` or NONE) to compare descriptions."</p> }.into_any();
    }
    let expected: Vec<&str> = run.requests.iter().map(|r| r.expected.as_str()).collect();
    let a = route::choices(&run.rich, &run.names, t);
    let b = route::choices(&run.thin, &run.names, t);
    let cmp = skillpg_stats::compare(&expected, &a, &b, NONE);
    view! {
        <h3>"A/B: descriptions as written (A) against thinned (B)"</h3>
        <div data-testid="comparison">
            <super::paired::PairedOutcomes cmp=cmp sign_test_id="sign-test" note=" Overlapping intervals cannot rank two arms; the paired test can."/>
            <table class="per-skill"><caption>"Per skill: recall / precision, A | B"</caption>
                <tbody>{run.names.iter().map(|nm| {
                    let f = |v: Option<f64>| v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "–".into());
                    let (r1, p1) = recall_precision(&expected, &a, nm);
                    let (r2, p2) = recall_precision(&expected, &b, nm);
                    view! { <tr><th scope="row">{nm.clone()}</th><td>{format!("{} / {}", f(r1), f(p1))}</td><td>{format!("{} / {}", f(r2), f(p2))}</td></tr> }
                }).collect_view()}</tbody>
            </table>
        </div>
    }
    .into_any()
}
