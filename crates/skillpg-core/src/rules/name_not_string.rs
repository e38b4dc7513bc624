//! ## What it checks
//! `name` is a non-empty string.
//! ## Why it matters
//! A number, a list or an empty value cannot name a skill.
//! Under YAML 1.1 loaders `name: 123` is an integer; under strictyaml it is the string `123`.
//! ## Example
//! `name:` with nothing after it.
//! ## Fix
//! Write the folder's name.
//! ## Source
//! skills-ref `_validate_name`; `quick_validate.py`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG032",
    name: "name-not-string",
    summary: "`name` is not a non-empty string.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("name") else { return };
    let message = match (cx.as_string(node), cx.profile.wording) {
        (Ok(v), _) if !v.trim().is_empty() => return,
        (Err(type_name), Wording::AnthropicUpload) => {
            format!("Name must be a string, got {type_name}")
        }
        (Ok(_), Wording::AnthropicUpload) => "Missing 'name' in frontmatter".to_owned(),
        _ => "Field 'name' must be a non-empty string".to_owned(),
    };
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
