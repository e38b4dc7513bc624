//! The page: state, persistence, and the layout of the views.

use leptos::prelude::*;

use super::Ctx;
use super::cost::CostPanel;
use super::decoder::DecoderPanel;
use super::diagnostics::{
    CatalogFindings, DiagnosticsPanel, RulesReference, VerdictTable, WhereToPut,
};
use super::editor::Editor;
use super::lab::LabPanel;
use super::levels::LevelsPanel;
use super::loaders::{Catalog, Loaders};
use super::presenter::Presenter;
use super::routing::RoutingPanel;
use super::share::SharePanel;
use super::tokens::TokenView;
use super::workbench::{DEFAULT_SPLIT_PX, FileTree, Splitter, ViewTabs};
use crate::state::{self, PageState, View};
use crate::{browser, compute, samples};

/// Starts saving the work: once saved work is back (`restore_saved`), at once otherwise, and
/// not at all while a link's skills wait for the visitor's choice, or while another tab of this
/// browser is the one that saves (`browser::claim_writer`).
fn start_saving(
    saved_index: Option<String>,
    shared_over: RwSignal<Option<String>>,
    restored: RwSignal<bool>,
) -> Saver {
    let c = super::ctx();
    let saver = Saver::new(shared_over);
    match saved_index {
        Some(index) => restore_saved(index, c.state, c.status, saver, restored),
        // A link over saved work: nothing is saved until the visitor chooses.
        None => saver.ready.set_value(shared_over.get_untracked().is_none()),
    }
    claim_writer(c, saver, false);
    save_while_editing(c.state, c.status, saver, restored, shared_over);
    follow_links_opened_here(saver, shared_over, restored);
    saver
}

/// Asks to be this browser's one writer of the saved work (`steal`: take it from the tab that
/// is); a tab that is not says so in its banner and saves nothing (`writer_banner`) until it
/// becomes the writer, when the other tab closes or the person takes over.
fn claim_writer(c: Ctx, saver: Saver, steal: bool) {
    browser::claim_writer(
        steal,
        move |_| {
            let was_other = saver.writer.get_untracked() == Writer::OtherTab;
            saver.writer.set(Writer::Yes);
            if steal || was_other {
                take_over_saved_work(c, saver);
            } else {
                // A change made while the page asked is saved now.
                saver.save(c.state, c.status, false);
            }
        },
        move || saver.writer.set(Writer::OtherTab),
        move || {
            saver.writer.set(Writer::OtherTab);
            c.status.set("Another tab of this browser now saves this workspace: changes made here are no longer saved.".to_owned());
        },
    );
}

/// This tab has become the writer: the other tab's newest saved work comes in, with this
/// tab's own skills that differ from it beside it (renamed where a name is taken), so neither
/// tab's work is lost. A tab showing a link's skills keeps showing them: the newest saved work
/// becomes what "back to my work" brings back, and nothing of the link joins it unasked.
fn take_over_saved_work(c: Ctx, saver: Saver) {
    let Some(index) = browser::load_state() else {
        saver.save(c.state, c.status, false);
        return;
    };
    if saver.shared_over.with_untracked(Option::is_some) {
        saver.shared_over.set(Some(index));
        c.status.set("This tab now saves the workspace; the shared link's skills are still shown over your latest work.".to_owned());
        return;
    }
    saver.ready.set_value(false);
    let mine = c.state.with_untracked(|s| s.skills.clone());
    leptos::task::spawn_local(async move {
        match saved_with_beside(c, saver, &index, mine).await {
            Ok((added, note)) => c.status.set(format!(
                "This tab now saves the workspace: the other tab's latest work is here, with {added} skill(s) changed in this tab beside it.{note}"
            )),
            Err(e) => c.status.set(format!("This tab now saves the workspace; the other tab's saved work could not be read ({e}) and is kept aside.")),
        }
        saver.resume(c.state, c.status);
    });
}

/// Reads the saved work `index` and puts `skills` beside its skills (renamed where a name is
/// taken, none dropped): the page's state becomes that, and a part of the saved work that is
/// missing keeps its index aside. How many skills were added
/// and the note on those renamed (empty, or a sentence after a space); or why the saved work
/// could not be read, when it is kept aside whole and the state is left as it is.
async fn saved_with_beside(
    c: Ctx,
    saver: Saver,
    index: &str,
    skills: Vec<state::SkillInput>,
) -> Result<(usize, String), String> {
    let (res, kept) = read_saved(index).await;
    match res {
        Ok(r) => {
            let mut base = r.state;
            let placed = base.add_beside(skills);
            if !r.missing.is_empty() {
                saver.keep_aside(index);
            }
            saver.kept.set_value(kept);
            c.state.set(base);
            let note = skillpg_share::beside_note(&placed)
                .map(|n| format!(" {n}"))
                .unwrap_or_default();
            Ok((placed.len(), note))
        }
        Err(e) => {
            saver.keep_aside(index);
            Err(e)
        }
    }
}

