//! Presenter mode (`#view=present&turn=k`): the context window at turn k, full screen in large
//! type, one turn a screen, stepped with the keyboard, for workshops. It shows the page's state,
//! so a share link that opens on it (the state, then `&view=present`) is a slide: a teacher
//! prepares a deck as links.

use leptos::prelude::*;
use skillpg_core::cost::{Level, series, window_at};

use super::cost::{WindowBar, window_inputs};
use super::{ctx, n};
use crate::browser;
use crate::state::View;

/// The overlay, shown while the view is presenter mode.
#[component]
pub fn Presenter() -> impl IntoView {
    let c = ctx();
    let turn = c.turn;
    let turns = move || c.state.with(|s| s.cost.turns.max(1));
    let leave = move || {
        c.view.set(View::Cost);
        browser::replace_hash("view=cost");
        browser::scroll_to("view-cost");
    };
    let step = move |to: u64| {
        let t = to.clamp(1, turns());
        turn.set(t);
        browser::replace_hash(&format!("view=present&turn={t}"));
    };
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if c.view.get_untracked() != View::Present {
            return;
        }
        let t = turn.get_untracked();
        match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" | "PageDown" | " " | "Enter" => step(t + 1),
            "ArrowLeft" | "ArrowUp" | "PageUp" | "Backspace" => step(t.saturating_sub(1)),
            "Home" => step(1),
            "End" => step(turns()),
            "Escape" => leave(),
            _ => return,
        }
        ev.prevent_default();
    });
    move || {
        (c.view.get() == View::Present).then(|| {
            let slide = window_inputs(c).map(|(w, inp)| {
                let k = turn.get().min(inp.turns);
                let at = inp.activate_at.unwrap_or(1);
                let parts = window_at(&w, k);
                let full: u64 = window_at(&w, inp.turns).iter().map(|p| p.tokens).sum();
                let now: u64 = parts.iter().map(|p| p.tokens).sum();
                let level1: u64 = parts.iter().filter(|p| p.level == Level::One).map(|p| p.tokens).sum();
                let point = series(&inp).get(k as usize - 1).copied();
                // One idea a screen: what this turn teaches.
                let idea = if k < at {
                    format!("Only level 1 is in the window: {} tokens, the name and description of every installed skill. The bodies stay on disk.", n(level1 as usize))
                } else if k == at {
                    format!("Turn {at}: the request matches, so the agent reads the body (level 2) and the files it points to (level 3). They enter now, once.")
                } else {
                    "The body and the files stay in the conversation; level 1 is sent with every request. Nothing else loads.".to_owned()
                };
                view! {
                    <p class="present-turn" data-testid="present-turn">{format!("Turn {k} of {}", inp.turns)}</p>
                    <p class="present-idea" data-testid="present-idea">{idea}</p>
                    <WindowBar parts=parts full=full/>
                    <p class="present-numbers">{format!("{} tokens from skills in the window", n(now as usize))}</p>
                    {point.map(|pt| view! {
                        <p class="present-numbers" data-testid="present-numbers">{format!("So far: {} tokens as a skill against {} with everything in the system prompt ({:.1}× more).", n(pt.skill_used_tokens as usize), n(pt.system_prompt_tokens as usize), pt.system_prompt_tokens as f64 / pt.skill_used_tokens.max(1) as f64)}</p>
                    })}
                }
            });
            view! {
                <div class="presenter" data-testid="presenter" role="dialog" aria-modal="true" aria-label="Presenter mode: the context window turn by turn">
                    {slide}
                    <p class="present-help">"→ or Space: next turn · ← back · Home / End · Esc: leave"</p>
                    <div class="present-controls">
                        <button on:click=move |_| step(turn.get_untracked().saturating_sub(1))>"← Back"</button>
                        <button data-testid="present-next" on:click=move |_| step(turn.get_untracked() + 1)>"Next turn →"</button>
                        <button on:click=move |_| leave()>"Leave"</button>
                    </div>
                </div>
            }
        })
    }
}
