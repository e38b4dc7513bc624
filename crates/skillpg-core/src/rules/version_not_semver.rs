//! ## What it checks
//! `metadata.version`, when present, is a semantic version (`1.2.0`).
//! ## Why it matters
//! A contract-style skill is versioned so that consumers can tell a breaking change (MAJOR)
//! from a fix; `v2` or `1.0` says neither.
//! ## Example
//! `metadata:` with `version: "1.0"`.
//! ## Fix
//! Write MAJOR.MINOR.PATCH.
//! ## Source
//! Semantic Versioning 2.0.0; "SKILL.md as an interface contract".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG081",
    name: "version-not-semver",
    summary: "`metadata.version` is not semantic versioning.",
    default_severity: Severity::Info,
    source: sources::CONTRACT,
};

pub fn check(cx: &mut Cx) {
    let Some(meta) = cx.field("metadata") else {
        return;
    };
    let Some(Node::Scalar(version)) = meta.get("version") else {
        return;
    };
    let v = version.value.trim();
    if semver::Version::parse(v.strip_prefix('v').unwrap_or(v)).is_ok() {
        return;
    }
    let message = format!(
        "metadata.version '{v}' is not semantic versioning (MAJOR.MINOR.PATCH, e.g. 1.0.0)"
    );
    let span = cx.yaml_span(&version.span);
    cx.report_md(&META, span, message);
}
