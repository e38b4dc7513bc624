//! ## What it checks
//! `name` and `description` hold no XML tags (no `<` or `>`).
//! ## Why it matters
//! claude.ai upload and the Skills API refuse them: level 1 is placed inside XML in the system
//! prompt, where a tag could close or open an element.
//! ## Example
//! `description: Formats <table> output`
//! ## Fix
//! Write the word without angle brackets.
//! ## Source
//! Claude API docs, field requirements; `quick_validate.py`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG040",
    name: "xml-in-field",
    summary: "`name` or `description` contains angle brackets.",
    default_severity: Severity::Error,
    source: sources::PACKAGER,
};

pub fn check(cx: &mut Cx) {
    for (field, message) in [
        ("name", "Name cannot contain XML tags (< or >)"),
        (
            "description",
            "Description cannot contain angle brackets (< or >)",
        ),
    ] {
        let Some(node) = cx.field(field) else {
            continue;
        };
        let Some(scalar) = node.as_scalar() else {
            continue;
        };
        if scalar.value.contains(['<', '>']) {
            let span = cx.yaml_span(&scalar.span);
            cx.report_md(&META, span, message.to_owned());
        }
    }
}
