//! ## What it checks
//! Codex only: `metadata.short-description` is at most 1,024 characters once whitespace is
//! collapsed.
//! ## Why it matters
//! Codex refuses the whole skill (`invalid metadata.short-description: exceeds maximum length`),
//! not just the field; earlier releases allowed 500.
//! ## Example
//! A pasted README paragraph as the short description.
//! ## Fix
//! Keep it to one line that a person scans in a menu; the description says when to use it.
//! ## Source
//! openai/codex `core-skills/src/loader.rs`, `MAX_SHORT_DESCRIPTION_LEN`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::FieldSet;

pub static META: RuleMeta = RuleMeta {
    code: "SPG083",
    name: "short-description-too-long",
    summary: "Codex: `metadata.short-description` is over 1,024 characters.",
    default_severity: Severity::Error,
    source: sources::CODEX,
};

/// Codex's limit on `metadata.short-description`.
const LIMIT: usize = 1024;

pub fn check(cx: &mut Cx) {
    if cx.profile.fields != FieldSet::Codex {
        return;
    }
    let Some(node) = cx
        .field("metadata")
        .and_then(|m| m.get("short-description"))
    else {
        return;
    };
    let Some(scalar) = node.as_scalar() else {
        return;
    };
    let n = cx.profile.length(&scalar.value);
    if n <= LIMIT {
        return;
    }
    let message = super::over_limit(
        META.name,
        "metadata.short-description",
        n,
        LIMIT,
        cx.profile,
    ) + ", and refuses the whole skill over it";
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
