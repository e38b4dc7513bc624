//! The chapter's arithmetic with editable inputs, a chart of the cumulative tokens and dollars
//! over the turns, and a slider that shows what sits in the context window at turn k.

use leptos::prelude::*;
use skillpg_core::cost::{
    CostInputs, CostPoint, Level, WindowInputs, WindowPart, cheaper_phrase, cost, series, window_at,
};

use super::{Ctx, ctx, n};

fn number_input(
    label: &'static str,
    id: &'static str,
    get: impl Fn() -> f64 + Send + Sync + 'static,
    set: impl Fn(f64) + 'static,
    step: &'static str,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id data-testid=id type="number" min="0" step=step prop:value=move || get().to_string()
                on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() && v.is_finite() && v >= 0.0 { set(v) } }/>
        </div>
    }
}

/// One line of a chart: its label, its colour, and its value at a point.
type Series = (&'static str, &'static str, fn(&CostPoint) -> f64);

/// A polyline chart of several series over the turns.
fn chart(points: &[CostPoint], series: &[Series], unit: &'static str) -> impl IntoView + use<> {
    let points = points.to_vec();
    let series = series.to_vec();
    let max = points
        .iter()
        .flat_map(|p| series.iter().map(move |(_, _, f)| f(p)))
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let n_points = points.len().max(2) as f64;
    let x = move |i: usize| 40.0 + 560.0 * i as f64 / (n_points - 1.0);
    let y = move |v: f64| 190.0 - 170.0 * v / max;
    let label_max = if unit == "$" {
        format!("${max:.4}")
    } else {
        n(max as usize)
    };
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
    let turn = c.turn;
    let inputs = move || {
        let computed = c.computed.get();
        c.state.with(|s| {
            let a = computed.analyses.get(s.selected)?;
            let read: u64 = s
                .cost
                .read
                .iter()
                .filter_map(|p| a.file(p))
                .map(|f| f.tokens() as u64)
                .sum();
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
        c.state.with(|s| {
            computed
                .analyses
                .get(s.selected)
                .map(|a| {
                    a.files
                        .iter()
                        .filter(|f| Some(&f.path) != a.skill_md_path.as_ref() && !f.is_binary())
                        .map(|f| (f.path.clone(), f.tokens()))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
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
                    <p data-testid="cost-ratio">{format!("The skill is {} used and {} unused. Caching makes a standing prompt cheaper, not smaller.", cheaper_phrase(r.system_prompt.tokens, r.skill_used.tokens), cheaper_phrase(r.system_prompt.tokens, r.skill_unused.tokens))}</p>
                    // Each chart scrolls sideways on a narrow screen: it takes focus, so the keyboard
                    // can scroll it too.
                    <div class="two-col">
                        <figure class="chart" tabindex="0">{chart(&pts, &[
                            ("everything in the system prompt", "s-sp", |p| p.system_prompt_tokens as f64),
                            ("skill used", "s-used", |p| p.skill_used_tokens as f64),
                            ("skill never used", "s-unused", |p| p.skill_unused_tokens as f64),
                        ], "tokens")}<figcaption>"Cumulative input tokens"</figcaption></figure>
                        <figure class="chart" tabindex="0">{chart(&pts, &[
                            ("system prompt", "s-sp", |p| p.system_prompt_usd),
                            ("system prompt, cached", "s-cached", |p| p.system_prompt_cached_usd),
                            ("skill used", "s-used", |p| p.skill_used_usd),
                            ("skill never used", "s-unused", |p| p.skill_unused_usd),
                        ], "$")}<figcaption>"Cumulative dollars"</figcaption></figure>
                    </div>
                }
            })}
            <ContextWindow turn=turn/>
        </div>
    }
}

/// The window's inputs and the arithmetic's, for the selected skill as used and every loaded
/// skill installed.
pub(super) fn window_inputs(c: Ctx) -> Option<(WindowInputs, CostInputs)> {
    let computed = c.computed.get();
    c.state.with(|s| {
        let a = computed.analyses.get(s.selected)?;
        let turns = s.cost.turns.max(1);
        let activate_at = s.cost.activate_at.clamp(1, turns);
        let reads: Vec<(String, u64)> = s
            .cost
            .read
            .iter()
            .filter_map(|p| a.file(p))
            .map(|f| (f.path.clone(), f.tokens() as u64))
            .collect();
        let window = WindowInputs {
            listing: computed
                .analyses
                .iter()
                .map(|x| (x.display_name().to_owned(), x.levels().level1 as u64))
                .collect(),
            used: (a.display_name().to_owned(), a.levels().level2 as u64),
            reads: reads.clone(),
            activate_at: Some(activate_at),
        };
        let inputs = CostInputs {
            turns,
            level1: a.levels().level1 as u64,
            level2: a.levels().level2 as u64,
            level3: a.levels().level3 as u64,
            read_tokens: reads.iter().map(|(_, t)| t).sum(),
            activate_at: Some(activate_at),
            price_per_million: s.cost.price,
            cached_price_per_million: s.cost.cached_price,
        };
        Some((window, inputs))
    })
}

/// The context window at a turn, to scale: one block per part, as wide as its tokens against
/// the fullest window of the conversation (its last turn), coloured by level; new parts marked.
#[component]
pub(super) fn WindowBar(parts: Vec<WindowPart>, full: u64) -> impl IntoView {
    let full = full.max(1) as f64;
    let label = format!(
        "The context window: {} tokens from skills",
        n(parts.iter().map(|p| p.tokens as usize).sum())
    );
    view! {
        <div class="window-bar" data-testid="window-bar" role="img" aria-label=label>
            {parts.into_iter().map(|p| {
                let cls = match p.level { Level::One => "l1", Level::Two => "l2", Level::Three => "l3" };
                let pct = 100.0 * p.tokens as f64 / full;
                view! {
                    <span class=format!("window-part {cls}") class:new=p.new data-testid="window-part" data-tokens=p.tokens.to_string()
                        style:width=format!("{pct:.3}%") title=format!("{}: {} tokens", p.label, n(p.tokens as usize))>{p.label.clone()}</span>
                }
            }).collect_view()}
        </div>
    }
}

/// For teaching: which level of which skill sits in the window at turn k, to scale, stepped by
/// a slider or played along the turns; presenter mode shows the same full screen.
#[component]
fn ContextWindow(turn: RwSignal<u64>) -> impl IntoView {
    let c = ctx();
    let playing: StoredValue<Option<leptos::prelude::IntervalHandle>> = StoredValue::new(None);
    let is_playing = RwSignal::new(false);
    let stop = move || {
        if let Some(h) = playing.get_value() {
            h.clear();
        }
        playing.set_value(None);
        is_playing.set(false);
    };
    let play = move |_| {
        if is_playing.get_untracked() {
            stop();
            return;
        }
        let turns = c.state.with_untracked(|s| s.cost.turns.max(1));
        if turn.get_untracked() >= turns {
            turn.set(1);
        }
        is_playing.set(true);
        let handle = leptos::prelude::set_interval_with_handle(
            move || {
                let turns = c.state.with_untracked(|s| s.cost.turns.max(1));
                if turn.get_untracked() >= turns {
                    stop();
                } else {
                    turn.update(|t| *t += 1);
                }
            },
            std::time::Duration::from_millis(250),
        )
        .ok();
        playing.set_value(handle);
    };
    view! {
        <div class="at-turn">
            <h3>"The context window, turn by turn"</h3>
            <div class="controls">
                <label for="turn-slider">{move || format!("Turn {} of {}", turn.get(), c.state.with(|s| s.cost.turns.max(1)))}</label>
                <input id="turn-slider" data-testid="turn-slider" type="range" min="1" max=move || c.state.with(|s| s.cost.turns.max(1).to_string())
                    prop:value=move || turn.get().to_string() on:input=move |ev| { stop(); turn.set(event_target_value(&ev).parse().unwrap_or(1)) }/>
                <button data-testid="turn-play" on:click=play aria-pressed=move || is_playing.get().to_string()>{move || if is_playing.get() { "Pause" } else { "Play the turns" }}</button>
                <a class="button" href=move || format!("#view=present&turn={}", turn.get()) data-testid="presenter-link">"Presenter mode"</a>
            </div>
            {move || window_inputs(c).map(|(w, inp)| {
                let k = turn.get().min(inp.turns);
                let parts = window_at(&w, k);
                let full: u64 = window_at(&w, inp.turns).iter().map(|p| p.tokens).sum();
                let now: u64 = parts.iter().map(|p| p.tokens).sum();
                let point = series(&inp).get(k as usize - 1).copied();
                view! {
                    <WindowBar parts=parts.clone() full=full/>
                    <p class="hint">"To scale: the full width is the window at the last turn. Blue: level 1 of every installed skill; orange: the body (level 2); green: files read (level 3); outlined: what entered on this turn."</p>
                    <ul data-testid="in-context">
                        {parts.iter().map(|p| {
                            let what = match p.level { Level::One => "level 1", Level::Two => "level 2", Level::Three => "level 3, read on use" };
                            view! { <li class:new=p.new><strong>{p.label.clone()}</strong>{format!(" ({what}): {} tokens{}", n(p.tokens as usize), if p.new { ", entered on this turn" } else { "" })}</li> }
                        }).collect_view()}
                    </ul>
                    <p data-testid="window-numbers">{format!("In the window at turn {k}: {} tokens from skills.", n(now as usize))}
                        {point.map(|pt| format!(" Input so far: {} tokens (${:.4}) as a skill, against {} (${:.4}) with everything in the system prompt.", n(pt.skill_used_tokens as usize), pt.skill_used_usd, n(pt.system_prompt_tokens as usize), pt.system_prompt_usd))}</p>
                }
            })}
        </div>
    }
}
