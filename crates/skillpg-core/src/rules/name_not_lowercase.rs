//! ## What it checks
//! `name` is lowercase (full Unicode lowercasing, as Python's `str.lower`).
//! ## Why it matters
//! The specification allows only lowercase letters.
//! ## Example
//! `name: PDF-Tools`
//! ## Fix
//! Lowercase it, and the folder's name with it (unsafe: the folder must follow).
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG034",
    name: "name-not-lowercase",
    summary: "`name` has uppercase letters.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = super::checked_name(cx) else {
        return;
    };
    let lower = name.to_lowercase();
    if name == lower {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => format!(
            "Name '{name}' should be kebab-case (lowercase letters, digits, and hyphens only)"
        ),
        _ => format!("Skill name '{name}' must be lowercase"),
    };
    let span = cx.yaml_span(&scalar.span);
    if let Some(d) = cx.report_md(&META, span.clone(), message)
        && let Some(span) = span.filter(|s| !s.is_empty())
    {
        d.fix = Some(fix(
            "Lowercase the name",
            span,
            crate::fix::yaml_value("name", &lower),
            Applicability::Unsafe,
        ));
    }
}