/// The banner of a tab that does not save: another tab of this browser does.
fn writer_banner(saver: Saver) -> impl IntoView {
    let c = super::ctx();
    view! {
        <Show when=move || saver.writer.get() == Writer::OtherTab>
            <div class="shared-banner" role="region" aria-label="Another tab saves this workspace" data-testid="writer-banner">
                <p>"This workspace is open in another tab of this browser, which saves it: changes made here are not saved, so that neither tab writes over the other's work."</p>
                <button data-testid="writer-take" on:click=move |_| claim_writer(c, saver, true)>"Work in this tab instead"</button>
                <span class="muted">" (the other tab's latest work comes here, and what you changed here stays beside it)"</span>
            </div>
        </Show>
    }
}

/// Saved work that could not be restored whole, kept aside: each can be restored beside one's
/// work (what can still be read), downloaded as a zip, or dropped (after a question).
fn kept_aside_banner(saver: Saver) -> impl IntoView {
    let c = super::ctx();
    let restore_beside = move |entry: state::KeptAside| {
        leptos::task::spawn_local(async move {
            let (res, _) = read_saved(&entry.index).await;
            match res {
                Ok(r) => {
                    let n = r.state.skills.len();
                    let placed = c
                        .state
                        .try_update(|s| s.add_beside(r.state.skills))
                        .unwrap_or_default();
                    if r.missing.is_empty() {
                        browser::drop_kept_aside(entry.at);
                        saver.aside.set(browser::kept_aside());
                    }
                    let still = if r.missing.is_empty() {
                        String::new()
                    } else {
                        format!(" Still missing, and kept aside: {}.", r.missing.join(", "))
                    };
                    c.status.set(format!("{} of the {n} readable skill(s) of the kept-aside work are now beside your own.{still}", placed.len()));
                }
                Err(e) => c
                    .status
                    .set(format!("The kept-aside work could not be read: {e}.")),
            }
        });
    };
    let download = move |entry: state::KeptAside| {
        leptos::task::spawn_local(async move {
            match read_saved(&entry.index).await.0 {
                Ok(r) => {
                    browser::download(
                        "kept-aside-work.zip",
                        "application/zip",
                        &state::skills_zip(&r.state.skills),
                    );
                    let missing = if r.missing.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " Not in it (not found in this browser's storage): {}.",
                            r.missing.join(", ")
                        )
                    };
                    c.status.set(format!(
                        "Downloaded the {} readable skill(s) of the kept-aside work.{missing}",
                        r.state.skills.len()
                    ));
                }
                Err(e) => c
                    .status
                    .set(format!("The kept-aside work could not be read: {e}.")),
            }
        });
    };
    let drop_it = move |entry: state::KeptAside| {
        if browser::confirm(
            "Drop this kept-aside work for good? Download it first if you may need it.",
        ) {
            browser::drop_kept_aside(entry.at);
            saver.aside.set(browser::kept_aside());
            c.status.set("The kept-aside work was dropped.".to_owned());
        }
    };
    view! {
        <Show when=move || saver.aside.with(|a| !a.is_empty())>
            <div class="shared-banner" role="region" aria-label="Saved work kept aside" data-testid="kept-aside">
                {move || saver.aside.get().into_iter().map(|entry| {
                    let count = state::saved_skill_count(&entry.index).map(|n| format!("{n} skill(s)")).unwrap_or_else(|| "your work".to_owned());
                    let when = if entry.at > 0.0 { format!(" (kept {})", browser::when(entry.at)) } else { String::new() };
                    let (e1, e2, e3) = (entry.clone(), entry.clone(), entry);
                    view! {
                        <p>{format!("Saved work that could not be restored whole is kept aside in this browser: {count}{when}. Nothing saves over it.")}</p>
                        <button data-testid="kept-aside-restore" on:click=move |_| restore_beside(e1.clone())>"Restore what can be read beside your work"</button>
                        <button data-testid="kept-aside-download" on:click=move |_| download(e2.clone())>"Download it (.zip)"</button>
                        <button data-testid="kept-aside-drop" on:click=move |_| drop_it(e3.clone())>"Drop it"</button>
                    }
                }).collect_view()}
            </div>
        </Show>
    }
}

/// The banner over a link's skills opened on top of saved work: keep them beside one's own work,
/// or go back to the saved work, which nothing touched meanwhile.
fn shared_banner(
    shared_over: RwSignal<Option<String>>,
    saver: Saver,
    restored: RwSignal<bool>,
) -> impl IntoView {
    let c = super::ctx();
    let (state, status) = (c.state, c.status);
    let keep_shared = move |_| {
        let Some(mine) = shared_over.get_untracked() else {
            return;
        };
        drop_link_state();
        shared_over.set(None);
        let theirs = state.with_untracked(|s| s.skills.clone());
        leptos::task::spawn_local(async move {
            match saved_with_beside(c, saver, &mine, theirs).await {
                Ok((added, note)) => status.set(format!(
                    "The link's {added} skill(s) are now beside your own work, which is as it was.{note}"
                )),
                // One's own work could not be read back: it is kept aside, never dropped.
                Err(e) => status.set(format!("The shared skills are now your work in this browser; your earlier saved work could not be read ({e}) and is kept aside.")),
            }
            saver.resume(state, status);
        });
    };
    let back_to_mine = move |_| {
        drop_link_state();
        let Some(saved) = shared_over.get_untracked() else {
            return;
        };
        shared_over.set(None);
        restore_saved(saved, state, status, saver, restored);
    };
    view! {
        <Show when=move || shared_over.with(Option::is_some)>
            <div class="shared-banner" role="region" aria-label="Shared workspace" data-testid="shared-banner">
                <p>"You opened a shared link: its skills are shown here as a shared workspace. Your own work is saved in this browser and untouched; changes made here are not saved until you keep them."</p>
                <button data-testid="shared-keep" on:click=keep_shared>"Keep these beside my work"</button>
                <button data-testid="shared-back" on:click=back_to_mine>"Back to my work"</button>
            </div>
        </Show>
    }
}

