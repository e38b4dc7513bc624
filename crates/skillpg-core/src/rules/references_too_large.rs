//! ## What it checks
//! All bundled files together are under 25,000 tokens (warning) and 50,000 (error).
//! ## Why it matters
//! A large level 3 is fine only if the body routes precisely into it; past these sizes an
//! agent that follows a broad link can fill a context window.
//! ## Example
//! vercel-react-best-practices: 53,670 tokens in 75 files.
//! ## Fix
//! Remove duplicates (a compiled `AGENTS.md` beside the rules it compiles) and scaffolding.
//! ## Source
//! Claude Code docs (compaction budget of 25,000 tokens for re-attached skills).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG062",
    name: "references-too-large",
    summary: "All bundled files together over 25,000 tokens.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

pub fn check(cx: &mut Cx) {
    let total = cx.a.levels.level3;
    if total <= 25_000 {
        return;
    }
    let limit = if total > 50_000 { "50,000" } else { "25,000" };
    let message = format!("the {} bundled files hold {} tokens (o200k_base), over {limit}", cx.a.levels.files, super::n(total));
    if let Some(d) = cx.report(&META, "", None, message) {
        if total <= 50_000 {
            d.severity = d.severity.min(Severity::Warning);
        }
    }
}
