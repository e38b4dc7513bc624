//! ## What it checks
//! `compatibility`, when present, is not empty.
//! ## Why it matters
//! The specification's text says "Must be 1-500 characters if provided"; skills-ref accepts
//! `""`. An empty field says nothing and costs tokens.
//! ## Example
//! `compatibility: ""`
//! ## Fix
//! Remove the field, or say what the skill needs.
//! ## Source
//! Agent Skills specification, `compatibility`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG046",
    name: "compatibility-empty",
    summary: "`compatibility` is empty.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(Node::Scalar(scalar)) = cx.field("compatibility") else {
        return;
    };
    if !scalar.value.is_empty() {
        return;
    }
    let message = "Field 'compatibility' must be 1-500 characters if provided (the specification's text; skills-ref accepts an empty value)".to_owned();
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