/// A link put into this tab's own address (a person's navigation: the page itself only
/// replaces its address, which fires no `hashchange`) opens as it does in a new tab: over one's
/// work, with the banner, the work saved first and untouched. Going back to the page's own
/// address while a link is shown is "back to my work".
fn follow_links_opened_here(
    saver: Saver,
    shared_over: RwSignal<Option<String>>,
    restored: RwSignal<bool>,
) {
    let c = super::ctx();
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = browser::location_hash();
        let own =
            state::address_fingerprint(&hash).is_some_and(|f| browser::own_address() == Some(f));
        if own {
            if let Some(saved) = shared_over.get_untracked() {
                shared_over.set(None);
                restore_saved(saved, c.state, c.status, saver, restored);
            }
            return;
        }
        match state::decode_fragment(&hash) {
            None => {}
            Some(Err(message)) => {
                c.status.set(format!(
                    "The share link could not be opened: {message}. Your work is as it was."
                ));
                drop_link_state();
            }
            Some(Ok(link)) => {
                if shared_over.with_untracked(Option::is_none) {
                    shared_over.set(Some(work_as_saved_now(c, saver, restored)));
                    saver.ready.set_value(false);
                }
                c.state.set(link);
                c.status.set("You opened a shared link: its skills are shown over your work, which is saved and untouched.".to_owned());
            }
        }
    });
}

/// One's work as storage holds it, after the change still waiting to be saved is written (at
/// once): what "back to my work" and "keep these beside my work" read. A tab that does not
/// save, or whose work is not back yet, gives what it shows, or what storage holds.
fn work_as_saved_now(c: Ctx, saver: Saver, restored: RwSignal<bool>) -> String {
    if !restored.get_untracked()
        && let Some(stored) = browser::load_state()
    {
        return stored;
    }
    if saver.ready.get_value() && saver.writer.get_untracked() == Writer::Yes {
        saver.save(c.state, c.status, true);
        if let Some(stored) = browser::load_state() {
            return stored;
        }
    }
    c.state.with_untracked(state::encode)
}

/// Reads saved work (an index, or the first form: the whole state encoded), its kept files from
/// the store: what could be read, and the keys the store holds.
async fn read_saved(
    index: &str,
) -> (
    Result<state::Restored, String>,
    std::collections::HashSet<String>,
) {
    let Some(keys) = state::saved_keys(index) else {
        let res = state::decode(index).map(|state| state::Restored {
            state,
            missing: Vec::new(),
        });
        return (res, Default::default());
    };
    let mut kept = std::collections::HashMap::new();
    for key in keys {
        if let Some(bytes) =
            browser::cache_get(browser::SAVED_CACHE, &browser::saved_key_url(&key)).await
        {
            kept.insert(key, bytes);
        }
    }
    let res = state::restore_partial(index, |k| kept.get(k).cloned());
    (res, kept.into_keys().collect())
}

/// Where the page starts.
struct Start {
    state: PageState,
    /// A saved index whose skills' files are kept in the Cache API store: they come once they
    /// are read (`restore_saved`), and nothing is saved until then.
    restore: Option<String>,
    /// A link opened over saved work: the saved work (as stored), untouched until the visitor
    /// chooses to keep the link's skills or go back to it.
    shared_over: Option<String>,
}

/// The initial state: a share link, else what this browser saved, else the good sample.
fn initial_state(status: &mut String) -> Start {
    if let Some(note) = browser::take_unsaved_note() {
        *status = format!("Your last change before the page closed could not be saved: {note}.");
    }
    let saved = browser::load_state();
    let start = |state, restore, shared_over| Start {
        state,
        restore,
        shared_over,
    };
    if let Some(link) = link_state(status, saved.is_some()) {
        return start(link, None, saved);
    }
    let Some(saved) = saved else {
        return start(sample_state(), None, None);
    };
    match state::saved_keys(&saved) {
        // Saved work held whole in its index: back at once.
        Some(keys) if keys.is_empty() => match state::restore(&saved, |_| None) {
            Ok(s) => start(s, None, None),
            // `restore_saved` says why, and keeps the saved work aside.
            Err(_) => start(PageState::default(), Some(saved), None),
        },
        // Saved work in parts: its skills are read from the store next.
        Some(_) => start(PageState::default(), Some(saved), None),
        // The first form: the whole state, encoded.
        None => start(
            state::decode(&saved).unwrap_or_else(|_| sample_state()),
            None,
            None,
        ),
    }
}

