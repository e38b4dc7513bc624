//! ## What it checks
//! `license`, when present and not empty, is a string, under the clients whose schema types
//! it and refuse the skill otherwise (Mistral Vibe's `license: str | None`). Under every other
//! profile the same value is `non-string-scalar`'s warning, so this rule reports only where it
//! is a gate.
//! ## Why it matters
//! YAML reads `license: 2024` as a number and `license: no` as `false`; pydantic then refuses
//! the whole skill (`Input should be a valid string`), and the client lists nothing.
//! ## Example
//! `license: 2024`
//! ## Fix
//! Quote the value: `license: "2024"` (safe).
//! ## Source
//! mistral-vibe 3.0.3 `vibe/core/skills/models.py` (`SkillMetadata.license`), run in
//! `tests/client_oracles.rs`.

use super::{Cx, RuleMeta, fix, sources, yaml_quote};
use crate::diagnostic::{Applicability, Severity};
use crate::yaml::{Node, Style};

pub static META: RuleMeta = RuleMeta {
    code: "SPG094",
    name: "license-not-string",
    summary: "`license` is not a string, where the client refuses the skill for it.",
    default_severity: Severity::Error,
    source: sources::MISTRAL_VIBE,
};

pub fn check(cx: &mut Cx) {
    if !cx.profile.is_gate(META.name) {
        return;
    }
    let Some(node) = cx.field("license") else {
        return;
    };
    let Err(type_name) = cx.as_string(node) else {
        return;
    };
    // `license:` with no value is `None`, which `str | None` takes.
    if type_name == "NoneType" {
        return;
    }
    let message = format!(
        "`license` is read as {type_name}, not a string: {} refuses the skill",
        cx.profile.title
    );
    let span = cx.yaml_span(&node.span());
    // A plain scalar quotes safely; a list or a map needs rewriting by hand.
    let quoted = match node {
        Node::Scalar(s) if s.style == Style::Plain => Some(yaml_quote(&s.value)),
        _ => None,
    };
    if let Some(d) = cx.report_md(&META, span.clone(), message)
        && let (Some(quoted), Some(span)) = (quoted, span)
    {
        d.fix = Some(fix("Quote the value", span, quoted, Applicability::Safe));
    }
}
