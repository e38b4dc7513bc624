//! The routing preview: which requests would activate which skill, or none, by a small
//! embedding model (all-MiniLM-L6-v2) run in a Web Worker (`model_worker.rs`): WebGPU or the wasm SIMD path, whichever a
//! measurement on the first load found faster;
//! thresholds, calibration, a collision matrix, the "thin it" switch and an honest A/B
//! comparison. A preview by a small model, not any product's router.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use skillpg_routing::NONE;
use skillpg_routing::decide::Thresholds;
use skillpg_routing::requests::{to_labelled_json, to_skill_creator_json};
use skillpg_routing::skills::RouteSkill;

use super::ctx;
use super::work::Work;
use crate::model_worker::ModelWorker;
use crate::routing_run::{COLLISION, RouteRun, texts_to_embed};
use crate::{browser, samples};

/// The routing view's signals, and what the person's actions do to them. `Copy`, so that every
/// handler takes it whole.
#[derive(Clone, Copy)]
struct Panel {
    c: super::Ctx,
    ui: super::models::ModelUi,
    run: RwSignal<Option<RouteRun>>,
    use_thin: RwSignal<bool>,
    /// A routing run in hand (one at a time).
    work: Work,
}

impl Panel {
    fn new() -> Panel {
        let c = ctx();
        Panel {
            c,
            ui: c.models.ui,
            run: RwSignal::new(None),
            use_thin: RwSignal::new(false),
            work: Work::new(c.status),
        }
    }

    fn thresholds(self) -> Thresholds {
        self.c.state.with(|s| Thresholds {
            tau: s.routing.tau,
            delta: s.routing.delta,
        })
    }

    async fn model(self) -> Option<Rc<ModelWorker>> {
        self.c.models.embedder(self.c.status).await
    }

    /// Embeds the skills (as written and thinned) and the requests in the worker, and keeps the run.
    /// The requests are read before the model loads, so nothing is downloaded for a run that
    /// cannot start; a second click while a run is in hand does nothing.
    fn start_run(self) {
        let c = self.c;
        let requests = match c.routing_requests() {
            Ok(r) if !r.is_empty() => r,
            Ok(_) => {
                return c
                    .status
                    .set("Type some requests first, one per line.".to_owned());
            }
            Err(e) => return c.status.set(format!("The requests could not be read: {e}")),
        };
        if !self.work.begin("Routing the requests…".to_owned()) {
            return;
        }
        spawn_local(async move {
            let Some(worker) = self.model().await else {
                return self
                    .work
                    .fail("the routing model could not be loaded".to_owned());
            };
            let computed = c.computed.get_untracked();
            let skills: Vec<RouteSkill> = computed
                .analyses
                .iter()
                .map(RouteSkill::from_analysis)
                .collect();
            let start = browser::now_ms();
            let batches = texts_to_embed(&skills, &requests);
            let total: usize = batches.iter().map(Vec::len).sum();
            // Each batch's embeddings come from the worker; the page stays live meanwhile.
            let steps = async {
                let mut vectors = Vec::with_capacity(3);
                let mut done = 0;
                for texts in &batches {
                    c.status.set(format!("Embedding: {done} of {total}…"));
                    let (v, line) = worker.embed(texts).await?;
                    self.ui.backend.set(line);
                    done += texts.len();
                    vectors.push(v);
                }
                <[Vec<Vec<f32>>; 3]>::try_from(vectors)
                    .map_err(|_| "three batches were embedded".to_owned())
            };
            match steps.await {
                Ok(vectors) => {
                    let ms = browser::now_ms() - start;
                    self.run
                        .set(Some(RouteRun::new(&skills, requests, vectors, ms)));
                    c.status.set(format!("Routed the requests over {} skills in {ms:.0} ms ({total} texts embedded or cached).", skills.len()));
                    self.work.finish();
                    c.models.measure_after_result(worker);
                }
                Err(e) => {
                    c.models.drop_embedder();
                    c.status.set(format!(
                        "The routing run failed: {e}. Route again to restart the model."
                    ));
                    self.work.fail(e);
                }
            }
        });
    }

