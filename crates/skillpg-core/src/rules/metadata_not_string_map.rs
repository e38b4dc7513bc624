//! ## What it checks
//! `metadata`, when present, is a map from string keys to string values.
//! ## Why it matters
//! The specification defines it so; skills-ref accepts anything (it coerces nested maps with
//! Python's `str()`), and Claude Code drops a value that is not a map.
//! ## Example
//! `metadata: v2`, or `metadata:` with a nested `tags:` list.
//! ## Fix
//! Flatten nested values into strings (`tags: "a, b"`).
//! ## Source
//! Agent Skills specification, `metadata`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG047",
    name: "metadata-not-string-map",
    summary: "`metadata` is not a map of strings to strings.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("metadata") else {
        return;
    };
    match node {
        Node::Map { entries, .. } => {
            for (key, value) in entries {
                if value.as_scalar().is_none() {
                    let message = format!(
                        "metadata value '{}' is a {}; the specification's text wants a map of strings to strings (skills-ref accepts it)",
                        key.value,
                        value.kind_name()
                    );
                    let span = cx.yaml_span(&value.span());
                    cx.report_md(&META, span, message);
                }
            }
        }
        other => {
            let message = format!(
                "Field 'metadata' must be a map from string keys to string values, not a {} (the specification's text; skills-ref accepts it)",
                other.kind_name()
            );
            let span = cx.yaml_span(&other.span());
            cx.report_md(&META, span, message);
        }
    }
}
