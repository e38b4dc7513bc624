//! ## What it checks
//! `description` plus `when_to_use` fits Claude Code's listing cap (1,536 characters, or the
//! person's `skillListingMaxDescChars`: the cap its listing uses, `ListingSettings::description_cap`).
//! ## Why it matters
//! Claude Code truncates the entry in the skill listing, so the end of the description, often
//! the "use when" part, never reaches the model.
//! ## Example
//! A 1,200-character description with a 500-character `when_to_use`.
//! ## Fix
//! Shorten both; put the trigger first.
//! ## Source
//! Claude Code docs, `description` (`skillListingMaxDescChars`).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG050",
    name: "listing-cap",
    summary: "`description` + `when_to_use` is over the listing cap.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

pub fn check(cx: &mut Cx) {
    let Some(cap) = cx.profile.listing_cap_chars else {
        return;
    };
    let cap = cx.settings.description_cap(cx.profile).unwrap_or(cap);
    let description = cx
        .field("description")
        .and_then(|n| n.as_scalar())
        .map(|s| s.value.chars().count())
        .unwrap_or(0);
    let when = cx
        .field("when_to_use")
        .and_then(|n| n.as_scalar())
        .map(|s| s.value.chars().count())
        .unwrap_or(0);
    let n = description + when;
    if n <= cap {
        return;
    }
    let span = cx
        .field("description")
        .and_then(|n| cx.yaml_span(&n.span()));
    let message = format!(
        "description + when_to_use is {n} characters; the listing truncates at {cap}, so the last {} never reach the model",
        n - cap
    );
    cx.report_md(&META, span, message);
}