/// The state a share link in the address gives, if it holds one that opens; a link that does
/// not open says why in `status`.
fn link_state(status: &mut String, saved_work: bool) -> Option<PageState> {
    let hash = browser::location_hash();
    // The page's own address (written after the last pause in editing), reloaded: the saved
    // work is the same or newer, and opens without asking.
    if saved_work
        && state::address_fingerprint(&hash).is_some_and(|f| browser::own_address() == Some(f))
    {
        return None;
    }
    let res = state::decode_fragment(&hash)?;
    // The link has been read: drop its state from the address, so that a reload shows the
    // edits made since (saved in this browser), not the link's state again; keep its view.
    // Over saved work the address keeps it until the visitor chooses (a reload asks again).
    if !(saved_work && res.is_ok()) {
        drop_link_state();
    }
    match res {
        Ok(s) => Some(s),
        Err(message) => {
            *status = format!(
                "The share link could not be opened: {message}. Your saved work is shown instead."
            );
            None
        }
    }
}

/// The page's first state on a first visit: the good sample.
fn sample_state() -> PageState {
    PageState {
        skills: vec![samples::SAMPLES[0].input()],
        selected_file: "SKILL.md".into(),
        profile: "spec".into(),
        ..PageState::default()
    }
}

/// Drops a link's state from the address, keeping its view.
fn drop_link_state() {
    match state::fragment_without_state(&browser::location_hash()) {
        rest if rest.is_empty() => browser::clear_hash(),
        rest => browser::replace_hash(&rest),
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let mut first_status = String::new();
    let start = initial_state(&mut first_status);
    let saved_index = start.restore;
    let state = RwSignal::new(start.state);
    let status = RwSignal::new(first_status);
    let shared_over = RwSignal::new(start.shared_over);
    // The analysis depends on the skills alone: editing cost inputs, the profile or the routing
    // requests must not re-analyze and re-tokenize every file. These memos notify only when
    // what they hold really changes; the checks follow the analysis, the settings that weigh
    // the catalog, and the chosen client (the only one whose every rule runs).
    let skills = Memo::new(move |_| state.with(|s| s.skills.clone()));
    let analyzed = Memo::new(move |_| skills.with(|s| crate::analyze_skills(s)));
    let checking = Memo::new(move |_| state.with(|s| (s.listing.clone(), s.profile.clone())));
    let computed = Memo::new(move |_| {
        analyzed.with(|a| checking.with(|(listing, chosen)| compute(a, listing.settings(), chosen)))
    });
    let catalog = catalog_after_the_findings(state, computed);
    let view = RwSignal::new(View::from_fragment(&browser::location_hash()).unwrap_or_default());
    let editor_loaded = crate::code_editor::loading();
    let link_view = RwSignal::new(match view.get_untracked() {
        View::Share | View::Present => View::Check,
        v => v,
    });
    let turn = RwSignal::new(state::turn_from_fragment(&browser::location_hash()).unwrap_or(1));
    provide_context(Ctx {
        state,
        computed,
        catalog,
        status,
        view,
        turn,
        models: super::models::Models::default(),
        address_note: RwSignal::new(None),
        link_view,
        editor_loaded,
        cleared: RwSignal::new_local(None),
    });
    // Callbacks get the context passed in: `ctx()` has no owner to ask once the page runs.
    let page_ctx = super::ctx();
    Effect::new(move |_| {
        let v = view.get();
        if !matches!(v, View::Share | View::Present) {
            link_view.set(v);
        }
    });
    let follow_hash = navigation(view, turn);
    let split = RwSignal::new(browser::saved_split().unwrap_or(DEFAULT_SPLIT_PX));
    // The split is a custom property, set through the CSSOM (the CSP refuses `style` attributes).
    let workbench = NodeRef::<leptos::html::Main>::new();
    Effect::new(move |_| {
        let width = split.get();
        if let Some(el) = workbench.get() {
            let _ = el.style().set_property("--left", &format!("{width:.0}px"));
        }
    });
    let follow_link =
        view.get_untracked() != View::Check || browser::location_hash().starts_with("#rule-");
    // The page counts as built (`data-built`) once saved work is back in place and the editor's
    // module is in.
    let restored = RwSignal::new(saved_index.is_none());
    let rest_built = build_rest_after_first_paint(follow_hash, follow_link, restored);
    let later = move |build: fn() -> AnyView| -> Box<dyn Fn() -> Option<AnyView> + Send + Sync> {
        Box::new(move || rest_built.get().then(build))
    };

    let saver = start_saving(saved_index, shared_over, restored);
    browser::register_service_worker();

    // The system's preference until a person chooses; then their choice, remembered.
    let dark = RwSignal::new(browser::prefers_dark());
    view! {
        <div class="page" class:dark=move || dark.get() data-built=move || (rest_built.get() && restored.get() && editor_loaded.with(Option::is_some)).then_some("all")>
            {skip_link(view)}
            <header class="top">
                <h1>"Skill Playground"</h1>
                <p class="tagline" data-testid="tagline">"Check an Agent Skill against every client, count its tokens level by level, and preview which requests would use it: in this browser, nothing uploaded."</p>
                <Loaders/>
                <button class="theme" aria-pressed=move || dark.get().to_string() on:click=move |_| { dark.update(|d| *d = !*d); browser::save_theme(dark.get_untracked()); }>
                    {move || if dark.get() { "Light theme" } else { "Dark theme" }}
                </button>
            </header>
            {shared_banner(shared_over, saver, restored)}
            {writer_banner(saver)}
            {kept_aside_banner(saver)}
            <main class="workbench" id="main" node_ref=workbench>
                <aside class="pane left-pane" aria-label="Loaded skills and the editor">
                    <Catalog/>
                    <FileTree/>
                    <section class="editor-panel" aria-labelledby="h-editor">
                        <h2 id="h-editor" class="visually-hidden">"SKILL.md"</h2>
                        <Editor/>
                    </section>
                </aside>
                <Splitter width=split/>
                <div class="pane right-pane">
                    <ViewTabs view=view/>
                    {views(view, later)}
                </div>
            </main>
            {later(|| view! { <Presenter/> }.into_any())}
            {status_bar(page_ctx)}
        </div>
    }
}

/// The catalog rules and listings of the skills installed together, made one frame after the
/// checks they follow (a keystroke's findings are painted first: with a thousand skills the
/// catalog weighs every one of them) and when the settings that weigh it change. Until then
/// the last one stays in place; one made of checks already replaced is dropped.
fn catalog_after_the_findings(
    state: RwSignal<PageState>,
    computed: Memo<crate::Computed>,
) -> RwSignal<crate::CatalogComputed> {
    let weighing =
        Memo::new(move |_| state.with(|s| (s.together(), s.window(), s.listing.clone())));
    let catalog = RwSignal::new(crate::CatalogComputed::default());
    Effect::new(move |_| {
        let of = computed.with(crate::Computed::generation);
        weighing.track();
        let make = move || {
            if computed.with_untracked(crate::Computed::generation) != of {
                return;
            }
            let made = computed.with_untracked(|k| {
                weighing.with_untracked(|(together, window, listing)| {
                    crate::compute_catalog(k, *together, *window, &listing.settings())
                })
            });
            catalog.set(made);
        };
        // After the next paint: a timeout queued from the frame's own callback runs once the
        // frame is on screen.
        request_animation_frame(move || {
            leptos::prelude::set_timeout(make, std::time::Duration::from_millis(0));
        });
    });
    catalog
}

/// The status line (and "Undo clear" beside the message of a clear), the tokenizer's caveat
/// and how long the report took.
fn status_bar(c: Ctx) -> impl IntoView {
    view! {
        <footer class="statusbar">
            <div class="status" role="status" aria-live="polite" data-testid="status">{move || c.status.get()}</div>
            // "Clear all" can be undone from here: beside its own message, never pushing the
            // page's top bar onto a second line.
            {move || c.cleared.with(Option::is_some).then(|| view! { <button data-testid="undo-clear" on:click=move |_| super::loaders::undo_clear(c)>"Undo clear"</button> })}
            <p class="note" data-testid="tokenizer-note" title="The spec profile follows skills-ref 0.1.1; product profiles are dated in each message's source.">
                "Counts are o200k_base (OpenAI's encoding): for Claude, Gemini and other models an approximation."
            </p>
            <p class="elapsed">{move || {
                let checks = c.computed.with(|k| k.elapsed_ms);
                let catalog = c.catalog.with(|k| k.elapsed_ms);
                if catalog > 0.0 {
                    format!("Report in {checks:.1} ms; the catalog {catalog:.1} ms after.")
                } else {
                    format!("Report in {checks:.1} ms.")
                }
            }}</p>
        </footer>
    }
}

/// The page's first stop for the keyboard: it shows the checks and moves focus there, as a
/// skip link promises (the address follows the view).
fn skip_link(view: RwSignal<View>) -> impl IntoView {
    view! {
        <a class="skip-link" href="#view=check" on:click=move |_| {
            view.set(View::Check);
            request_animation_frame(|| browser::focus("view-check"));
        }>"Skip to the checks"</a>
    }
}

/// The views, one shown at a time in the right pane, each scrolling inside it (the ones below
/// the levels built after the first paint, `later`). Presenter mode shows over the cost view.
fn views(
    view: RwSignal<View>,
    later: impl Fn(fn() -> AnyView) -> Box<dyn Fn() -> Option<AnyView> + Send + Sync> + Copy,
) -> impl IntoView {
    let hidden = move |v: View| {
        move || {
            let current = view.get();
            current != v && !(current == View::Present && v == View::Cost)
        }
    };
    let section = move |v: View| format!("view-{}", v.key());
    view! {
        <section class="view check-view" aria-labelledby="h-verdicts" id=section(View::Check) hidden=hidden(View::Check) tabindex="-1">
            <div class="check-matrix">
                <h2 id="h-verdicts">"Where it loads"</h2>
                <VerdictTable/>
            </div>
            <div class="check-detail">
                <DiagnosticsPanel/>
                <CatalogFindings/>
                <WhereToPut/>
            </div>
        </section>
        <section class="view" aria-labelledby="h-levels" id=section(View::Levels) hidden=hidden(View::Levels) tabindex="-1">
            <h2 id="h-levels">"Levels"</h2>
            <LevelsPanel/>
        </section>
        <section class="view" aria-labelledby="h-tokens" id=section(View::Tokens) hidden=hidden(View::Tokens) tabindex="-1">
            <h2 id="h-tokens">"Tokens"</h2>
            {later(|| view! { <TokenView/> }.into_any())}
        </section>
        <section class="view" aria-labelledby="h-cost" id=section(View::Cost) hidden=hidden(View::Cost) tabindex="-1">
            <h2 id="h-cost">"Cost over a conversation"</h2>
            {later(|| view! { <CostPanel/> }.into_any())}
        </section>
        <section class="view" aria-labelledby="h-routing" id=section(View::Routing) hidden=hidden(View::Routing) tabindex="-1">
            <h2 id="h-routing">"Routing preview"</h2>
            {later(|| view! {
                <RoutingPanel/>
                <h3 id="h-decoder">"The chapter's experiment: an instruction model answers"</h3>
                <DecoderPanel/>
            }.into_any())}
        </section>
        <section class="view" aria-labelledby="h-lab" id=section(View::Lab) hidden=hidden(View::Lab) tabindex="-1">
            <h2 id="h-lab">"Why doesn't my skill trigger? The description lab"</h2>
            {later(|| view! { <LabPanel/> }.into_any())}
        </section>
        <section class="view" aria-labelledby="h-share" id=section(View::Share) hidden=hidden(View::Share) tabindex="-1">
            <h2 id="h-share">"Share and export"</h2>
            {later(|| view! { <SharePanel/> }.into_any())}
        </section>
        <section class="view" aria-labelledby="h-rules" id=section(View::Rules) hidden=hidden(View::Rules) tabindex="-1">
            <h2 id="h-rules">"Rules"</h2>
            {later(|| view! { <RulesReference/> }.into_any())}
        </section>
    }
}

/// The navigation: each view has a fragment (`#view=cost`), and following one shows that view
/// (a link's fragment does so on load); `#rule-<name>` opens that rule in the reference. `view`
/// changes only when a person (or a link) chooses one; a share link carries it. Returns the
/// fragment's follower.
fn navigation(view: RwSignal<View>, turn: RwSignal<u64>) -> impl Fn() + Copy {
    let follow_hash = move || {
        let hash = browser::location_hash();
        if let Some(v) = View::from_fragment(&hash) {
            view.set(v);
            if let Some(t) = state::turn_from_fragment(&hash) {
                turn.set(t);
            }
        } else if let Some(rule) = hash.strip_prefix("#rule-") {
            view.set(View::Rules);
            // Opened and scrolled to once the Rules view is shown (a hidden one cannot scroll).
            let id = format!("rule-{rule}");
            request_animation_frame(move || browser::open_details(&id));
        }
    };
    let _ = window_event_listener(leptos::ev::hashchange, move |_| follow_hash());
    follow_hash
}

/// The views below the levels, built after the first frame is painted: on one busy core
/// building them first (and compiling their code, which the browser does on first call) delayed
/// the first paint of the checks and levels by about a third (640 against 424 ms,
/// BENCHMARKS.md). A link's view is followed once they exist (`follow_link`), so it scrolls to
/// where the section ends up. The signal turns true when they may be built.
fn build_rest_after_first_paint(
    follow_hash: impl Fn() + Copy + 'static,
    follow_link: bool,
    restored: RwSignal<bool>,
) -> RwSignal<bool> {
    let rest_built = RwSignal::new(false);
    request_animation_frame(move || {
        leptos::prelude::set_timeout(
            move || rest_built.set(true),
            std::time::Duration::from_millis(0),
        );
    });
    // The link's view is followed once the views exist and saved work is back in place (its
    // skills move the sections), once.
    if follow_link {
        let followed = StoredValue::new(false);
        Effect::new(move |_| {
            if rest_built.get() && restored.get() && !followed.get_value() {
                followed.set_value(true);
                leptos::prelude::set_timeout(follow_hash, std::time::Duration::from_millis(0));
            }
        });
    }
    rest_built
}

/// The bytes of files kept whole in the saved index (local storage) before the rest goes to
/// the Cache API store: small work needs no store and comes back at once.
const INLINE_BUDGET: usize = 1024 * 1024;
/// The largest file kept whole in the index.
const INLINE_FILE: usize = 256 * 1024;

/// What the saves share: whether the state may be saved yet (not while saved work is being
/// restored, when the page shows a placeholder), which skills' files the store holds (by
/// key), and which save is the newest.
#[derive(Clone, Copy)]
struct Saver {
    ready: StoredValue<bool>,
    kept: StoredValue<std::collections::HashSet<String>>,
    generation: StoredValue<u64>,
    /// The newest save whose index is written (or given up).
    completed: StoredValue<u64>,
    /// The next change of the state is the page's own (saved work put back in place), not a
    /// person's: a page going away does not write it back over storage cleared meanwhile.
    quiet: StoredValue<bool>,
    /// Whether this tab is the browser's one writer of the saved work.
    writer: RwSignal<Writer>,
    /// The saved work kept aside (`browser::kept_aside`), as the banner shows it.
    aside: RwSignal<Vec<state::KeptAside>>,
    /// One's work as stored while a link's skills are shown over it (`None` otherwise).
    shared_over: RwSignal<Option<String>>,
}

/// Whether this tab saves the work: only the one that holds the browser's writer lock does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writer {
    /// The lock is asked for (a moment at the start).
    Asking,
    /// This tab saves.
    Yes,
    /// Another tab holds the lock: nothing is saved here.
    OtherTab,
}

