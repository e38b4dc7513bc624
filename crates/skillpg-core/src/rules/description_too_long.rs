//! ## What it checks
//! `description` is at most 1,024 characters: code points, unstripped, for skills-ref and
//! Anthropic; code points once whitespace is collapsed for Codex; UTF-16 units for VS Code.
//! ## Why it matters
//! The specification and Anthropic's upload cap it; every character is paid on every turn.
//! ## Example
//! anthropics' own `claude-api` skill has 1,068.
//! ## Fix
//! Move detail into the body; keep what it does and when to use it.
//! ## Source
//! Agent Skills specification, `description`; skills-ref `_validate_description`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::{LengthUnit, Wording};

pub static META: RuleMeta = RuleMeta {
    code: "SPG043",
    name: "description-too-long",
    summary: "`description` is over 1,024 characters.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("description") else {
        return;
    };
    let Ok(value) = cx.as_string(node) else {
        return;
    };
    if value.trim().is_empty() {
        return;
    }
    let n = cx.profile.length(value);
    if n <= 1024 {
        return;
    }
    let message = match (cx.profile.wording, cx.profile.length_unit) {
        (Wording::AnthropicUpload, _) => {
            format!("Description is too long ({n} characters). Maximum is 1024 characters.")
        }
        // A client's own count, or a client that loads it anyway: say whose rule it is.
        (Wording::Playground, unit)
            if unit != LengthUnit::CodePoints || !cx.profile.is_gate(META.name) =>
        {
            super::over_limit(META.name, "description", n, 1024, cx.profile)
        }
        _ => format!("Description exceeds 1024 character limit ({n} chars)"),
    };
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
