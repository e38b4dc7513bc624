//! ## What it checks
//! `name` is at most 64 characters (code points, after NFKC normalisation).
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
use crate::profile::Wording;

pub static META: RuleMeta =
    RuleMeta { code: "SPG033", name: "name-too-long", summary: "`name` is over 64 characters.", default_severity: Severity::Error, source: sources::SKILLS_REF };

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else { return };
    let n = name.chars().count();
    if n <= 64 {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => format!("Name is too long ({n} characters). Maximum is 64 characters."),
        _ => format!("Skill name '{name}' exceeds 64 character limit ({n} chars)"),
    };
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
