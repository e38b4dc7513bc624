//! ## What it checks
//! The folder has a `SKILL.md` (or the `skill.md` that skills-ref also accepts).
//! ## Why it matters
//! Without it the folder is not a skill: no loader lists it.
//! ## Example
//! A folder with only `README.md`.
//! ## Fix
//! Add `SKILL.md` with `name` and `description` frontmatter.
//! ## Source
//! Agent Skills specification, "Directory structure"; skills-ref `validate`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG001",
    name: "missing-skill-md",
    summary: "The folder has no SKILL.md.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    if cx.a.skill_md_path.is_some() {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => "SKILL.md not found".to_owned(),
        _ => "Missing required file: SKILL.md".to_owned(),
    };
    cx.report(&META, "", None, message);
}
