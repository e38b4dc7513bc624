//! ## What it checks
//! The opening `---` line has no spaces or tabs after the dashes.
//! ## Why it matters
//! Loaders that match the opening line exactly see no frontmatter and skip the skill: Gemini
//! CLI's `FRONTMATTER_REGEX` starts `^---\r?\n`. skills-ref and Codex trim the line and load it.
//! The space is invisible in most editors.
//! ## Example
//! `--- ` (a trailing space) as the first line.
//! ## Fix
//! Remove the spaces after `---` (safe).
//! ## Source
//! google-gemini/gemini-cli `packages/core/src/skills/skillLoader.ts` (`FRONTMATTER_REGEX`).

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};

pub static META: RuleMeta = RuleMeta {
    code: "SPG086",
    name: "frontmatter-opening-space",
    summary: "Spaces or tabs follow the opening `---`.",
    default_severity: Severity::Error,
    source: sources::GEMINI_CLI,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let start = doc.bom_len;
    let first_line = doc.text[start..].split('\n').next().unwrap_or("");
    let first_line = first_line.strip_suffix('\r').unwrap_or(first_line);
    let Some(after) = first_line.strip_prefix("---") else {
        return;
    };
    if after.is_empty() || !after.chars().all(|c| c == ' ' || c == '\t') {
        return;
    }
    let spaces = start + 3..start + 3 + after.len();
    let message = format!(
        "{} space(s) or tab(s) follow the opening `---`: loaders that match the line exactly (Gemini CLI) see no frontmatter and skip the skill",
        after.chars().count()
    );
    if let Some(d) = cx.report_md(&META, Some(spaces.clone()), message) {
        d.fix = Some(fix(
            "Remove the spaces after `---`",
            spaces,
            String::new(),
            Applicability::Safe,
        ));
    }
}
