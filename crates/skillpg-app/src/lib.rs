//! The Skill Playground page: the engine in the browser, nothing sent to any server.
//!
//! The app owns every boundary the engine does not: the DOM, drops and pickers, archives,
//! local storage, the URL fragment and the JSON export. Components bind signals to the
//! engine's pure functions and hold no logic of their own that could live in the engine.

pub mod browser;
pub mod components;
pub mod decoder_run;
pub mod github;
pub mod lab_run;
pub mod load_once;
pub mod markdown;
pub mod model_worker;
pub mod phase;
pub mod routing_run;
pub mod samples;
pub mod state;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use skillpg_core::{Analysis, Diagnostic, Profile, analyze, check, check_catalog_with, profile};

pub use components::app::App;

/// One profile's check: its diagnostics, one list per skill.
pub type ProfileChecks = (&'static Profile, Vec<Vec<Diagnostic>>);

/// Everything the views show, computed from the state in one pass.
#[derive(Debug, Clone)]
pub struct Computed {
    /// Distinguishes computations, so that a `Memo` of it notifies on every change.
    generation: u64,
    /// One analysis per skill.
    pub analyses: Arc<Vec<Analysis>>,
    /// Per profile, one list of diagnostics per skill.
    pub checks: Arc<Vec<ProfileChecks>>,
    /// Per profile, the findings about the skills installed together (empty unless they are).
    pub catalog: Arc<Vec<(&'static Profile, Vec<Diagnostic>)>>,
    /// Each client's listing of the skills installed together (empty unless they are), in
    /// `profile::ALL`'s order.
    pub listings: Arc<Vec<skillpg_report::ListingJson>>,
    /// How long the computation took, in milliseconds.
    pub elapsed_ms: f64,
}

impl PartialEq for Computed {
    fn eq(&self, other: &Computed) -> bool {
        self.generation == other.generation
    }
}

/// Runs the engine over every skill, under every profile; the catalog rules and each client's
/// listing too when the skills are installed together, at a `context_window` of tokens and the
/// person's listing `settings`.
pub fn compute(
    skills: &[state::SkillInput],
    together: bool,
    context_window: usize,
    settings: skillpg_core::catalog::ListingSettings,
) -> Computed {
    static GENERATION: AtomicU64 = AtomicU64::new(0);
    let start = browser::now_ms();
    let analyses: Vec<Analysis> = skills.iter().map(|s| analyze(&s.bundle())).collect();
    // The page shows every level: count them first, so the rules report exact totals.
    for a in &analyses {
        let _ = a.levels();
    }
    // Each skill's input findings (an archive's layout) come first, weighed by each profile as
    // the CLI weighs them.
    let own: Vec<Vec<Diagnostic>> = skills
        .iter()
        .map(state::SkillInput::input_diagnostics)
        .collect();
    let checks = profile::ALL
        .iter()
        .map(|p| {
            let per_skill = analyses
                .iter()
                .zip(&own)
                .map(|(a, own)| {
                    [skillpg_core::ingest::findings_under(own, p), check(a, p)].concat()
                })
                .collect();
            (*p, per_skill)
        })
        .collect();
    let catalog = profile::ALL
        .iter()
        .map(|p| {
            (
                *p,
                if together {
                    check_catalog_with(&analyses, p, context_window, &settings)
                } else {
                    Vec::new()
                },
            )
        })
        .collect();
    let listings = if together {
        skillpg_report::listings_with(&analyses, Some(context_window), &settings)
    } else {
        Vec::new()
    };
    Computed {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        analyses: Arc::new(analyses),
        checks: Arc::new(checks),
        catalog: Arc::new(catalog),
        listings: Arc::new(listings),
        elapsed_ms: browser::now_ms() - start,
    }
}

/// Shows a message instead of a blank page if the app ever panics, and keeps the input: the
/// state is in local storage, which a reload restores.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        // The state that panicked is never saved, so a reload starts from the last one that
        // rendered (saving waits until a state has been shown).
        browser::mark_panicked();
        browser::show_fatal(&format!(
            "Something went wrong inside the playground ({info}). Reload the page to continue from your last saved work; the change that caused this was not saved."
        ));
    }));
}

/// o200k_base token count of `text`, exported for the timed page benchmark
/// (`scripts/bench-page.mjs`), which compares it with JavaScript tokenizers in the same browser.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn count_tokens(text: &str) -> usize {
    skillpg_tokens::count(text)
}
