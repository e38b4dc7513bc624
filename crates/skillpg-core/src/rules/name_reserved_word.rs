//! ## What it checks
//! `name` does not contain the reserved words `anthropic` or `claude`.
//! ## Why it matters
//! claude.ai upload and the Skills API refuse such names.
//! ## Example
//! `name: claude-helper`
//! ## Fix
//! Choose another name.
//! ## Source
//! Claude API docs, Agent Skills overview, field requirements.

use super::{Cx, RuleMeta, checked_name, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG039",
    name: "name-reserved-word",
    summary: "`name` contains a reserved word.",
    default_severity: Severity::Error,
    source: sources::CLAUDE_API,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    let lower = name.to_lowercase();
    let Some(word) = cx
        .profile
        .reserved_words
        .iter()
        .find(|w| lower.contains(*w))
    else {
        return;
    };
    let message = format!(
        "Skill name '{name}' cannot contain reserved words: \"anthropic\", \"claude\" (found \"{word}\")"
    );
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
