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
use crate::yaml::{LenientType, Node};

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
    // A client whose name is optional takes the folder's name for an empty one (pi's
    // `frontmatter.name || parentDirName`): only a name that is there and not a string fails.
    let empty = match node {
        Node::Scalar(s) if s.value.trim().is_empty() => Some("empty".to_owned()),
        Node::Scalar(s) if cx.profile.yaml.type_of(s) == LenientType::Null => {
            Some(format!("`{}`, which reads as null", s.value))
        }
        Node::Scalar(s)
            if cx.profile.yaml.type_of(s) != LenientType::Str && cx.profile.yaml.reads_falsy(s) =>
        {
            Some(format!("`{}`, which reads as empty", s.value))
        }
        _ => None,
    };
    let (message, uses_folder) = match empty {
        Some(what) if !cx.profile.name_required => (
            format!(
                "`name` is {what}: {} uses the folder's name, `{}`",
                cx.profile.title, cx.a.dir_name
            ),
            true,
        ),
        // Where a name is optional, a name that is there and not a string is the only failure.
        _ if !cx.profile.name_required && cx.profile.is_gate(META.name) => {
            let type_name = match cx.as_string(node) {
                Err("NoneType") => "null",
                Err(t) => t,
                Ok(_) => "empty",
            };
            (
                format!(
                    "`name` is {type_name}, not a string: {} skips the skill (an empty `name` would give way to the folder's name)",
                    cx.profile.title
                ),
                false,
            )
        }
        _ => (message, false),
    };
    let span = cx.yaml_span(&node.span());
    if let Some(d) = cx.report_md(&META, span, message)
        && uses_folder
    {
        d.severity = d.severity.min(Severity::Warning);
    }
}
