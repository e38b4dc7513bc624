//! ## What it checks
//! `name` has no `--`.
//! ## Why it matters
//! The specification forbids it.
//! ## Example
//! `name: pdf--tools`
//! ## Fix
//! Use one hyphen.
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`.

use super::{Cx, RuleMeta, checked_name, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG036",
    name: "name-consecutive-hyphens",
    summary: "`name` has consecutive hyphens.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    if !name.contains("--") {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => {
            format!("Name '{name}' cannot start/end with hyphen or contain consecutive hyphens")
        }
        _ => "Skill name cannot contain consecutive hyphens".to_owned(),
    };
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
