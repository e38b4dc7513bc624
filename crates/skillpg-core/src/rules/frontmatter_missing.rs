//! ## What it checks
//! SKILL.md starts with a `---` line that opens YAML frontmatter.
//! ## Why it matters
//! The frontmatter holds `name` and `description`, the only part of a skill an agent sees
//! before deciding to use it.
//! ## Example
//! A SKILL.md that starts with `# My skill`.
//! ## Fix
//! Add `---`, `name: ...`, `description: ...`, `---` at the top.
//! ## Source
//! Agent Skills specification, "SKILL.md format"; skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::frontmatter::Split;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG010",
    name: "frontmatter-missing",
    summary: "SKILL.md has no YAML frontmatter.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    if doc.split != Split::NoFrontmatter {
        return;
    }
    let first_line_end = doc.text.find('\n').unwrap_or(doc.text.len());
    let message = match cx.profile.wording {
        _ if !cx.profile.name_required && !cx.profile.needs_frontmatter() => format!(
            "no YAML frontmatter: {} still loads the skill, named after its folder `{}`, with the body's first {} as its description",
            cx.profile.title,
            cx.a.dir_name,
            if cx.profile.description_fallback.is_some() {
                "line"
            } else {
                "paragraph"
            }
        ),
        // A name from the folder is not enough where a description is required (pi).
        _ if !cx.profile.name_required => format!(
            "no YAML frontmatter: {} would name the skill after its folder `{}`, but finds no description and skips it",
            cx.profile.title, cx.a.dir_name
        ),
        Wording::AnthropicUpload => "No YAML frontmatter found".to_owned(),
        _ => "SKILL.md must start with YAML frontmatter (---)".to_owned(),
    };
    cx.report_md(&META, Some(doc.bom_len..first_line_end), message);
}
