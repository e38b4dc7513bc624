//! ## What it checks
//! The level-1 entries of skills installed together fit Claude Code's listing budget: 1% of
//! the context window, at 4 characters per token (8,000 characters for a 200k window).
//! It runs only over a catalog the user declares (`skillpg check --catalog`, or the page's
//! "installed together" switch), and reports once for the whole catalog.
//! ## Why it matters
//! Past the budget, descriptions are shortened or dropped from the listing, and a skill whose
//! description is gone is never chosen.
//! ## Example
//! Sixty skills with 300-character descriptions.
//! ## Fix
//! Shorten the longest descriptions; disable model invocation of skills only people call.
//! ## Source
//! Claude Code docs, skill listing budget (`skillListingBudgetFraction`).

use super::RuleMeta;
use super::sources;
use crate::analysis::Analysis;
use crate::diagnostic::{Diagnostic, Severity};
use crate::profile::Profile;

pub static META: RuleMeta = RuleMeta {
    code: "SPG051",
    name: "listing-budget",
    summary: "The catalog's level-1 entries are over Claude Code's listing budget.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

/// The finding over a catalog of `analyses` installed together, if their level-1 entries are
/// over the budget of a `context_window_tokens` window under a profile that lists skills.
pub fn check(analyses: &[Analysis], profile: &Profile, context_window_tokens: usize) -> Option<Diagnostic> {
    profile.listing_cap_chars?;
    let severity = profile.severity(META.name, META.default_severity)?;
    // 1% of the context window, at 4 characters per token.
    let budget = context_window_tokens / 100 * 4;
    let mut entries: Vec<(&str, usize)> = analyses.iter().map(|a| (a.display_name(), a.level1_line.chars().count())).collect();
    let total: usize = entries.iter().map(|(_, n)| n).sum();
    if total <= budget {
        return None;
    }
    // Estimate: the listing is filled in name order and what does not fit is dropped.
    entries.sort();
    let mut used = 0;
    let mut past: Vec<&str> = Vec::new();
    for (name, n) in entries {
        used += n;
        if used > budget {
            past.push(name);
        }
    }
    const SHOWN: usize = 5;
    let mut names = past.iter().take(SHOWN).map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    if past.len() > SHOWN {
        names.push_str(&format!(" and {} more", super::n(past.len() - SHOWN)));
    }
    let message = format!(
        "the {} skills installed together take {} characters of level 1, over Claude Code's listing budget of {} (1% of a {}-token window at 4 characters a token); {} of them fall past it (estimate, filled in name order): {names}",
        super::n(analyses.len()),
        super::n(total),
        super::n(budget),
        super::n(context_window_tokens),
        super::n(past.len()),
    );
    Some(Diagnostic { code: META.code, rule: META.name, severity, message, file: String::new(), span: None, location: None, fix: None, source: META.source })
}