impl Saver {
    fn new(shared_over: RwSignal<Option<String>>) -> Saver {
        Saver {
            ready: StoredValue::new(false),
            kept: StoredValue::new(Default::default()),
            generation: StoredValue::new(0),
            completed: StoredValue::new(0),
            quiet: StoredValue::new(false),
            writer: RwSignal::new(Writer::Asking),
            aside: RwSignal::new(browser::kept_aside()),
            shared_over,
        }
    }

    /// Whether a save may write now: the work is in place and this tab is the writer.
    fn may_write(self) -> bool {
        self.ready.get_value() && self.writer.get_untracked() == Writer::Yes
    }

    /// Saving may start again (the work is in place) and starts now.
    fn resume(self, state: RwSignal<PageState>, status: RwSignal<String>) {
        self.ready.set_value(true);
        self.save(state, status, false);
    }

    /// Keeps `index` aside (its files stay in the store) and shows it in the banner.
    fn keep_aside(self, index: &str) {
        browser::keep_unrestored(index);
        self.aside.set(browser::kept_aside());
    }

    /// Saves the state in parts (`state::SavedIndex`): the skills whose files the store does
    /// not hold yet are encoded and written there, then the small index to local storage. With
    /// `now` (the page is going), nothing waits: those skills' files go into the index itself.
    fn save(self, state: RwSignal<PageState>, status: RwSignal<String>, now: bool) {
        if !self.may_write() {
            return;
        }
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        let kept = self.kept.get_value();
        // Every file's key; the files the store does not hold yet are encoded for it (or, when
        // the page is going, for the index itself).
        let mut missing: Vec<(String, Vec<u8>)> = Vec::new();
        let (index, keys) = state.with_untracked(|s| {
            let keys: Vec<Vec<String>> = s
                .skills
                .iter()
                .map(|k| k.files.iter().map(|(p, b)| state::file_key(p, b)).collect())
                .collect();
            // Small work stays whole in the index (read back at once on the next visit); only
            // what passes the inline budget goes to the store.
            let mut inline_left = INLINE_BUDGET;
            let index = state::saved_index(s, |i, j| {
                let key = &keys[i][j];
                let bytes = &s.skills[i].files[j].1;
                let small = bytes.len() <= INLINE_FILE && bytes.len() <= inline_left;
                if small {
                    inline_left -= bytes.len();
                    state::inline_file(bytes)
                } else if kept.contains(key) {
                    state::SavedAt::Kept(key.clone())
                } else if now {
                    state::inline_file(bytes)
                } else {
                    missing.push((key.clone(), state::saved_bytes(bytes)));
                    state::SavedAt::Kept(key.clone())
                }
            });
            (index, keys)
        });
        if missing.is_empty() {
            self.completed.set_value(generation);
            if !browser::save_state(&index) {
                let why = "this browser refused to write it (storage full or disabled)";
                if now {
                    browser::note_unsaved(why);
                } else {
                    status.set(format!(
                        "Your work could not be saved: {why}; use a share link or the zip."
                    ));
                }
            }
            return;
        }
        leptos::task::spawn_local(async move {
            let mut failed = false;
            for (key, bytes) in missing {
                if browser::cache_put(browser::SAVED_CACHE, &browser::saved_key_url(&key), &bytes)
                    .await
                {
                    self.kept.update_value(|k| {
                        k.insert(key);
                    });
                } else {
                    failed = true;
                }
            }
            // A newer save writes its own index; and none is written once this tab stopped being
            // the writer (another tab took over meanwhile).
            if self.generation.get_value() != generation || !self.may_write() {
                return;
            }
            // Without the store (refused, or not offered), the files go into the index.
            let index = if failed {
                let kept = self.kept.get_value();
                state.with_untracked(|s| {
                    state::saved_index(s, |i, j| {
                        let (p, b) = &s.skills[i].files[j];
                        let key = state::file_key(p, b);
                        if kept.contains(&key) {
                            state::SavedAt::Kept(key)
                        } else {
                            state::inline_file(b)
                        }
                    })
                })
            } else {
                index
            };
            self.completed.set_value(generation);
            if !browser::save_state(&index) {
                status.set("Your work could not be saved: this browser refused to write it (storage full or disabled); use a share link or the zip.".to_owned());
                return;
            }
            // What neither this index nor any index kept aside names is dropped from the store,
            // while no newer save has started (it collects after itself). Each key leaves the
            // set of kept keys before its delete is asked, so a save that starts meanwhile
            // writes it again rather than naming a file being deleted: a collection that ran
            // over a newer save's fresh files once lost a large workspace on reload.
            let mut keep: std::collections::HashSet<String> =
                keys.iter().flatten().cloned().collect();
            for aside in browser::kept_aside() {
                keep.extend(state::saved_keys(&aside.index).unwrap_or_default());
            }
            for (url, _) in browser::cache_entries(browser::SAVED_CACHE).await {
                if self.generation.get_value() != generation {
                    break;
                }
                let key = url.rsplit("/saved-work/").next().unwrap_or("").to_owned();
                if !keep.contains(&key) {
                    self.kept.update_value(|k| {
                        k.remove(&key);
                    });
                    browser::cache_delete(browser::SAVED_CACHE, &url).await;
                }
            }
        });
    }

