//! ## What it checks
//! String fields (`license`, Claude Code's string fields, `metadata` values) are not read as
//! numbers, booleans or null by YAML 1.1 loaders.
//! ## Why it matters
//! PyYAML and js-yaml read `version: 1.0` as the float `1` and `license: no` as `false`;
//! strictyaml reads both as strings, so the same file means different things in different
//! products.
//! ## Example
//! `metadata:` with `version: 1.10` (read as 1.1).
//! ## Fix
//! Quote the value (safe).
//! ## Source
//! YAML 1.1 type repository (bool, int, float, null); Agent Skills specification, `metadata`.

use super::{Cx, RuleMeta, fix, sources, yaml_quote};
use crate::diagnostic::{Applicability, Severity};
use crate::yaml::{LenientType, Node, Scalar, Style};

pub static META: RuleMeta = RuleMeta {
    code: "SPG022",
    name: "non-string-scalar",
    summary: "A string field that YAML 1.1 loaders read as a number, boolean or null.",
    default_severity: Severity::Warning,
    source: sources::SPEC,
};

const STRING_FIELDS: [&str; 5] = ["license", "when_to_use", "argument-hint", "model", "agent"];

pub fn check(cx: &mut Cx) {
    if !cx.profile.yaml.types_scalars() {
        return;
    }
    let mut found: Vec<(String, Scalar)> = Vec::new();
    for field in STRING_FIELDS {
        // Where the client refuses a license that is not a string, `license-not-string` says so.
        if field == "license" && cx.profile.is_gate(super::license_not_string::META.name) {
            continue;
        }
        if let Some(Node::Scalar(s)) = cx.field(field) {
            found.push((field.to_owned(), s.clone()));
        }
    }
    if let Some(Node::Map { entries, .. }) = cx.field("metadata") {
        for (k, v) in entries {
            if let Node::Scalar(s) = v {
                found.push((format!("metadata.{}", k.value), s.clone()));
            }
        }
    }
    for (field, scalar) in found {
        let kind = match cx.profile.yaml.type_of(&scalar) {
            LenientType::Str => continue,
            LenientType::Null if scalar.value.is_empty() => continue,
            LenientType::Bool => "a boolean",
            LenientType::Int => "an integer",
            LenientType::Float => "a float",
            LenientType::Null => "null",
            LenientType::Timestamp => "a date",
        };
        if scalar.style != Style::Plain {
            continue;
        }
        let message = if cx.profile.yaml.yaml_1_2_types() {
            format!(
                "`{field}: {}` is {kind} to {}'s YAML reader ({}, YAML 1.2 types) and a string to strictyaml; quote it",
                scalar.value,
                cx.profile.title,
                cx.profile.yaml.library()
            )
        } else {
            format!(
                "`{field}: {}` is {kind} to YAML 1.1 loaders (PyYAML) and a string to strictyaml; quote it",
                scalar.value
            )
        };
        let Some(span) = cx.yaml_span(&scalar.span) else {
            continue;
        };
        let quoted = yaml_quote(&scalar.value);
        if let Some(d) = cx.report_md(&META, Some(span.clone()), message) {
            d.fix = Some(fix("Quote the value", span, quoted, Applicability::Safe));
        }
    }
}
