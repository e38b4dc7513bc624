//! ## What it checks
//! The frontmatter ends with a `---` line.
//! ## Why it matters
//! Without it the whole file is frontmatter and there is no body. skills-ref ends the
//! frontmatter at the first `---` anywhere, even inside a line, so it may read such a file
//! differently; the specification's text needs a `---` line.
//! ## Example
//! `---`, `name: x`, `description: y`, then the body with no closing `---`.
//! ## Fix
//! Add a `---` line after the last field.
//! ## Source
//! Agent Skills specification, "SKILL.md format"; skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::{LineIndex, Severity};
use crate::frontmatter::Split;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG011",
    name: "frontmatter-unclosed",
    summary: "The frontmatter has no closing `---` line.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Split::Unclosed { .. } = doc.split else {
        return;
    };
    let mut message = match cx.profile.wording {
        Wording::AnthropicUpload => "Invalid frontmatter format".to_owned(),
        _ => "SKILL.md frontmatter not properly closed with ---".to_owned(),
    };
    if let Some(cut) = doc.skills_ref_cut {
        let line = LineIndex::new(&doc.text).line_col(&doc.text, cut).line;
        message.push_str(&format!(" (skills-ref would end it at the `---` inside line {line} and accept the file; the specification's text needs a `---` line)"));
    }
    let start = doc.bom_len;
    cx.report_md(&META, Some(start..start + 3), message);
}
