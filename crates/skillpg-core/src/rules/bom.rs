//! ## What it checks
//! SKILL.md does not start with a byte order mark (U+FEFF).
//! ## Why it matters
//! skills-ref and Anthropic's packager test `content.startswith("---")` without stripping the
//! BOM, so a file saved "with BOM" fails with "must start with YAML frontmatter".
//! ## Example
//! `EF BB BF 2D 2D 2D` at the start of the file.
//! ## Fix
//! Remove the BOM (safe).
//! ## Source
//! skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG012",
    name: "bom",
    summary: "SKILL.md starts with a byte order mark.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    if doc.bom_len == 0 {
        return;
    }
    let message = match cx.profile.wording {
        Wording::SkillsRef => {
            "SKILL.md must start with YAML frontmatter (---): the file starts with a byte order mark (U+FEFF), which skills-ref does not strip"
        }
        Wording::AnthropicUpload => {
            "No YAML frontmatter found: the file starts with a byte order mark (U+FEFF)"
        }
        Wording::Playground => {
            "the file starts with a byte order mark (U+FEFF); loaders that test for `---` at the first byte will not find the frontmatter"
        }
    };
    if let Some(d) = cx.report_md(&META, Some(0..doc.bom_len), message.to_owned()) {
        d.fix = Some(fix(
            "Remove the byte order mark",
            0..3,
            String::new(),
            Applicability::Safe,
        ));
    }
}
