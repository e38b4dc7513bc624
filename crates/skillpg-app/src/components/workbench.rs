//! The workbench's frame: the views' tab bar, the split between the panes (moved by pointer or
//! keyboard, remembered), and the selected skill's files in the left pane.

use leptos::prelude::*;

use super::{ctx, n};
use crate::browser;
use crate::state::View;

/// The left pane's width on a first visit, in CSS pixels.
pub const DEFAULT_SPLIT_PX: f64 = 480.0;
/// The narrowest either pane may be made.
const MIN_PANE_PX: f64 = 300.0;
/// One arrow key's move of the split.
const SPLIT_STEP_PX: f64 = 24.0;

/// The split's width held within the window (both panes at least `MIN_PANE_PX` wide).
fn clamp_split(width: f64) -> f64 {
    let window = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(1280.0);
    width.clamp(MIN_PANE_PX, (window - MIN_PANE_PX).max(MIN_PANE_PX))
}

/// The handle between the panes: drag it, or focus it and use the arrow keys (Home and End go
/// to the narrowest and widest). A window separator as WAI-ARIA describes one.
#[component]
pub fn Splitter(width: RwSignal<f64>) -> impl IntoView {
    let dragging = StoredValue::new(false);
    let set = move |w: f64| {
        let w = clamp_split(w);
        width.set(w);
        browser::save_split(w);
    };
    let _ = window_event_listener(leptos::ev::pointermove, move |ev| {
        if dragging.get_value() {
            set(ev.client_x() as f64);
        }
    });
    let _ = window_event_listener(leptos::ev::pointerup, move |_| dragging.set_value(false));
    view! {
        <div class="splitter" role="separator" aria-orientation="vertical" tabindex="0"
            aria-label="Resize the panes" aria-controls="main" data-testid="splitter"
            aria-valuenow=move || format!("{:.0}", width.get())
            aria-valuemin=MIN_PANE_PX.to_string()
            on:pointerdown=move |ev: leptos::ev::PointerEvent| { ev.prevent_default(); dragging.set_value(true); }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                let w = width.get_untracked();
                let next = match ev.key().as_str() {
                    "ArrowLeft" => w - SPLIT_STEP_PX,
                    "ArrowRight" => w + SPLIT_STEP_PX,
                    "Home" => MIN_PANE_PX,
                    "End" => f64::INFINITY,
                    _ => return,
                };
                ev.prevent_default();
                set(next);
            }
            on:dblclick=move |_| set(DEFAULT_SPLIT_PX)></div>
    }
}

/// The views' tab bar: each tab is a link to its fragment (`#view=cost`), so a view can be
/// bookmarked, opened in a new tab and shared; the current one is marked. A plain click shows
/// the view at once rather than through the address's `hashchange`: that event comes a task
/// later, and the address written after a pause in editing (`write_address`) could replace the
/// fragment first, so the click was lost (seen in CI: the Lab tab clicked on a fresh page
/// never opened).
#[component]
pub fn ViewTabs(view: RwSignal<View>) -> impl IntoView {
    let choose = move |ev: leptos::ev::MouseEvent, v: View| {
        let plain =
            ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key());
        if plain {
            ev.prevent_default();
            view.set(v);
            // On a narrow screen the panes stack and the view starts below the first screen:
            // the chosen view is brought into sight (on a wide one it is already there).
            if crate::browser::is_narrow() {
                let id = format!("view-{}", v.key());
                request_animation_frame(move || crate::browser::scroll_to(&id));
            }
        }
    };
    view! {
        <nav class="views" aria-label="Views" data-testid="view-nav">
            {View::NAV.into_iter().map(|v| view! {
                <a href=format!("#view={}", v.key()) data-view=v.key() on:click=move |ev| choose(ev, v)
                    aria-current=move || (view.get() == v || (view.get() == View::Present && v == View::Cost)).then_some("true")>{v.title()}</a>
            }).collect_view()}
        </nav>
    }
}

/// The selected skill's files: SKILL.md (level 2) and its bundled files (level 3), each with
/// its tokens; choosing one shows its tokens.
#[component]
pub fn FileTree() -> impl IntoView {
    let c = ctx();
    let files = Memo::new(move |_| {
        let computed = c.computed.get();
        let selected = c.state.with(|s| s.selected);
        computed
            .analyses
            .get(selected)
            .map(|a| {
                let md = a.skill_md_path.clone();
                a.files
                    .iter()
                    .map(|f| {
                        let is_md = Some(&f.path) == md.as_ref();
                        let tokens = if is_md {
                            format!("body {} tok", n(a.body_tokens()))
                        } else if f.is_binary() {
                            "binary".to_owned()
                        } else if f.too_large {
                            "too large".to_owned()
                        } else {
                            format!("{} tok", n(f.tokens()))
                        };
                        (f.path.clone(), tokens, is_md)
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    let current = move || c.state.with(|s| s.selected_file.clone());
    view! {
        <Show when=move || files.with(|f| f.len() > 1)>
            <details class="file-tree" data-testid="file-tree" open=true>
                <summary>{move || format!("Files ({})", files.with(Vec::len))}</summary>
                <ul>
                    {move || files.get().into_iter().map(|(path, tokens, is_md)| {
                        let chosen = path.clone();
                        let here = path.clone();
                        view! {
                            <li class:level2=is_md>
                                <a href="#view=tokens" aria-current=move || (current() == here).then_some("true")
                                    on:click=move |_| c.state.update(|s| s.selected_file = chosen.clone())>{path}</a>
                                <span class="muted">{tokens}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </details>
        </Show>
    }
}
