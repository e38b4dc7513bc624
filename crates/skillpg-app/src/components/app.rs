//! The page: state, persistence, and the layout of the views.

use leptos::prelude::*;

use super::Ctx;
use super::cost::CostPanel;
use super::decoder::DecoderPanel;
use super::diagnostics::{DiagnosticsPanel, RulesReference, VerdictTable};
use super::editor::Editor;
use super::lab::LabPanel;
use super::levels::LevelsPanel;
use super::loaders::Loaders;
use super::presenter::Presenter;
use super::routing::RoutingPanel;
use super::share::SharePanel;
use super::tokens::TokenView;
use crate::state::{self, PageState, View};
use crate::{browser, compute, samples};

/// The initial state: a share link, else what this browser saved, else the good sample.
fn initial_state(status: &mut String) -> PageState {
    let hash = browser::location_hash();
    if let Some(res) = state::decode_fragment(&hash) {
        // The link has been read: drop its state from the address, so that a reload shows the
        // edits made since (saved in this browser), not the link's state again; keep its view.
        match state::fragment_without_state(&hash) {
            rest if rest.is_empty() => browser::clear_hash(),
            rest => browser::replace_hash(&rest),
        }
        match res {
            Ok(s) => return s,
            Err(message) => {
                *status = format!(
                    "The share link could not be opened: {message}. Your saved work is shown instead."
                )
            }
        }
    }
    if let Some(saved) = browser::load_state()
        && let Ok(s) = state::decode(&saved)
    {
        return s;
    }
    PageState {
        skills: vec![samples::SAMPLES[0].input()],
        selected_file: "SKILL.md".into(),
        profile: "spec".into(),
        ..PageState::default()
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let mut first_status = String::new();
    let state = RwSignal::new(initial_state(&mut first_status));
    let status = RwSignal::new(first_status);
    // The report depends on the skills alone: editing cost inputs, the profile or the routing
    // requests must not re-analyze and re-tokenize every file. This memo notifies only when the
    // skills really change.
    let skills = Memo::new(move |_| {
        state.with(|s| {
            (
                s.skills.clone(),
                s.together(),
                s.window(),
                s.listing.clone(),
            )
        })
    });
    let computed = Memo::new(move |_| {
        skills.with(|(s, together, window, listing)| {
            compute(s, *together, *window, listing.settings())
        })
    });
    let view = RwSignal::new(View::from_fragment(&browser::location_hash()).unwrap_or_default());
    let turn = RwSignal::new(state::turn_from_fragment(&browser::location_hash()).unwrap_or(1));
    provide_context(Ctx {
        state,
        computed,
        status,
        view,
        turn,
        models: super::models::Models::default(),
    });
    let (reading, follow_hash) = navigation(view, turn);
    let follow_link =
        view.get_untracked() != View::Check || browser::location_hash().starts_with("#rule-");
    let rest_built = build_rest_after_first_paint(follow_hash, follow_link);
    let later = move |build: fn() -> AnyView| move || rest_built.get().then(build);

    save_while_editing(state, status);
    browser::register_service_worker();

    // The system's preference until a person chooses; then their choice, remembered.
    let dark = RwSignal::new(browser::prefers_dark());
    let section = move |v: View| format!("view-{}", v.key());
    view! {
        <div class="page" class:dark=move || dark.get() data-built=move || rest_built.get().then_some("all")>
            <a class="skip-link" href="#view-check">"Skip to the checks"</a>
            <header class="top">
                <h1>"Skill Playground"</h1>
                <p class="tagline">"Drop an Agent Skill: see it checked against the spec and the products, counted level by level, and priced. Nothing leaves your browser."</p>
                <button class="theme" aria-pressed=move || dark.get().to_string() on:click=move |_| { dark.update(|d| *d = !*d); browser::save_theme(dark.get_untracked()); }>
                    {move || if dark.get() { "Light theme" } else { "Dark theme" }}
                </button>
            </header>
            <nav class="views" aria-label="Views" data-testid="view-nav">
                {View::NAV.into_iter().map(|v| view! {
                    <a href=format!("#view={}", v.key()) data-view=v.key() aria-current=move || (reading.get() == v).then_some("true")>{v.title()}</a>
                }).collect_view()}
            </nav>
            <p class="note" data-testid="tokenizer-note">
                "Token counts are o200k_base (OpenAI's encoding); Claude, Gemini and other models tokenize differently, so every count is an approximation for them."
            </p>
            <div class="status" role="status" aria-live="polite" data-testid="status">{move || status.get()}</div>
            <Loaders/>
            <main class="grid" id="main">
                <section class="panel editor-panel" aria-labelledby="h-editor">
                    <h2 id="h-editor">"SKILL.md"</h2>
                    <Editor/>
                </section>
                <section class="panel" aria-labelledby="h-verdicts" id=section(View::Check) tabindex="-1">
                    <h2 id="h-verdicts">"Where it loads"</h2>
                    <VerdictTable/>
                    <DiagnosticsPanel/>
                </section>
                <section class="panel wide" aria-labelledby="h-levels" id=section(View::Levels) tabindex="-1">
                    <h2 id="h-levels">"Levels"</h2>
                    <LevelsPanel/>
                </section>
                <section class="panel wide" aria-labelledby="h-tokens" id=section(View::Tokens) tabindex="-1">
                    <h2 id="h-tokens">"Tokens"</h2>
                    {later(|| view! { <TokenView/> }.into_any())}
                </section>
                <section class="panel wide" aria-labelledby="h-cost" id=section(View::Cost) tabindex="-1">
                    <h2 id="h-cost">"Cost over a conversation"</h2>
                    {later(|| view! { <CostPanel/> }.into_any())}
                </section>
                <section class="panel wide" aria-labelledby="h-routing" id=section(View::Routing) tabindex="-1">
                    <h2 id="h-routing">"Routing preview"</h2>
                    {later(|| view! {
                        <RoutingPanel/>
                        <h3 id="h-lab">"Why doesn't my skill trigger? The description lab"</h3>
                        <LabPanel/>
                        <h3 id="h-decoder">"The chapter's experiment: an instruction model answers"</h3>
                        <DecoderPanel/>
                    }.into_any())}
                </section>
                <section class="panel wide" aria-labelledby="h-share" id=section(View::Share) tabindex="-1">
                    <h2 id="h-share">"Share and export"</h2>
                    {later(|| view! { <SharePanel/> }.into_any())}
                </section>
                <section class="panel wide" aria-labelledby="h-rules" id=section(View::Rules) tabindex="-1">
                    <h2 id="h-rules">"Rules"</h2>
                    {later(|| view! { <RulesReference/> }.into_any())}
                </section>
            </main>
            {later(|| view! { <Presenter/> }.into_any())}
            <footer>
                <p>{move || format!("Report computed in {:.1} ms in this browser.", computed.get().elapsed_ms)}</p>
                <p>"The spec profile follows skills-ref 0.1.1; product profiles are dated in each message's source. Counts: o200k_base."</p>
            </footer>
        </div>
    }
}

/// The navigation: each view has a fragment (`#view=cost`), and following one scrolls to its
/// section (a link's fragment does so on load); `#rule-<name>` opens that rule in the reference.
/// The view being read, for the navigation's mark, is followed on scroll; `view` changes only
/// when a person chooses one (a share link carries that one, not the Share section's). Returns
/// the view being read and the fragment's follower.
fn navigation(view: RwSignal<View>, turn: RwSignal<u64>) -> (RwSignal<View>, impl Fn() + Copy) {
    let reading = RwSignal::new(view.get_untracked());
    let follow_hash = move || {
        let hash = browser::location_hash();
        if let Some(v) = View::from_fragment(&hash) {
            view.set(v);
            reading.set(v);
            if let Some(t) = state::turn_from_fragment(&hash) {
                turn.set(t);
            }
            if v != View::Present {
                browser::scroll_to(&format!("view-{}", v.key()));
            }
        } else if let Some(rule) = hash.strip_prefix("#rule-") {
            view.set(View::Rules);
            browser::open_details(&format!("rule-{rule}"));
        }
    };
    let _ = window_event_listener(leptos::ev::hashchange, move |_| follow_hash());
    // The navigation marks the view being read: the last section whose top has passed under
    // the navigation bar (checked once a frame at most while scrolling).
    let spy_pending = StoredValue::new(false);
    let _ = window_event_listener(leptos::ev::scroll, move |_| {
        if spy_pending.get_value() || view.get_untracked() == View::Present {
            return;
        }
        spy_pending.set_value(true);
        request_animation_frame(move || {
            spy_pending.set_value(false);
            let tops: Vec<(View, f64)> = View::NAV
                .into_iter()
                .filter_map(|v| browser::element_top(&format!("view-{}", v.key())).map(|t| (v, t)))
                .collect();
            if let Some(current) = crate::state::view_in_reading(&tops, 140.0)
                && reading.get_untracked() != current
            {
                reading.set(current);
            }
        });
    });
    (reading, follow_hash)
}

/// The views below the levels, built after the first frame is painted: on one busy core
/// building them first (and compiling their code, which the browser does on first call) delayed
/// the first paint of the checks and levels by about a third (640 against 424 ms,
/// BENCHMARKS.md). A link's view is followed once they exist (`follow_link`), so it scrolls to
/// where the section ends up. The signal turns true when they may be built.
fn build_rest_after_first_paint(
    follow_hash: impl Fn() + Copy + 'static,
    follow_link: bool,
) -> RwSignal<bool> {
    let rest_built = RwSignal::new(false);
    request_animation_frame(move || {
        leptos::prelude::set_timeout(
            move || {
                rest_built.set(true);
                if follow_link {
                    leptos::prelude::set_timeout(follow_hash, std::time::Duration::from_millis(0));
                }
            },
            std::time::Duration::from_millis(0),
        );
    });
    rest_built
}

/// Effects sync with the outside world only: local storage, so a reload keeps the work. Saving
/// waits until the state has rendered and typing pauses: encoding a large skill on every
/// keystroke would slow the editor, and a state that panics is never saved.
fn save_while_editing(state: RwSignal<PageState>, status: RwSignal<String>) {
    let pending_save: StoredValue<Option<leptos::prelude::TimeoutHandle>> = StoredValue::new(None);
    // Whether the waiting save holds a person's change (not the state the page opened with,
    // which storage or the link already holds).
    let pending_change = StoredValue::new(false);
    Effect::new(move |prev: Option<()>| {
        state.track();
        pending_change.set_value(prev.is_some());
        if let Some(handle) = pending_save.get_value() {
            handle.clear();
        }
        let handle = leptos::prelude::set_timeout_with_handle(
            move || {
                pending_save.set_value(None);
                let encoded = state.with_untracked(state::encode);
                if !browser::save_state(&encoded) {
                    status.set("This browser refused to save the state (storage full or disabled); use a share link or the zip.".to_owned());
                }
            },
            std::time::Duration::from_millis(400),
        )
        .ok();
        pending_save.set_value(handle);
    });
    // A reload or a closed tab within the pause must not lose the last change: the save still
    // waiting runs as the page goes. Only a change's: the opening state is not written back
    // over storage someone cleared meanwhile.
    let _ = window_event_listener(leptos::ev::pagehide, move |_| {
        if let Some(handle) = pending_save
            .get_value()
            .filter(|_| pending_change.get_value())
        {
            handle.clear();
            pending_save.set_value(None);
            let encoded = state.with_untracked(state::encode);
            let _ = browser::save_state(&encoded);
        }
    });
}
