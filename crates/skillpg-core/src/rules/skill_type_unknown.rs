//! ## What it checks
//! `type`, when present and not empty, is `standard` or `flow`, under the clients that read the
//! field and refuse any other value (Kimi Code CLI's `parse_skill_text`). Elsewhere `type` is
//! an unknown field, which `unknown-field` reports; this rule reports only where the client
//! reads `type` (under Kimi Code CLI, whose loader is replayed, as the advice that carries the
//! fix beside the replay's refusal).
//! ## Why it matters
//! Skills written for other tools use `type` for their own categories (`type: technique`,
//! `type: fuzzer`); Kimi Code CLI raises `Invalid skill type` and skips the skill.
//! ## Example
//! `type: technique`
//! ## Fix
//! Remove the field, or move the value under `metadata` (safe).
//! ## Source
//! MoonshotAI/kimi-cli `src/kimi_cli/skill/__init__.py` (`parse_skill_text`), kimi-cli 1.52.0.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG095",
    name: "skill-type-unknown",
    summary: "`type` is neither `standard` nor `flow`, where the client refuses the skill for it.",
    default_severity: Severity::Error,
    source: sources::KIMI_CLI,
};

pub fn check(cx: &mut Cx) {
    // Only where the client reads the field; where its loader is replayed (Kimi Code CLI), the
    // replay's refusal is the verdict and this finding is the advice that carries the fix.
    if !cx.profile.is_gate(META.name) && !cx.profile.fields.known().contains(&"type") {
        return;
    }
    let Some(node) = cx.field("type") else {
        return;
    };
    // `frontmatter.get("type") or "standard"`: a falsy value is the standard type.
    if let Node::Scalar(s) = node {
        if cx.profile.yaml.reads_falsy(s) {
            return;
        }
        if cx.profile.yaml.reads_string(s) && matches!(s.value.as_str(), "standard" | "flow") {
            return;
        }
    }
    let shown = match node {
        Node::Scalar(s) => format!("`{}`", s.value),
        _ => "not a single value".to_owned(),
    };
    let message = format!(
        "`type` is {shown}; {} knows only `standard` and `flow` (`Invalid skill type`) and skips the skill",
        cx.profile.title
    );
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
