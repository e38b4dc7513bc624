//! ## What it checks
//! Gemini CLI only: `name` holds none of `: \ / < > * ? " |`, which Gemini CLI turns into
//! `-`.
//! ## Why it matters
//! The skill loads under another name than the one written (`gke:prs-troubleshooter` becomes
//! `gke-prs-troubleshooter`), so a person who types the written name does not find it.
//! ## Example
//! `name: gke:prs-troubleshooter`.
//! ## Fix
//! Write the name Gemini CLI will show: kebab-case, as the specification asks.
//! ## Source
//! google-gemini/gemini-cli `skillLoader.test.ts`, "should sanitize skill names containing
//! invalid filename characters".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::FieldSet;

pub static META: RuleMeta = RuleMeta {
    code: "SPG084",
    name: "name-rewritten",
    summary: "Gemini CLI: `name` holds characters it replaces with `-`.",
    default_severity: Severity::Info,
    source: sources::GEMINI_CLI,
};

/// The characters Gemini CLI replaces in a skill's name.
const REPLACED: [char; 9] = [':', '\\', '/', '<', '>', '*', '?', '"', '|'];

pub fn check(cx: &mut Cx) {
    if cx.profile.fields != FieldSet::Gemini {
        return;
    }
    let Some(scalar) = cx.field("name").and_then(|n| n.as_scalar()) else {
        return;
    };
    if !scalar.value.contains(REPLACED) {
        return;
    }
    let shown: String = scalar
        .value
        .chars()
        .map(|c| if REPLACED.contains(&c) { '-' } else { c })
        .collect();
    let message = format!("Gemini CLI lists `{}` as `{shown}`", scalar.value);
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
