//! ## What it checks
//! The skill file is named exactly `SKILL.md`.
//! ## Why it matters
//! skills-ref also accepts `skill.md`, but Anthropic's packager and the client guide look for a
//! file "named exactly `SKILL.md`", so other loaders will not see the skill.
//! ## Example
//! `my-skill/skill.md`.
//! ## Fix
//! Rename the file to `SKILL.md`.
//! ## Source
//! Agent Skills client guide, "Discovering skills"; skills-ref `find_skill_md`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG002",
    name: "skill-md-lowercase",
    summary: "The skill file is `skill.md`, not `SKILL.md`.",
    default_severity: Severity::Warning,
    source: sources::CLIENT_GUIDE,
};

pub fn check(cx: &mut Cx) {
    if cx.a.skill_md_path.as_deref() == Some("skill.md") {
        cx.report(
            &META,
            "skill.md",
            None,
            "the skill file is named `skill.md`; most loaders look for a file named exactly `SKILL.md` (skills-ref accepts both)".to_owned(),
        );
    }
}
