//! ## What it checks
//! The level-1 entries of all loaded skills fit Claude Code's listing budget: 1% of the
//! context window, at 4 characters per token (8,000 characters for a 200k window).
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
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG051",
    name: "listing-budget",
    summary: "The catalog's level-1 entries are over Claude Code's listing budget.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};
