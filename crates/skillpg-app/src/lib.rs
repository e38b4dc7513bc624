//! The Skill Playground page: the engine in the browser, nothing sent to any server.
//!
//! The app owns every boundary the engine does not: the DOM, drops and pickers, archives,
//! local storage, the URL fragment and the JSON export. Components bind signals to the
//! engine's pure functions and hold no logic of their own that could live in the engine.

pub mod browser;
pub mod code_editor;
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

use skillpg_core::{Analysis, Diagnostic, Profile, analyze, check_catalog_with, profile};

pub use components::app::App;
use skillpg_report::project::{Project, Scope};

/// One profile's check: its diagnostics, one list per skill.
pub type ProfileChecks = (&'static Profile, Vec<Vec<Diagnostic>>);

/// Everything the views show of each skill, computed from the state in one pass. Under every
/// profile but the chosen one, `checks` holds the errors alone (the verdicts); under the chosen
/// one, every finding. What the skills installed together come to is [`CatalogComputed`],
/// made a frame later.
#[derive(Debug, Clone)]
pub struct Computed {
    /// Distinguishes computations, so that a `Memo` of it notifies on every change.
    generation: u64,
    /// One analysis per skill.
    pub analyses: Arc<Vec<Analysis>>,
    /// Per profile, one list of diagnostics per skill.
    pub checks: Arc<Vec<ProfileChecks>>,
    /// How long the computation took, in milliseconds.
    pub elapsed_ms: f64,
}

impl Computed {
    /// Which computation this is: a [`CatalogComputed`] says which one it was made of.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

impl PartialEq for Computed {
    fn eq(&self, other: &Computed) -> bool {
        self.generation == other.generation
    }
}

/// What the catalog rules and each client's listing say of the skills installed together:
/// every skill weighed at once, so the page makes it one frame after a keystroke's findings
/// (with a thousand skills it was a sixth of a keystroke's time), and shows the last one until.
#[derive(Debug, Clone, Default)]
pub struct CatalogComputed {
    /// The [`Computed::generation`] it was made of.
    pub of: u64,
    /// Per profile, the findings about the skills installed together (empty unless they are).
    pub catalog: Arc<Vec<(&'static Profile, Vec<Diagnostic>)>>,
    /// Each client's listing of the skills installed together (empty unless they are), in
    /// `profile::ALL`'s order.
    pub listings: Arc<Vec<skillpg_report::ListingJson>>,
    /// How long it took, in milliseconds.
    pub elapsed_ms: f64,
}

impl PartialEq for CatalogComputed {
    fn eq(&self, other: &CatalogComputed) -> bool {
        self.of == other.of
            && Arc::ptr_eq(&self.catalog, &other.catalog)
            && Arc::ptr_eq(&self.listings, &other.listings)
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
    /// Each analysis' identity: the same while its skill is unchanged, so that its checks are
    /// reused too.
    ids: Arc<Vec<u64>>,
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

/// A skill as last read: its input, its analysis and that analysis' identity.
struct Read {
    input: state::SkillInput,
    analysis: Analysis,
    id: u64,
}

/// Checks by analysis identity, profile and whether whole.
type CheckCache =
    std::collections::HashMap<(u64, &'static str, bool, Option<usize>), Vec<Diagnostic>>;

thread_local! {
    /// The skills as last read: an edit to one skill among a thousand reads that one again and
    /// reuses the others' analyses (a thousand small skills took 3.3 s an edit in Chromium when
    /// every one was read again).
    static READ: std::cell::RefCell<Vec<Read>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Checks made of an analysis (by its identity) under a profile, whole or gates alone.
    static CHECKED: std::cell::RefCell<CheckCache> = std::cell::RefCell::new(CheckCache::new());
}

/// Reads every skill: frontmatter, tokens, levels, links; a skill unchanged since the last
/// call keeps its analysis (found at its index, else by its folder's name and bytes).
pub fn analyze_skills(skills: &[state::SkillInput]) -> Analyzed {
    let start = browser::now_ms();
    let previous = READ.with(|r| std::mem::take(&mut *r.borrow_mut()));
    let mut previous: Vec<Option<Read>> = previous.into_iter().map(Some).collect();
    let read: Vec<Read> = skills
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let same = |r: &Option<Read>| r.as_ref().is_some_and(|r| r.input == *input);
            let at = if previous.get(i).is_some_and(same) {
                Some(i)
            } else {
                previous.iter().position(|r| {
                    r.as_ref()
                        .is_some_and(|r| r.input.dir_name == input.dir_name && r.input == *input)
                })
            };
            at.and_then(|at| previous[at].take()).unwrap_or_else(|| {
                let analysis = analyze(&input.bundle());
                // The page shows every level: count them first, so the rules report exact totals.
                let _ = analysis.levels();
                Read {
                    input: input.clone(),
                    analysis,
                    id: GENERATION.fetch_add(1, Ordering::Relaxed),
                }
            })
        })
        .collect();
    let analyses = read.iter().map(|r| r.analysis.clone()).collect();
    let ids: Vec<u64> = read.iter().map(|r| r.id).collect();
    // Checks of analyses no longer read are dropped; a set, not the list: the cache holds about
    // twenty checks a skill, so a thousand skills would be twenty million comparisons an edit.
    let live: std::collections::HashSet<u64> = ids.iter().copied().collect();
    CHECKED.with(|c| c.borrow_mut().retain(|(id, _, _, _), _| live.contains(id)));
    READ.with(|r| *r.borrow_mut() = read);
    let own = skills
        .iter()
        .map(state::SkillInput::input_diagnostics)
        .collect();
    Analyzed {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        analyses: Arc::new(analyses),
        ids: Arc::new(ids),
        own: Arc::new(own),
        elapsed_ms: browser::now_ms() - start,
    }
}

/// `analysis`' findings under `profile` in the page's project (no `skillpg.toml`, the person's
/// listing `settings`: the description cap Claude Code's listing and its `listing-cap` rule
/// share), with the input's own findings `own` first: whole, or the verdict's errors alone;
/// made once per analysis and cap. Every edge's findings come from `Project`.
fn checked(
    id: u64,
    analysis: &Analysis,
    own: &[Diagnostic],
    profile: &'static Profile,
    whole: bool,
    settings: &skillpg_core::catalog::ListingSettings,
) -> Vec<Diagnostic> {
    let key = (id, profile.key, whole, settings.description_cap(profile));
    if let Some(found) = CHECKED.with(|c| c.borrow().get(&key).cloned()) {
        return found;
    }
    let project = Project {
        config: None,
        listing: settings,
    };
    let scope = if whole { Scope::Whole } else { Scope::Verdict };
    let (made, _) = project.findings_in(scope, profile, analysis, own);
    CHECKED.with(|c| c.borrow_mut().insert(key, made.clone()));
    made
}

/// Checks the analyzed skills under every profile: the `chosen` one (whose findings the page
/// lists and marks) with every rule, every other client with its gates alone, which is all its
/// verdict in the matrix needs (`skillpg_core::check_gates`: the same errors), under the
/// person's listing `settings` (the description cap).
pub fn compute(
    analyzed: &Analyzed,
    settings: skillpg_core::catalog::ListingSettings,
    chosen: &str,
) -> Computed {
    let start = browser::now_ms();
    let analyses = &analyzed.analyses;
    let checks: Vec<ProfileChecks> = profile::ALL
        .iter()
        .map(|p| {
            let whole = p.key == chosen;
            let per_skill = analyses
                .iter()
                .zip(analyzed.ids.iter())
                .zip(analyzed.own.iter())
                .map(|((a, &id), own)| checked(id, a, own, p, whole, &settings))
                .collect();
            (*p, per_skill)
        })
        .collect();
    Computed {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        analyses: analyses.clone(),
        checks: Arc::new(checks),
        elapsed_ms: browser::now_ms() - start + analyzed.elapsed_ms,
    }
}

/// The catalog rules and each client's listing of `computed`'s skills when they are installed
/// `together` (else nothing), at a `context_window` of tokens and the person's listing
/// `settings`. A client lists the skills that load under it (its gates), as every edge decides.
pub fn compute_catalog(
    computed: &Computed,
    together: bool,
    context_window: usize,
    settings: &skillpg_core::catalog::ListingSettings,
) -> CatalogComputed {
    let start = browser::now_ms();
    let analyses = &computed.analyses;
    let (catalog, listings) = if together {
        let catalog = profile::ALL
            .iter()
            .map(|p| {
                (
                    *p,
                    check_catalog_with(analyses, p, context_window, settings),
                )
            })
            .collect();
        let loads = |p: &Profile, i: usize| {
            computed
                .checks
                .iter()
                .find(|(c, _)| c.key == p.key)
                .and_then(|(_, per_skill)| per_skill.get(i))
                .is_none_or(|d| skillpg_report::project::loads(d))
        };
        let listings =
            skillpg_report::listings_of_loaded(analyses, Some(context_window), settings, &loads);
        (catalog, listings)
    } else {
        (
            profile::ALL.iter().map(|p| (*p, Vec::new())).collect(),
            Vec::new(),
        )
    };
    CatalogComputed {
        of: computed.generation,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(name: &str, body: &str) -> state::SkillInput {
        state::SkillInput {
            dir_name: name.to_owned(),
            files: vec![(
                "SKILL.md".to_owned(),
                format!(
                    "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\n{body}\n"
                )
                .into_bytes(),
            )],
            findings: Vec::new(),
            inside: None,
            folder_unknown: false,
        }
    }

    /// An edit to one skill reads that one again; the others keep their analyses and checks,
    /// and what the page shows equals a reading from scratch.
    #[test]
    fn an_edit_reads_only_the_skill_it_changed() {
        let mut skills: Vec<_> = (0..5).map(|i| skill(&format!("s{i}"), "Body.")).collect();
        let first = analyze_skills(&skills);
        skills[2] = skill("s2", "Changed body, with [a link](missing.md).");
        let second = analyze_skills(&skills);
        for i in [0, 1, 3, 4] {
            assert_eq!(first.ids[i], second.ids[i], "skill {i} kept");
        }
        assert_ne!(first.ids[2], second.ids[2]);
        // Removing the first skill moves the others: found by folder and bytes all the same.
        skills.remove(0);
        let third = analyze_skills(&skills);
        assert_eq!(&third.ids[..], &second.ids[1..]);
        let computed = compute(&third, Default::default(), "spec");
        READ.with(|r| r.borrow_mut().clear());
        CHECKED.with(|c| c.borrow_mut().clear());
        let fresh = compute(&analyze_skills(&skills), Default::default(), "spec");
        for ((p, a), (q, b)) in computed.checks.iter().zip(fresh.checks.iter()) {
            assert_eq!(p.key, q.key);
            assert_eq!(a, b, "{}", p.key);
        }
        assert!(
            computed.checks[0].1[1]
                .iter()
                .any(|d| d.rule == "broken-link"),
            "the changed skill's own finding: {:?}",
            computed.checks[0].1[1]
        );
    }

    /// The Check view follows the person's Claude Code listing settings: with
    /// `skillListingMaxDescChars` at 3,000, a 2,000-character description is not over the cap
    /// there either (the Listing column and the findings give one number).
    #[test]
    fn the_checks_follow_the_persons_listing_cap() {
        let long = "x".repeat(2_000);
        let skills = vec![state::SkillInput {
            dir_name: "s".into(),
            files: vec![(
                "SKILL.md".into(),
                format!("---\nname: s\ndescription: {long}\n---\nbody\n").into_bytes(),
            )],
            findings: Vec::new(),
            inside: None,
            folder_unknown: false,
        }];
        let analyzed = analyze_skills(&skills);
        let over = |settings: skillpg_core::catalog::ListingSettings| {
            compute(&analyzed, settings, "claude-code")
                .checks
                .iter()
                .find(|(p, _)| p.key == "claude-code")
                .map(|(_, d)| d[0].iter().filter(|d| d.rule == "listing-cap").count())
                .unwrap_or(0)
        };
        assert_eq!(over(Default::default()), 1);
        assert_eq!(
            over(skillpg_core::catalog::ListingSettings {
                max_description_chars: Some(3_000),
                ..Default::default()
            }),
            0
        );
    }
}
