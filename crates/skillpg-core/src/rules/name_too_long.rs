//! ## What it checks
//! `name` is at most 64 characters: code points after NFKC normalisation for skills-ref, or
//! the profile's unit (Codex collapses whitespace first; VS Code counts UTF-16 units).
//! ## Why it matters
//! The specification and every Anthropic product cap it at 64.
//! ## Example
//! A 70-character name.
//! ## Fix
//! Shorten it, and the folder's name with it.
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`.

use super::{Cx, RuleMeta, checked_name, sources};
use crate::diagnostic::Severity;
use crate::profile::{LengthUnit, Wording};

pub static META: RuleMeta = RuleMeta {
    code: "SPG033",
    name: "name-too-long",
    summary: "`name` is over 64 characters.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    // skills-ref counts the code points of the NFKC-normalised name; the other units count
    // the text as written.
    let counted = if cx.profile.length_unit == LengthUnit::CodePoints {
        &name
    } else {
        &scalar.value
    };
    let n = cx.profile.length(counted);
    if n <= 64 {
        return;
    }
    let message = match (cx.profile.wording, cx.profile.length_unit) {
        (Wording::AnthropicUpload, _) => {
            format!("Name is too long ({n} characters). Maximum is 64 characters.")
        }
        (Wording::Playground, unit) if unit != LengthUnit::CodePoints => {
            super::over_limit(META.name, "name", n, 64, cx.profile)
        }
        _ => format!("Skill name '{name}' exceeds 64 character limit ({n} chars)"),
    };
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
