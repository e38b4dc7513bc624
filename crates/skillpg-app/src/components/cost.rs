//! The chapter's arithmetic with editable inputs, a chart of the cumulative tokens and dollars
//! over the turns, and a slider that shows what sits in the context window at turn k.

use leptos::prelude::*;
use skillpg_core::cost::{CostInputs, CostPoint, cost, series};

use super::{ctx, n};

fn number_input(label: &'static str, id: &'static str, get: impl Fn() -> f64 + Send + Sync + 'static, set: impl Fn(f64) + 'static, step: &'static str) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id data-testid=id type="number" min="0" step=step prop:value=move || get().to_string()
                on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() { if v.is_finite() && v >= 0.0 { set(v) } } }/>
        </div>
    }
}

/// A polyline chart of several series over the turns.
fn chart(points: &[CostPoint], series: &[(&'static str, &'static str, fn(&CostPoint) -> f64)], unit: &'static str) -> impl IntoView + use<> {
    let points = points.to_vec();
    let series = series.to_vec();
    let max = points.iter().flat_map(|p| series.iter().map(move |(_, _, f)| f(p))).fold(0.0f64, f64::max).max(1e-9);
    let n_points = points.len().max(2) as f64;
    let x = move |i: usize| 40.0 + 560.0 * i as f64 / (n_points - 1.0);
    let y = move |v: f64| 190.0 - 170.0 * v / max;
    let label_max = if unit == "$" { format!("${max:.4}") } else { n(max as usize) };
    view! {
        <svg viewBox="0 0 640 220" role="img" aria-label=format!("Cumulative {} over turns", if unit == "$" { "dollars" } else { "tokens" })>
            <line x1="40" y1="190" x2="600" y2="190" class="axis"/>
            <line x1="40" y1="20" x2="40" y2="190" class="axis"/>
            <text x="0" y="24" class="chart-value">{label_max}</text>
            <text x="560" y="210" class="chart-value">{format!("turn {}", points.len())}</text>
            {series.iter().map(|(name, cls, f)| {
                let pts: String = points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1} ", x(i), y(f(p)))).collect();
                view! { <polyline points=pts class=format!("series {cls}") fill="none"><title>{*name}</title></polyline> }
            }).collect_view()}
        </svg>
        <ul class="legend">{series.iter().map(|(name, cls, _)| view! { <li><span class=format!("swatch {cls}")></span>{*name}</li> }).collect_view()}</ul>
    }
}