    /// Sets τ and δ to what suits the labelled requests best.
    fn calibrate(self) {
        let Some(r) = self.run.get_untracked() else {
            return;
        };
        match r.calibrate(self.use_thin.get_untracked()) {
            Ok(cal) => {
                self.c.state.update(|s| {
                    s.routing.tau = cal.best.tau;
                    s.routing.delta = cal.best.delta;
                });
                let (n, tried, t, right) = (r.requests.len(), cal.n_tried, cal.best, cal.correct);
                self.c.status.set(format!("Calibrated on {n} labelled requests ({tried} pairs tried): τ {:.2}, δ {:.2}, {right} right.", t.tau, t.delta));
            }
            Err(e) => self.c.status.set(e),
        }
    }
}

/// The routing view.
#[component]
pub fn RoutingPanel() -> impl IntoView {
    let p = Panel::new();
    // A memo: the results redraw when τ or δ change, not on every edit of the state.
    let thresholds = Memo::new(move |_| p.thresholds());
    view! {
        <div class="routing" data-testid="routing">
            <p class="note">"A preview by a small embedding model (all-MiniLM-L6-v2, 6 layers) and word overlap (BM25), not any product's router: real agents route with a large model and do better. It shows the mechanism: what a description lets a request find."</p>
            // How the preview did on the public benchmark, and what the lesson looked like there.
            // One line in sight; why this router, folded beneath it (a first visit reads the
            // results, not four p-values).
            <p class="note" data-testid="routing-benchmark">{format!("The router here: the embedding preview fused with word overlap. {} Each pick below states how often picks with its lead were right there. Expect less on suites unlike these.", skillpg_routing::bench_report::BENCHMARK_LINE)}</p>
            <details class="note" data-testid="routing-choice">
                <summary>"Why this router, and how sure it is"</summary>
                <p>{format!("{} The stated chance was fitted on the other repositories and held within sampling error on each one it never saw.", skillpg_routing::bench_report::CHOICE_LINE)}</p>
            </details>
            <div class="controls">
                <button data-testid="routing-sample" on:click=move |_| {
                    // Nothing the person loaded or edited is replaced without asking.
                    let lost = p.c.state.with_untracked(|s| samples::would_replace(&s.skills, &samples::routing_inputs()));
                    if !lost.is_empty() && !browser::confirm(&samples::replace_question(&lost)) {
                        return p.c.status.set("The sample was not loaded: your skills are as they were.".to_owned());
                    }
                    p.c.state.update(|s| {
                        s.replace_skills(samples::routing_inputs());
                        s.selected = 0;
                        s.selected_file = "SKILL.md".into();
                        s.routing.requests = samples::ROUTING_REQUESTS.to_owned();
                    });
                    p.run.set(None);
                }>"Load the six-skill routing set"</button>
                <button data-testid="routing-run" on:click=move |_| p.start_run() disabled=move || p.ui.loading.get() || p.work.is_working()>{move || if p.work.is_working() { "Routing…" } else { "Route the requests" }}</button>
                <Show when=move || p.ui.loading.get()>
                    <super::progress::DownloadProgress download=p.ui.download test_id="model-progress" idle_label="Loading the model"/>
                </Show>
                <span data-testid="routing-backend">{move || {
                    let line = p.ui.backend.get();
                    let (words, details) = skillpg_routing::backend::split_details(&line);
                    let details = details.map(|d| view! { <details class="backend-details"><summary>"Details"</summary><code>{d.to_owned()}</code></details> });
                    view! { {words.to_owned()} {details} }
                }}</span>
            </div>
            {move || p.ui.not_kept.get().map(|why| view! { <p class="note" data-testid="model-not-kept">{why}</p> })}
            <Requests/>
            <Settings p=p/>
            {move || p.run.get().map(|r| view! { <Routes run=r t=thresholds.get() thinned=p.use_thin.get()/> })}
        </div>
    }
}

/// The requests: typed, or imported from a file.
#[component]
fn Requests() -> impl IntoView {
    let c = ctx();
    let import = move |ev: leptos::ev::Event| {
        browser::read_picked_text(&ev, move |text| match text {
            Ok(text) => c.state.update(|s| s.routing.requests = text),
            Err(e) => c.status.set(e),
        });
    };
    view! {
        <label class="button">"Import requests (JSON or text)"
            <input type="file" class="visually-hidden" accept=".json,.txt" data-testid="routing-import" on:change=import/>
        </label>
        <label for="routing-requests">"Requests: one per line, optionally `request => expected-skill` (or NONE); or a JSON list in skill-creator's or the multi-skill format"</label>
        <textarea id="routing-requests" data-testid="routing-requests" rows="8" prop:value=c.slice(|s| s.routing.requests.clone())
            on:input=move |ev| { let v = event_target_value(&ev); c.state.update(|s| s.routing.requests = v); }></textarea>
    }
}

