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
    // Counted only past 10,000 bytes (a token is at least one byte; SKILL.md is never counted
    // whole), and only up to 25,000: the exact count is `skillpg levels`'s (or known already, as
    // in the page).
    let big: Vec<(String, usize, bool)> =
        cx.a.files
            .iter()
            .filter(|f| f.may_exceed(10_000))
            .map(|f| {
                let tokens = f.tokens_up_to(25_000);
                (f.path.clone(), tokens, f.tokens_known() == Some(tokens))
            })
            .filter(|(_, tokens, _)| *tokens > 10_000)
            .collect();
    for (path, tokens, exact) in big {
        let message = match (tokens > 25_000, exact) {
            (true, false) => format!(
                "{path} is over 25,000 tokens (o200k_base; `skillpg levels` gives its count); an agent that opens it reads all of it"
            ),
            (over_25k, _) => {
                format!(
                    "{path} is {} tokens (o200k_base), over {}; an agent that opens it reads all of it",
                    super::n(tokens),
                    if over_25k { "25,000" } else { "10,000" }
                )
            }
        };
        cx.report(&META, &path, None, message);
    }
}
