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
    let files: Vec<&crate::FileFacts> =
        cx.a.files
            .iter()
            .filter(|f| f.counted && f.text.text().is_some())
            .collect();
    // A token is at least one byte: files of 25,000 bytes in all are not counted.
    if files.iter().map(|f| f.n_bytes).sum::<usize>() <= 25_000 {
        return;
    }
    let n_files =
        cx.a.files
            .iter()
            .filter(|f| Some(&f.path) != cx.a.skill_md_path.as_ref())
            .count();
    // The exact total when the levels are already counted (the page counts them); otherwise
    // count file by file and stop once past 50,000 (`skillpg levels` gives the total).
    let (total, complete) = match cx.a.counted_levels() {
        Some(levels) => (levels.level3, true),
        None => {
            let mut total = 0;
            let mut complete = true;
            for (idx, f) in files.iter().enumerate() {
                // Each file counted only as far as the running total needs.
                let n = f.tokens_up_to(50_000 - total);
                total += n;
                if total > 50_000 {
                    // Exact only when this was the last file and it was counted to its end.
                    complete = idx + 1 == files.len() && f.tokens_known() == Some(n);
                    break;
                }
            }
            (total, complete)
        }
    };
    if total <= 25_000 {
        return;
    }
    let message = match (complete, total > 50_000) {
        (true, over_50k) => format!(
            "the {} bundled files hold {} tokens (o200k_base), over {}",
            n_files,
            super::n(total),
            if over_50k { "50,000" } else { "25,000" }
        ),
        (false, _) => format!(
            "the {n_files} bundled files hold over 50,000 tokens (o200k_base; `skillpg levels` gives the exact total)"
        ),
    };
    cx.report(&META, "", None, message);
}
