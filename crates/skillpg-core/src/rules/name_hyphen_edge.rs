//! ## What it checks
//! `name` does not start or end with a hyphen.
//! ## Why it matters
//! The specification forbids it.
//! ## Example
//! `name: -pdf-`
//! ## Fix
//! Remove the hyphens at the ends.
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`.

use super::{Cx, RuleMeta, checked_name, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG035",
    name: "name-hyphen-edge",
    summary: "`name` starts or ends with a hyphen.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    if !(name.starts_with('-') || name.ends_with('-')) {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => {
            format!("Name '{name}' cannot start/end with hyphen or contain consecutive hyphens")
        }
        _ => "Skill name cannot start or end with a hyphen".to_owned(),
    };
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
