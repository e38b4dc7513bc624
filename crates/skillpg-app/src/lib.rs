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

use skillpg_core::{
    Analysis, Diagnostic, Profile, analyze, check, check_catalog_with, check_gates, profile,
};

pub use components::app::App;

/// One profile's check: its diagnostics, one list per skill.
pub type ProfileChecks = (&'static Profile, Vec<Vec<Diagnostic>>);

/// Everything the views show, computed from the state in one pass. Under every profile but
/// the chosen one, `checks` holds the errors alone (the verdicts); under the chosen one, every
/// finding.
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

/// The skills read by the engine: what every check starts from, made again only when the
/// skills change (not when a client is chosen or a setting moves).
#[derive(Debug, Clone)]
pub struct Analyzed {
    /// Distinguishes analyses, so that a `Memo` of it notifies on every change.
    generation: u64,
    /// One analysis per skill.
    pub analyses: Arc<Vec<Analysis>>,
    /// Each skill's input findings (an archive's layout), before any profile weighs them.
    pub own: Arc<Vec<Vec<Diagnostic>>>,
    /// How long reading them took, in milliseconds.
    pub elapsed_ms: f64,
}

impl PartialEq for Analyzed {
    fn eq(&self, other: &Analyzed) -> bool {
        self.generation == other.generation
    }
}

static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Reads every skill: frontmatter, tokens, levels, links.
pub fn analyze_skills(skills: &[state::SkillInput]) -> Analyzed {
    let start = browser::now_ms();
    let analyses: Vec<Analysis> = skills.iter().map(|s| analyze(&s.bundle())).collect();
    // The page shows every level: count them first, so the rules report exact totals.
    for a in &analyses {
        let _ = a.levels();
    }
    let own = skills
        .iter()
        .map(state::SkillInput::input_diagnostics)
        .collect();
    Analyzed {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        analyses: Arc::new(analyses),
        own: Arc::new(own),
        elapsed_ms: browser::now_ms() - start,
    }
}

/// Checks the analyzed skills under every profile: the `chosen` one (whose findings the page
/// lists and marks) with every rule, every other client with its gates alone, which is all its
/// verdict in the matrix needs (`skillpg_core::check_gates`: the same errors); the catalog
/// rules and each client's listing too when the skills are installed together, at a
/// `context_window` of tokens and the person's listing `settings`.
pub fn compute(
    analyzed: &Analyzed,
    together: bool,
    context_window: usize,
    settings: skillpg_core::catalog::ListingSettings,
    chosen: &str,
) -> Computed {
    let start = browser::now_ms();
    let analyses = &analyzed.analyses;
    // Each skill's input findings come first, weighed by each profile as the CLI weighs them.
    let checks = profile::ALL
        .iter()
        .map(|p| {
            let whole = p.key == chosen;
            let per_skill = analyses
                .iter()
                .zip(analyzed.own.iter())
                .map(|(a, own)| {
                    let mut input = skillpg_core::ingest::findings_under(own, p);
                    if whole {
                        [input, check(a, p)].concat()
                    } else {
                        input.retain(|d| d.severity == skillpg_core::Severity::Error);
                        [input, check_gates(a, p)].concat()
                    }
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
                    check_catalog_with(analyses, p, context_window, &settings)
                } else {
                    Vec::new()
                },
            )
        })
        .collect();
    let listings = if together {
        skillpg_report::listings_with(analyses, Some(context_window), &settings)
    } else {
        Vec::new()
    };
    Computed {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        analyses: analyses.clone(),
        checks: Arc::new(checks),
        catalog: Arc::new(catalog),
        listings: Arc::new(listings),
        elapsed_ms: browser::now_ms() - start + analyzed.elapsed_ms,
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
