//! ## What it checks
//! `metadata`, when present, is a map (not a string, a number or a list).
//! ## Why it matters
//! The specification defines it as a map. Codex reads it into a struct and refuses the whole
//! skill when it is not one (`invalid YAML: invalid type`); skills-ref accepts anything, and
//! Claude Code drops a value that is not a map. A map whose values are not strings is
//! `metadata-not-string-map`, which no client refuses.
//! ## Example
//! `metadata: v2`, or `metadata:` followed by a list.
//! ## Fix
//! Make it a map: `metadata:` then `version: "2"` indented below.
//! ## Source
//! Agent Skills specification, `metadata`; openai/codex `core-skills/src/loader.rs`
//! (`SkillFrontmatterMetadata`).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::{LenientType, Node};

pub static META: RuleMeta = RuleMeta {
    code: "SPG085",
    name: "metadata-not-mapping",
    summary: "`metadata` is not a map.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("metadata") else {
        return;
    };
    if matches!(node, Node::Map { .. }) {
        return;
    }
    // A null is no value to a Python or JavaScript reader (Mistral Vibe's `normalize_metadata`
    // turns `None` into `{}`, its own loader run in tests/client_oracles.rs); strictyaml and
    // serde read it otherwise.
    if let Node::Scalar(s) = node
        && cx.profile.yaml.types_scalars()
        && cx.profile.yaml.type_of(s) == LenientType::Null
    {
        return;
    }
    let message = format!(
        "Field 'metadata' must be a map, not a {}: the specification's text and Codex want a map (skills-ref accepts it)",
        node.kind_name()
    );
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
