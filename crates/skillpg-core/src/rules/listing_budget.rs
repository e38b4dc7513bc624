//! ## What it checks
//! The level-1 entries of skills installed together fit the listing budget of each client that
//! documents one: Claude Code's 1% of the context window at 4 characters a token, Codex's 2%
//! in approximate tokens (8,000 characters when the window is unknown), Zed's fixed 50 KB and
//! the Copilot CLI's fixed 15,000 characters (both filled in order, the rest dropped). It runs only over a
//! catalog the user declares (`skillpg check --catalog`, or the page's "installed together"
//! switch), and reports once for the whole catalog.
//! ## Why it matters
//! Past the budget, descriptions are shortened (Codex then leaves skills out), and a skill
//! whose description is gone is never chosen.
//! ## Example
//! Sixty skills with 300-character descriptions.
//! ## Fix
//! Shorten the longest descriptions, front-loading what the skill is for; disable model
//! invocation of skills only people call.
//! ## Source
//! Claude Code docs, skill listing budget (`skillListingBudgetFraction`); Codex docs and
//! `render.rs` (`SKILL_METADATA_CONTEXT_WINDOW_PERCENT`, `DEFAULT_SKILL_METADATA_CHAR_BUDGET`).

use super::RuleMeta;
use super::sources;
use crate::analysis::Analysis;
use crate::catalog::{self, InstalledSkill};
use crate::diagnostic::{Diagnostic, Severity};
use crate::profile::Profile;

pub static META: RuleMeta = RuleMeta {
    code: "SPG051",
    name: "listing-budget",
    summary: "The catalog's level-1 entries are over a client's listing budget.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

/// The finding over a catalog of `analyses` installed together, if their level-1 entries are
/// over the budget of a `context_window_tokens` window under a profile that lists skills.
pub fn check(
    analyses: &[Analysis],
    profile: &Profile,
    context_window_tokens: usize,
    settings: &catalog::ListingSettings,
) -> Option<Diagnostic> {
    let severity = profile.severity(META.name, META.default_severity)?;
    let installed: Vec<InstalledSkill> = analyses
        .iter()
        .map(|a| InstalledSkill::from_analysis(a, profile))
        .collect();
    let report = catalog::listing_with(profile, &installed, Some(context_window_tokens), settings)?;
    if report.fits() {
        return None;
    }
    const SHOWN: usize = 5;
    let named = |pick: &dyn Fn(&catalog::ListedSkill) -> bool| {
        let names: Vec<&str> = report
            .skills
            .iter()
            .filter(|s| pick(s))
            .map(|s| s.name.as_str())
            .collect();
        let mut text = names
            .iter()
            .take(SHOWN)
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if names.len() > SHOWN {
            text.push_str(&format!(" and {} more", super::n(names.len() - SHOWN)));
        }
        text
    };
    let listing = profile.listing?;
    // The share the person set (Claude Code's skillListingBudgetFraction), else the client's.
    let share = match settings.budget_fraction.filter(|_| listing.settable) {
        Some(f) => format!("{}%", (f * 1000.0).round() / 10.0),
        None => format!("{}%", listing.percent_of_window),
    };
    // A fixed budget (Zed, the Copilot CLI) is the same in every window.
    let of_what = match listing.cost {
        crate::profile::ListingCost::FixedBytes(_) | crate::profile::ListingCost::FixedChars(_) => {
            "whatever the window".to_owned()
        }
        _ => format!(
            "{share} of a {}-token window",
            super::n(context_window_tokens)
        ),
    };
    let mut message = format!(
        "the {} skills installed together take {} {} of level 1, over {}'s listing budget of {} ({of_what})",
        super::n(analyses.len()),
        super::n(report.whole_cost),
        report.budget.unit.noun(),
        profile.title,
        super::n(report.budget.limit),
    );
    if report.cut() > 0 {
        message.push_str(&format!(
            "; it shortens {} description(s): {}",
            super::n(report.cut()),
            named(&|s| s.is_cut())
        ));
    }
    if report.omitted() > 0 {
        message.push_str(&format!(
            "; it leaves out {} skill(s): {}",
            super::n(report.omitted()),
            named(&|s| s.is_omitted())
        ));
    }
    Some(super::catalog_finding(&META, severity, message))
}
