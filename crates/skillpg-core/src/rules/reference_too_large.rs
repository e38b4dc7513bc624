//! ## What it checks
//! Each bundled text file is under 10,000 tokens (warning) and 25,000 (error).
//! ## Why it matters
//! A file is read whole when the body sends the agent there; after compaction Claude Code
//! keeps only 5,000 tokens of a skill and 25,000 for all of them together.
//! ## Example
//! vercel-react-best-practices' `AGENTS.md`, 26,362 tokens.
//! ## Fix
//! Split the file by topic and link each part with when to read it.
//! ## Source
//! Claude Code docs (re-attached skills after compaction: 5,000 / 25,000 tokens).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG061",
    name: "reference-too-large",
    summary: "A bundled file over 10,000 tokens.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

pub fn check(cx: &mut Cx) {
    let skill_md = cx.a.skill_md_path.clone();
    let big: Vec<(String, usize)> =
        cx.a.files.iter().filter(|f| Some(&f.path) != skill_md.as_ref() && f.tokens > 10_000).map(|f| (f.path.clone(), f.tokens)).collect();
    for (path, tokens) in big {
        let limit = if tokens > 25_000 { "25,000" } else { "10,000" };
        let message = format!("{path} is {} tokens (o200k_base), over {limit}; an agent that opens it reads all of it", super::n(tokens));
        if let Some(d) = cx.report(&META, &path, None, message) {
            if tokens <= 25_000 {
                d.severity = d.severity.min(Severity::Warning);
            }
        }
    }
}