/// τ, δ, calibration and the "thin it" switch.
#[component]
fn Settings(p: Panel) -> impl IntoView {
    let c = p.c;
    view! {
        <div class="controls">
            <label>"τ (threshold) " <input type="number" step="0.01" min="-1" max="1" data-testid="routing-tau" prop:value=move || format!("{:.2}", p.thresholds().tau)
                on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f32>() { c.state.update(|s| s.routing.tau = v) } }/></label>
            <label>"δ (margin) " <input type="number" step="0.01" min="0" max="1" data-testid="routing-delta" prop:value=move || format!("{:.2}", p.thresholds().delta)
                on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f32>() { c.state.update(|s| s.routing.delta = v) } }/></label>
            <button on:click=move |_| p.calibrate() data-testid="routing-calibrate">"Calibrate τ and δ"</button>
            <label><input type="checkbox" data-testid="routing-thin" prop:checked=move || p.use_thin.get() on:change=move |_| p.use_thin.update(|t| *t = !*t)/>" Thin it: cut every description to its bare subject"</label>
        </div>
    }
}

/// A run's decisions under `t`, its exports, the collision matrix and the comparison.
#[component]
fn Routes(run: RouteRun, t: Thresholds, thinned: bool) -> impl IntoView {
    let c = ctx();
    let r = run;
    let arm = r.arm(thinned, t);
    view! {
        <p>{format!("{} requests × {} skills in {:.0} ms.", r.requests.len(), arm.names.len(), r.ms)}</p>
        <table class="routes" data-testid="routes">
            <caption>{format!("Decision: the top skill by the fused score (the cosine and the word overlap, each scaled per request), or NONE where the best cosine is below τ {:.2} or the lead is within δ {:.2}. Descriptions {}.", t.tau, t.delta, if thinned { "thinned" } else { "as written" })}</caption>
            <thead><tr><th scope="col">"request"</th><th scope="col">"expected"</th><th scope="col">"choice"</th><th scope="col">"how sure"</th><th scope="col">"scores"</th></tr></thead>
            <tbody>
                {r.requests.iter().zip(&arm.decisions).map(|(q, d)| {
                    let choice = arm.name_of(d).to_owned();
                    let ok = q.label().is_none_or(|e| e == choice);
                    let scores_attr = d.scores().iter().map(|s| format!("{s:.5}")).collect::<Vec<_>>().join(",");
                    // The model's own cosines beside the fused scores the router ranked by.
                    let cosines_attr = match &d.evidence {
                        skillpg_routing::outcome::Evidence::Cosines { cosines, .. } => cosines.iter().map(|s| format!("{s:.5}")).collect::<Vec<_>>().join(","),
                        _ => String::new(),
                    };
                    view! {
                        <tr data-testid="route-row" data-choice=choice.clone() data-scores=scores_attr data-cosines=cosines_attr>
                            <th scope="row">{q.query.clone()}</th>
                            <td>{q.expected.clone()}</td>
                            <td class:none={choice == NONE} class:bad={!ok}>{if ok { choice.clone() } else { format!("{choice} ✗") }}</td>
                            <td class="sureness" data-testid="route-sureness">{sureness(&arm.names, d, &choice)}</td>
                            <td class="bars">{arm.names.iter().zip(d.scores()).map(|(n, s)| view! {
                                <span class="bar-row" title=format!("{n}: {s:.3}")><span class="bar-label">{n.clone()}</span><span class="bar-fill" data-score=format!("{s:.4}") style:width=format!("{:.1}%", (s.max(0.0) * 100.0).min(100.0))></span><span class="bar-value">{format!("{s:.2}")}</span></span>
                            }).collect_view()}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <div class="controls">
            // The export files are written when asked for, not on every render.
            <button data-testid="routing-export-json" on:click={let r = r.clone(); move |_| browser::download("routing.json", "application/json", r.json(thinned, t).as_bytes())}>"Export results (JSON)"</button>
            <button data-testid="routing-export-csv" on:click={let r = r.clone(); move |_| browser::download("routing.csv", "text/csv", r.csv(thinned, t).as_bytes())}>"Export results (CSV)"</button>
            <button on:click={let reqs = r.requests.clone(); move |_| browser::download("requests.json", "application/json", to_labelled_json(&reqs).as_bytes())}>"Export the labelled set"</button>
            <button data-testid="export-skill-creator" on:click={let reqs = r.requests.clone(); move |_| {
                // skill-creator evaluates one skill at a time: the selected one.
                let name = c.computed.with_untracked(|comp| c.state.with_untracked(|s| comp.analyses.get(s.selected).map(|a| a.display_name().to_owned()))).unwrap_or_default();
                browser::download(&format!("{name}.evals.json"), "application/json", to_skill_creator_json(&reqs, &name).as_bytes());
            }}>"Export for skill-creator (the selected skill)"</button>
        </div>
        <Collisions run=r.clone()/>
        <Comparison run=r t=t/>
    }
}

/// How sure the first pick is, from the benchmark's reliability table; a close call says so
/// and shows its runners-up. NONE and a decoder's answers have no such table.
fn sureness(names: &[String], d: &skillpg_routing::outcome::Decision, choice: &str) -> AnyView {
    let cosines = matches!(
        d.evidence,
        skillpg_routing::outcome::Evidence::Cosines { .. }
    );
    let s = (cosines && choice != NONE)
        .then(|| skillpg_routing::bench_report::sureness(names, d.scores()))
        .flatten();
    s.map(|s| {
        let chance = format!("{:.0}%", 100.0 * s.chance);
        let shown = chance.clone();
        let runners = s.close.then(|| view! {
            <span class="runners-up" data-testid="runners-up">{s.runners_up.iter().map(|(n, v)| format!("{n} {v:.2}")).collect::<Vec<_>>().join(", ")}</span>
        });
        view! { <span class:close-call=s.close data-testid="route-chance" data-chance=chance title=s.words.clone()>{shown}</span> " " <span class="sure-words">{s.words.clone()}</span> {runners} }
    })
    .into_any()
}

/// Skill-to-skill similarity, with a warning where two descriptions compete.
#[component]
fn Collisions(run: RouteRun) -> impl IntoView {
    let names = run.rich.names.clone();
    let warnings = run.collision_warnings();
    view! {
        <h3>"Collision matrix"</h3>
        <table class="collisions" data-testid="collisions">
            <caption>{format!("Cosine between descriptions; {COLLISION} or more is flagged.")}</caption>
            <thead><tr><th></th>{names.iter().map(|nm| view! { <th scope="col">{nm.clone()}</th> }).collect_view()}</tr></thead>
            <tbody>{run.collisions.iter().enumerate().map(|(i, row)| view! {
                <tr><th scope="row">{names[i].clone()}</th>{row.iter().enumerate().map(|(j, &v)| view! { <td class:bad={i != j && v >= COLLISION}>{format!("{v:.2}")}</td> }).collect_view()}</tr>
            }).collect_view()}</tbody>
        </table>
        {warnings.into_iter().map(|w| view! { <p class="warning">{w}</p> }).collect_view()}
    }
}

/// Descriptions as written (A) against thinned (B) on the labelled requests.
#[component]
fn Comparison(run: RouteRun, t: Thresholds) -> impl IntoView {
    let Ok(cmp) = run.comparison(t) else {
        return view! { <p>"Label every request (`request => skill` or NONE) to compare descriptions."</p> }.into_any();
    };
    let f = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |x| format!("{x:.2}"));
    let reading = cmp.thinning_reading();
    view! {
        <h3>"A/B: descriptions as written (A) against thinned (B)"</h3>
        <p class="note" data-testid="ab-reading">{reading}</p>
        <p class="note" data-testid="ab-benchmark">{skillpg_routing::bench_report::LESSON_LINE}</p>
        <div data-testid="comparison">
            <super::paired::PairedOutcomes cmp=cmp.stats sign_test_id="sign-test" note=" Overlapping intervals cannot rank two arms; the paired test can."/>
            <table class="per-skill"><caption>"Per skill: recall / precision, A | B"</caption>
                <tbody>{cmp.per_skill.into_iter().map(|s| view! {
                    <tr><th scope="row">{s.skill}</th><td>{format!("{} / {}", f(s.a_recall), f(s.a_precision))}</td><td>{format!("{} / {}", f(s.b_recall), f(s.b_precision))}</td></tr>
                }).collect_view()}</tbody>
            </table>
        </div>
    }
    .into_any()
}