    /// Whether a save has started whose index is not written yet.
    fn in_flight(self) -> bool {
        self.generation.get_value() != self.completed.get_value()
    }
}

/// Reads the skills of a saved index from the store and puts the saved state in place of the
/// placeholder; saving starts after. A skill whose files are not all found is left out and the
/// index kept aside (the banner offers it back); work that cannot be read at all is said, and
/// kept aside too, so that no save writes over it.
fn restore_saved(
    index: String,
    state: RwSignal<PageState>,
    status: RwSignal<String>,
    saver: Saver,
    restored: RwSignal<bool>,
) {
    // A message already there (a link that could not be opened) stays.
    status.update(|s| {
        if s.is_empty() {
            *s = "Restoring your saved work…".to_owned();
        }
    });
    leptos::task::spawn_local(async move {
        let (res, kept) = read_saved(&index).await;
        match res {
            Ok(r) => {
                saver.kept.set_value(kept);
                saver.quiet.set_value(true);
                let n_back = r.state.skills.len();
                state.set(r.state);
                if r.missing.is_empty() {
                    status.update(|s| {
                        if s.starts_with("Restoring") {
                            *s = "Back to your work, as you left it.".to_owned();
                        }
                    });
                } else {
                    saver.keep_aside(&index);
                    status.set(format!(
                        "{n_back} skill(s) of your saved work are back; the skills of {} could not be restored (not found in this browser's storage) and are kept aside: the banner above offers them back.",
                        r.missing.join(", ")
                    ));
                }
            }
            Err(e) => {
                saver.keep_aside(&index);
                status.set(format!("Your saved work could not be restored: {e}. It is kept aside in this browser (the banner above offers it back); what you do now is saved anew."));
                state.set(sample_state());
            }
        }
        saver.ready.set_value(true);
        restored.set(true);
    });
}

