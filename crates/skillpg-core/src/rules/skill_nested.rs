//! ## What it checks
//! The skill was found inside another skill's folder (`pdf/references/forms/SKILL.md`).
//! ## Why it matters
//! Most clients look for `SKILL.md` one folder down in a skills folder and never inside a
//! skill: for them this file is one of the outer skill's files, not a skill, and it is not
//! listed. Codex walks every folder below a skills root (to depth 6) and lists it as a skill of
//! its own, beside the outer one. The same folder installs differently in each.
//! ## Example
//! `pdf/SKILL.md` and `pdf/references/forms/SKILL.md`.
//! ## Fix
//! Move the inner skill beside the outer one (`skills/forms/SKILL.md`), or rename its file if
//! it is a reference, not a skill.
//! ## Source
//! openai/codex `core-skills/src/loader.rs` (`discover_skills_under_root`); google-gemini/gemini-cli
//! `skillLoader.ts` (`SKILL.md`, `*/SKILL.md`); the Claude Code and VS Code docs (one folder a
//! skill).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG087",
    name: "skill-nested",
    summary: "A skill inside another skill's folder.",
    default_severity: Severity::Error,
    source: sources::CODEX,
};

pub fn check(cx: &mut Cx) {
    let Some(outer) = cx.a.inside.clone() else {
        return;
    };
    let scans_inside = cx.profile.scans_inside_skills;
    let message = if scans_inside {
        format!(
            "found inside the skill folder `{outer}`: {} walks inside skill folders and lists this as a skill of its own, beside `{outer}`",
            cx.profile.title
        )
    } else {
        format!(
            "found inside the skill folder `{outer}`: {} does not look inside a skill's folder, so this SKILL.md is one of `{outer}`'s files there, not a skill, and it is not listed",
            cx.profile.title
        )
    };
    let file =
        cx.a.skill_md_path
            .clone()
            .unwrap_or_else(|| "SKILL.md".to_owned());
    if let Some(d) = cx.report(&META, &file, None, message)
        && scans_inside
    {
        d.severity = Severity::Info;
    }
}
