//! ## What it checks
//! `allowed-tools`, when present, is a space-separated string.
//! ## Why it matters
//! The specification defines a string (`Bash(git:*) Read`); skills-ref passes a list through,
//! and other clients may not.
//! ## Example
//! `allowed-tools:` followed by `- Read` and `- Write`.
//! ## Fix
//! Join the list with spaces (safe).
//! ## Source
//! Agent Skills specification, `allowed-tools`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG048",
    name: "allowed-tools-not-string",
    summary: "`allowed-tools` is not a space-separated string.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("allowed-tools") else {
        return;
    };
    if node.as_scalar().is_some() {
        return;
    }
    let message = format!(
        "Field 'allowed-tools' must be a space-separated string, not a {} (the specification's text; skills-ref accepts it)",
        node.kind_name()
    );
    let span = cx.yaml_span(&node.span());
    let joined = match node {
        Node::Seq { items, .. } => items
            .iter()
            .map(|i| i.as_scalar().map(|s| s.value.clone()))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(" ")),
        _ => None,
    };
    // A block list starts on the next line; the replacement goes right after `allowed-tools:`.
    let key_end = cx
        .entries()
        .and_then(|e| e.iter().find(|(k, _)| k.value == "allowed-tools"))
        .map(|(k, _)| k.span.end + 1);
    let fix_span = key_end.and_then(|k| cx.yaml_span(&(k..node.span().end)));
    if let Some(d) = cx.report_md(&META, span, message)
        && let (Some(joined), Some(fix_span)) = (joined, fix_span)
    {
        d.fix = Some(fix(
            "Join the tools with spaces",
            fix_span,
            // Quoted where YAML needs it (`Bash(git: *)` holds ": "), so every client reads a string.
            format!(" {}", crate::fix::yaml_value("allowed-tools", &joined)),
            Applicability::Safe,
        ));
    }
}
