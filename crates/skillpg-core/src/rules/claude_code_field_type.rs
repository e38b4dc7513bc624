//! ## What it checks
//! Claude Code's fields have the documented types: booleans (`true`/`false`, `yes`/`no`,
//! `on`/`off`, `1`/`0` in any case), the enums `effort`, `context` and `shell`, strings, and
//! "string or list" fields.
//! ## Why it matters
//! A mistyped field is ignored or misread, silently: `user-invocable: nope` does not hide the
//! skill.
//! ## Example
//! `effort: maximum`
//! ## Fix
//! Use a documented value.
//! ## Source
//! Claude Code docs, "Frontmatter reference".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::FieldSet;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG049",
    name: "claude-code-field-type",
    summary: "A Claude Code field with a value of the wrong type.",
    default_severity: Severity::Error,
    source: sources::CLAUDE_CODE,
};

enum Kind {
    Bool,
    OneOf(&'static [&'static str]),
    Str,
    StrOrList,
    Map,
}

const FIELDS: [(&str, Kind); 14] = [
    ("disable-model-invocation", Kind::Bool),
    ("user-invocable", Kind::Bool),
    ("background", Kind::Bool),
    (
        "effort",
        Kind::OneOf(&["low", "medium", "high", "xhigh", "max"]),
    ),
    ("context", Kind::OneOf(&["fork"])),
    ("shell", Kind::OneOf(&["bash", "powershell"])),
    ("when_to_use", Kind::Str),
    ("argument-hint", Kind::Str),
    ("model", Kind::Str),
    ("agent", Kind::Str),
    ("arguments", Kind::StrOrList),
    ("disallowed-tools", Kind::StrOrList),
    ("paths", Kind::StrOrList),
    ("hooks", Kind::Map),
];

const BOOLS: [&str; 8] = ["true", "false", "yes", "no", "on", "off", "1", "0"];

/// The values Claude Code documents for `field`, when it documents a closed set (a boolean's are
/// `true` and `false`, the spellings it documents first): what an editor offers to complete.
pub fn documented_values(field: &str) -> Option<&'static [&'static str]> {
    FIELDS
        .iter()
        .find(|(f, _)| *f == field)
        .and_then(|(_, kind)| match kind {
            Kind::Bool => Some(&BOOLS[..2]),
            Kind::OneOf(values) => Some(*values),
            _ => None,
        })
}

pub fn check(cx: &mut Cx) {
    if cx.profile.fields != FieldSet::ClaudeCode {
        return;
    }
    for (field, kind) in &FIELDS {
        let Some(node) = cx.field(field) else {
            continue;
        };
        let problem = match (kind, node) {
            (Kind::Bool, Node::Scalar(s))
                if BOOLS.contains(&s.value.to_ascii_lowercase().as_str()) =>
            {
                None
            }
            (Kind::Bool, _) => Some(format!(
                "`{field}` must be a boolean (true/false, yes/no, on/off, 1/0)"
            )),
            (Kind::OneOf(values), Node::Scalar(s)) if values.contains(&s.value.as_str()) => None,
            (Kind::OneOf(values), _) => {
                Some(format!("`{field}` must be one of: {}", values.join(", ")))
            }
            (Kind::Str, Node::Scalar(_)) => None,
            (Kind::Str, other) => Some(format!(
                "`{field}` must be a string, not a {}",
                other.kind_name()
            )),
            (Kind::StrOrList, Node::Scalar(_) | Node::Seq { .. }) => None,
            (Kind::StrOrList, other) => Some(format!(
                "`{field}` must be a string or a list, not a {}",
                other.kind_name()
            )),
            (Kind::Map, Node::Map { .. }) => None,
            (Kind::Map, other) => Some(format!(
                "`{field}` must be a mapping (hooks configuration), not a {}",
                other.kind_name()
            )),
        };
        if let Some(message) = problem {
            let span = cx.yaml_span(&node.span());
            cx.report_md(&META, span, message);
        }
    }
    if let Some(node @ (Node::Scalar(_) | Node::Seq { .. })) = cx.field("metadata") {
        let span = cx.yaml_span(&node.span());
        cx.report_md(
            &META,
            span,
            "`metadata` is not a map: Claude Code drops it".to_owned(),
        );
    }
}
