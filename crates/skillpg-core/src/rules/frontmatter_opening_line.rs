//! ## What it checks
//! The opening `---` stands alone on the first line.
//! ## Why it matters
//! skills-ref accepts `---name: x` because it only tests `startswith("---")`; the
//! specification's text and line-based loaders need `---` alone, so they see no frontmatter.
//! ## Example
//! `---name: my-skill`
//! ## Fix
//! Break the line after `---` (safe).
//! ## Source
//! Agent Skills specification, "SKILL.md format"; skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};

pub static META: RuleMeta = RuleMeta {
    code: "SPG013",
    name: "frontmatter-opening-line",
    summary: "Text follows the opening `---` on the first line.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(rest) = doc.opening_line_rest.clone() else {
        return;
    };
    let message = format!(
        "the first line must be `---` alone, but `{}` follows it (skills-ref accepts this; the specification's text and line-based loaders do not)",
        &doc.text[rest.clone()]
    );
    if let Some(d) = cx.report_md(&META, Some(rest.clone()), message) {
        d.fix = Some(fix(
            "Put the frontmatter on its own lines",
            rest.start..rest.start,
            "\n".to_owned(),
            Applicability::Safe,
        ));
    }
}
