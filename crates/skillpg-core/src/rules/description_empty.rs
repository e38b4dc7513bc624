//! ## What it checks
//! `description` is a non-empty string.
//! ## Why it matters
//! An empty description routes nothing: no request can match it.
//! ## Example
//! `description: ""`
//! ## Fix
//! Say what the skill does and when to use it.
//! ## Source
//! skills-ref `_validate_description`; Claude API docs ("Must be non-empty").

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG042",
    name: "description-empty",
    summary: "`description` is empty or not a string.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("description") else {
        return;
    };
    let message = match (cx.as_string(node), cx.profile.wording) {
        (Ok(v), _) if !v.trim().is_empty() => return,
        (Ok(v), _) if !cx.profile.description_trimmed && !v.is_empty() => return,
        (Err(type_name), Wording::AnthropicUpload) => {
            format!("Description must be a string, got {type_name}")
        }
        (Ok(_), Wording::AnthropicUpload) => "Description must be non-empty".to_owned(),
        _ => "Field 'description' must be a non-empty string".to_owned(),
    };
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