/// Keeps the address holding the work and its view (`#v1=...&view=...`), as a share link
/// would, so that copying the address shares it; where the work is too large for a link, the
/// address holds the view alone and the Share view says why. Only once saved work is back (the
/// state before is a placeholder). The page remembers the address it wrote when it is the
/// visitor's own work (not a shared workspace still waiting for their choice), so that a
/// reload of it opens the saved work without asking.
fn write_address(
    c: super::Ctx,
    saver: Saver,
    restored: RwSignal<bool>,
    shared_over: RwSignal<Option<String>>,
) {
    // Never over a link the person has not answered: it stays in the address until they do.
    if !restored.get_untracked() || shared_over.with_untracked(Option::is_some) {
        return;
    }
    if c.view.get_untracked() == View::Present {
        return;
    }
    let view = c.link_view.get_untracked();
    let base = browser::location_base();
    let turn = browser::location_hash();
    let turn = state::turn_from_fragment(&turn);
    let res = c
        .state
        .with_untracked(|s| state::address_fragment(s, view, base.len()));
    let fragment = match res {
        Ok(fragment) => {
            c.address_note.set(None);
            if saver.may_write()
                && let Some(f) = state::address_fingerprint(&fragment)
            {
                browser::set_own_address(&f);
            }
            fragment
        }
        Err((why, view_only)) => {
            c.address_note.set(Some(why));
            view_only
        }
    };
    let fragment = match turn {
        Some(t) if view == View::Cost => format!("{fragment}&turn={t}"),
        _ => fragment,
    };
    if fragment.is_empty() {
        browser::clear_hash();
    } else if browser::location_hash().trim_start_matches('#') != fragment {
        browser::replace_hash(&fragment);
    }
}

