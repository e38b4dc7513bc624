//! ## What it checks
//! SKILL.md is under 500 lines and its body under 5,000 tokens.
//! ## Why it matters
//! The body is paid in full on every activation; what is not needed every time belongs in
//! level 3, where it costs nothing until read.
//! ## Example
//! A 900-line SKILL.md with every reference inlined.
//! ## Fix
//! Move detail into `references/` and link to it with a word on when to read it.
//! ## Source
//! Agent Skills specification, "Progressive disclosure".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG060",
    name: "body-too-long",
    summary: "SKILL.md over 500 lines or its body over 5,000 tokens.",
    default_severity: Severity::Warning,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let n_lines = cx.a.md_line_index().map_or(0, |i| i.n_lines(&doc.text));
    if n_lines > 500 {
        cx.report_md(
            &META,
            None,
            format!("SKILL.md is {n_lines} lines; the specification recommends under 500"),
        );
    }
    // A token is at least one byte: a body of at most 5,000 bytes is not counted.
    if cx.a.body_bytes() <= 5000 {
        return;
    }
    let tokens = cx.a.body_tokens();
    if tokens > 5000 {
        let message = format!(
            "the body is {} tokens (o200k_base); the specification recommends under 5,000, paid on every activation",
            super::n(tokens)
        );
        cx.report_md(&META, None, message);
    }
}
