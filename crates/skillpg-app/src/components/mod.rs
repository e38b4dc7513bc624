//! The page's components, one view per file (with the small components only it uses beside
//! it). Each binds signals to the engine; none computes what
//! the engine could.

pub mod app;
pub mod cost;
pub mod decoder;
pub mod diagnostics;
pub mod editor;
pub mod lab;
pub mod levels;
pub mod loaders;
pub mod models;
pub mod paired;
pub mod presenter;
pub mod progress;
pub mod routing;
pub mod share;
pub mod tokens;
pub mod work;
pub mod workbench;

use leptos::prelude::*;

use crate::Computed;
use crate::state::PageState;

/// What every component reads: the state (read and write) and what the engine made of it.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// The page's state.
    pub state: RwSignal<PageState>,
    /// The engine's results for it.
    pub computed: Memo<Computed>,
    /// The catalog rules and listings of the skills installed together, a frame after
    /// `computed` (`app::catalog_after_the_findings`).
    pub catalog: RwSignal<crate::CatalogComputed>,
    /// A status line for the ARIA live region (progress, errors).
    pub status: RwSignal<String>,
    /// The view the navigation last went to (carried in share links).
    pub view: RwSignal<crate::state::View>,
    /// The turn the context-window picture shows (the cost view and presenter mode share it).
    pub turn: RwSignal<u64>,
    /// The models the page loads, each once, and what the views show of them.
    pub models: models::Models,
    /// The view a link made now opens on (the address's too): the last one chosen other than
    /// Share (a recipient lands on the verdicts or what the sender showed, never on export
    /// buttons) and presenter mode (entered from its own link).
    pub link_view: RwSignal<crate::state::View>,
    /// Why the address does not hold the work (too large for a link), when it does not.
    pub address_note: RwSignal<Option<String>>,
    /// Whether the editor's module (`editor.js`, loading beside the app's) is in: `None` while
    /// it loads, else why it could not load, if it could not.
    pub editor_loaded: RwSignal<Option<Result<(), String>>>,
    /// What "Clear all" removed, until it is undone: the status bar offers it back.
    pub cleared: RwSignal<Option<crate::state::PageState>, LocalStorage>,
}

/// Beyond this many skills, a view's lists of every skill (the levels table, its chart, the
/// level-1 text and its tokens) are made only while that view shows: hidden, they were made
/// again on every keystroke, most of a keystroke's time with a thousand skills.
pub const LAZY_VIEWS_ABOVE: usize = 50;

impl Ctx {
    /// One part of the state, as a memo: its readers run again only when that part changes.
    /// Every view is mounted (hidden ones too), and the state changes on every keystroke (the
    /// text is in it): a `prop:value` bound to the whole state set every box's value again,
    /// a text area's included, on every keystroke.
    pub fn slice<T: PartialEq + Clone + Send + Sync + 'static>(
        self,
        part: impl Fn(&PageState) -> T + Send + Sync + 'static,
    ) -> Memo<T> {
        let state = self.state;
        Memo::new(move |_| state.with(&part))
    }

    /// Whether view `v`'s lists of every skill are made now: always with a few skills, else
    /// while `v` shows.
    pub fn builds(self, v: crate::state::View) -> bool {
        self.computed.with(|k| k.analyses.len()) <= LAZY_VIEWS_ABOVE || self.view.get() == v
    }

    /// The catalog of the checks in force now: the one shown, or made at once when a keystroke's
    /// was not made yet (an export never carries the catalog of the text before).
    pub fn catalog_now(self) -> crate::CatalogComputed {
        let shown = self.catalog.get_untracked();
        let computed = self.computed.get_untracked();
        if shown.of == computed.generation() {
            return shown;
        }
        self.state.with_untracked(|s| {
            crate::compute_catalog(&computed, s.together(), s.window(), &s.listing.settings())
        })
    }

    /// The routing requests as typed, read as `skillpg route` reads a request file: a
    /// skill-creator list is about the selected skill. The routing preview and the chapter's
    /// experiment both run them.
    pub fn routing_requests(self) -> Result<Vec<skillpg_routing::requests::Labelled>, String> {
        let computed = self.computed.get_untracked();
        self.state.with_untracked(|s| {
            let selected = computed
                .analyses
                .get(s.selected)
                .map_or("", |a| a.display_name());
            skillpg_routing::requests::parse_requests(&s.routing.requests, Some(selected))
        })
    }
}

/// The shared context.
pub fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// `26362` as `26,362`.
pub fn n(count: usize) -> String {
    skillpg_core::diagnostic::thousands(count as u64)
}
