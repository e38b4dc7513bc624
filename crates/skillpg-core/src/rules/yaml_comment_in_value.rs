//! ## What it checks
//! A plain `description` or `name` value is not cut short by ` #`, which starts a YAML comment.
//! ## Why it matters
//! `description: Lint C# code #fast` loads as `Lint C# code`; the rest silently vanishes.
//! ## Example
//! `description: Reviews PRs #github`
//! ## Fix
//! Quote the whole value (unsafe: the comment becomes part of the value).
//! ## Source
//! YAML 1.2 §6.6 (comments).

use super::{Cx, RuleMeta, fix, sources, yaml_quote};
use crate::diagnostic::{Applicability, Severity};
use crate::yaml::{Node, Style};

pub static META: RuleMeta = RuleMeta {
    code: "SPG021",
    name: "yaml-comment-in-value",
    summary: "` #` cuts a plain value short.",
    default_severity: Severity::Warning,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(index) = cx.a.md_line_index() else {
        return;
    };
    for field in ["name", "description"] {
        let Some(Node::Scalar(scalar)) = cx.field(field) else {
            continue;
        };
        if scalar.style != Style::Plain || scalar.span.is_empty() {
            continue;
        }
        let span = doc.yaml_span(&scalar.span);
        let line = index.line_col(&doc.text, span.end).line;
        let line_end = index.line_range(&doc.text, line).end;
        let rest = &doc.text[span.end..line_end];
        let Some(hash) = rest.find('#') else { continue };
        if !rest[..hash].trim().is_empty() {
            continue;
        }
        let comment = rest[hash..].trim_end();
        let message = format!(
            "`{comment}` is a YAML comment, so `{field}` ends before it; quote the value if it belongs to it"
        );
        let whole = format!(
            "{}{}",
            &doc.text[span.clone()],
            &rest[..hash + comment.len()]
        );
        if let Some(d) = cx.report_md(
            &META,
            Some(span.end + hash..span.end + hash + comment.len()),
            message,
        ) {
            d.fix = Some(fix(
                "Quote the value with the comment",
                span.start..span.end + hash + comment.len(),
                yaml_quote(&whole),
                Applicability::Unsafe,
            ));
        }
    }
}
