//! ## What it checks
//! `compatibility` is at most 500 characters.
//! ## Why it matters
//! The specification caps it.
//! ## Example
//! A paragraph of installation notes in `compatibility`.
//! ## Fix
//! Move the detail into the body.
//! ## Source
//! Agent Skills specification, `compatibility`; skills-ref `_validate_compatibility`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG045",
    name: "compatibility-too-long",
    summary: "`compatibility` is over 500 characters.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("compatibility") else {
        return;
    };
    let Ok(value) = cx.as_string(node) else {
        return;
    };
    let n = cx.profile.length(value);
    if n <= 500 {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => {
            format!("Compatibility is too long ({n} characters). Maximum is 500 characters.")
        }
        _ => format!("Compatibility exceeds 500 character limit ({n} chars)"),
    };
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