/// The cost view for the selected skill.
#[component]
pub fn CostPanel() -> impl IntoView {
    let c = ctx();
    let turn = RwSignal::new(1u64);
    let inputs = move || {
        let computed = c.computed.get();
        c.state.with(|s| {
            let a = computed.analyses.get(s.selected)?;
            let read: u64 = s.cost.read.iter().filter_map(|p| a.file(p)).map(|f| f.tokens() as u64).sum();
            Some(CostInputs {
                turns: s.cost.turns.max(1),
                level1: a.levels().level1 as u64,
                level2: a.levels().level2 as u64,
                level3: a.levels().level3 as u64,
                read_tokens: read,
                activate_at: Some(s.cost.activate_at.clamp(1, s.cost.turns.max(1))),
                price_per_million: s.cost.price,
                cached_price_per_million: s.cost.cached_price,
            })
        })
    };
    let files = move || {
        let computed = c.computed.get();
        c.state.with(|s| computed.analyses.get(s.selected).map(|a| a.files.iter().filter(|f| Some(&f.path) != a.skill_md_path.as_ref() && !f.is_binary()).map(|f| (f.path.clone(), f.tokens())).collect::<Vec<_>>()).unwrap_or_default())
    };
    view! {
        <div class="cost">
            <div class="cost-inputs">
                {number_input("Turns", "cost-turns", move || c.state.with(|s| s.cost.turns as f64), move |v| c.state.update(|s| s.cost.turns = (v as u64).clamp(1, 10_000)), "1")}
                {number_input("Skill used on turn", "cost-activate", move || c.state.with(|s| s.cost.activate_at as f64), move |v| c.state.update(|s| s.cost.activate_at = (v as u64).max(1)), "1")}
                {number_input("$ per million input tokens", "cost-price", move || c.state.with(|s| s.cost.price), move |v| c.state.update(|s| s.cost.price = v), "0.01")}
                {number_input("$ per million cached tokens", "cost-cached", move || c.state.with(|s| s.cost.cached_price), move |v| c.state.update(|s| s.cost.cached_price = v), "0.01")}
                <fieldset class="reads">
                    <legend>"Files read when the skill is used"</legend>
                    {move || files().into_iter().map(|(path, tokens)| {
                        let p = path.clone();
                        let checked = c.state.with(|s| s.cost.read.contains(&path));
                        view! {
                            <label><input type="checkbox" prop:checked=checked on:change=move |_| c.state.update(|s| {
                                if let Some(i) = s.cost.read.iter().position(|r| *r == p) { s.cost.read.remove(i); } else { s.cost.read.push(p.clone()); }
                            })/>{format!(" {path} ({} tokens)", n(tokens))}</label>
                        }
                    }).collect_view()}
                </fieldset>
            </div>
            {move || inputs().map(|inp| {
                let r = cost(&inp);
                let pts = series(&inp);
                let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
                view! {
                    <table class="cost-table" data-testid="cost-table">
                        <caption>{format!("{} turns; o200k_base tokens (approximate for other models)", inp.turns)}</caption>
                        <thead><tr><th scope="col"></th><th scope="col">"tokens"</th><th scope="col">"cost"</th><th scope="col">"cached"</th></tr></thead>
                        <tbody>
                            <tr data-testid="cost-system"><th scope="row">"everything in the system prompt"</th><td>{n(r.system_prompt.tokens as usize)}</td><td>{format!("${:.4}", r.system_prompt.usd)}</td><td>{format!("${:.4}", r.system_prompt.usd_cached)}</td></tr>
                            <tr data-testid="cost-used"><th scope="row">"as a skill, used once"</th><td>{n(r.skill_used.tokens as usize)}</td><td>{format!("${:.4}", r.skill_used.usd)}</td><td>{format!("${:.4}", r.skill_used.usd_cached)}</td></tr>
                            <tr data-testid="cost-unused"><th scope="row">"as a skill, never used"</th><td>{n(r.skill_unused.tokens as usize)}</td><td>{format!("${:.4}", r.skill_unused.usd)}</td><td>{format!("${:.4}", r.skill_unused.usd_cached)}</td></tr>
                        </tbody>
                    </table>
                    <p>{format!("The skill is {:.0}× cheaper used and {:.0}× cheaper unused. Caching makes a standing prompt cheaper, not smaller.", ratio(r.system_prompt.tokens, r.skill_used.tokens), ratio(r.system_prompt.tokens, r.skill_unused.tokens))}</p>
                    <div class="two-col">
                        <figure class="chart">{chart(&pts, &[
                            ("everything in the system prompt", "s-sp", |p| p.system_prompt_tokens as f64),
                            ("skill used", "s-used", |p| p.skill_used_tokens as f64),
                            ("skill never used", "s-unused", |p| p.skill_unused_tokens as f64),
                        ], "tokens")}<figcaption>"Cumulative input tokens"</figcaption></figure>
                        <figure class="chart">{chart(&pts, &[
                            ("system prompt", "s-sp", |p| p.system_prompt_usd),
                            ("system prompt, cached", "s-cached", |p| p.system_prompt_cached_usd),
                            ("skill used", "s-used", |p| p.skill_used_usd),
                            ("skill never used", "s-unused", |p| p.skill_unused_usd),
                        ], "$")}<figcaption>"Cumulative dollars"</figcaption></figure>
                    </div>
                }
            })}
            <ContextAtTurn turn=turn/>
        </div>
    }
}

/// For teaching: which level of which skill sits in the window at turn k.
#[component]
fn ContextAtTurn(turn: RwSignal<u64>) -> impl IntoView {
    let c = ctx();
    view! {
        <div class="at-turn">
            <label for="turn-slider">{move || format!("What is in the context window at turn {}", turn.get())}</label>
            <input id="turn-slider" data-testid="turn-slider" type="range" min="1" max=move || c.state.with(|s| s.cost.turns.max(1).to_string())
                prop:value=move || turn.get().to_string() on:input=move |ev| turn.set(event_target_value(&ev).parse().unwrap_or(1))/>
            <ul data-testid="in-context">
                {move || {
                    let computed = c.computed.get();
                    let k = turn.get();
                    c.state.with(|s| computed.analyses.iter().enumerate().map(|(idx, a)| {
                        let used = idx == s.selected && k >= s.cost.activate_at;
                        let reads: usize = if used { s.cost.read.iter().filter_map(|p| a.file(p)).map(|f| f.tokens()).sum() } else { 0 };
                        let what = if used {
                            format!("level 1 ({}) + level 2 ({}) + {} file(s) read ({}): {} tokens", n(a.levels().level1), n(a.levels().level2), s.cost.read.len(), n(reads), n(a.levels().level1 + a.levels().level2 + reads))
                        } else {
                            format!("level 1 only: {} tokens ({} tokens stay on disk)", n(a.levels().level1), n(a.levels().level2 + a.levels().level3))
                        };
                        view! { <li><strong>{a.display_name().to_owned()}</strong>": "{what}</li> }
                    }).collect_view())
                }}
            </ul>
        </div>
    }
}
