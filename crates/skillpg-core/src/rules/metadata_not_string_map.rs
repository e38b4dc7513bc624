//! ## What it checks
//! `metadata`, when it is a map, maps string keys to string values (a `metadata` that is not a
//! map at all is `metadata-not-mapping`).
//! ## Why it matters
//! The specification defines it so; skills-ref accepts anything (it coerces nested maps with
//! Python's `str()`), and Claude Code drops a value that is not a map.
//! ## Example
//! `metadata:` with a nested `tags:` list.
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
    // Not a map at all is `metadata-not-mapping`'s.
    let Some(Node::Map { entries, .. }) = cx.field("metadata") else {
        return;
    };
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