/// Effects sync with the outside world only: the saved work, so a reload keeps it. Saving
/// waits until the state has rendered and typing pauses (encoding a large skill on every
/// keystroke would slow the editor, and a state that panics is never saved), and writes only
/// the skills that changed.
fn save_while_editing(
    state: RwSignal<PageState>,
    status: RwSignal<String>,
    saver: Saver,
    restored: RwSignal<bool>,
    shared_over: RwSignal<Option<String>>,
) {
    let c = super::ctx();
    // A view chosen is in the address at once.
    Effect::new(move |_| {
        c.view.track();
        c.link_view.track();
        write_address(c, saver, restored, shared_over);
    });
    let pending_save: StoredValue<Option<leptos::prelude::TimeoutHandle>> = StoredValue::new(None);
    // Whether the waiting save holds a person's change (not the state the page opened with,
    // which storage or the link already holds).
    let pending_change = StoredValue::new(false);
    Effect::new(move |prev: Option<()>| {
        state.track();
        let quiet = saver.quiet.get_value();
        saver.quiet.set_value(false);
        pending_change.set_value(prev.is_some() && !quiet);
        if let Some(handle) = pending_save.get_value() {
            handle.clear();
        }
        let handle = leptos::prelude::set_timeout_with_handle(
            move || {
                pending_save.set_value(None);
                saver.save(state, status, false);
                write_address(c, saver, restored, shared_over);
            },
            std::time::Duration::from_millis(400),
        )
        .ok();
        pending_save.set_value(handle);
    });
    // A reload or a closed tab within the pause must not lose the last change: the save still
    // waiting runs as the page goes, at once (the changed skills' files in the index itself).
    // Only a change's: the opening state is not written back over storage someone cleared.
    let _ = window_event_listener(leptos::ev::pagehide, move |_| {
        let waiting = pending_save
            .get_value()
            .filter(|_| pending_change.get_value());
        if let Some(handle) = &waiting {
            handle.clear();
            pending_save.set_value(None);
        }
        // A save still writing the store when the page goes would leave the previous index:
        // the index is written now, with what the store does not hold yet inside it.
        if waiting.is_some() || (saver.in_flight() && pending_change.get_value()) {
            saver.save(state, status, true);
        }
    });
}
