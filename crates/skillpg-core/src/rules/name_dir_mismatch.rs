//! ## What it checks
//! `name` equals the folder's name (both NFKC-normalised).
//! ## Why it matters
//! The specification requires it; Claude Code takes a personal skill's command from the
//! folder's name, so a different `name` shows one word and answers to another.
//! ## Example
//! Folder `react-best-practices`, `name: vercel-react-best-practices`.
//! A SKILL.md read without its folder (picked alone, pasted) gets a note that the check needs
//! the folder, never an error about a folder name the page made up.
//! ## Fix
//! Rename the folder, or set `name` to the folder's name (unsafe).
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`.

use unicode_normalization::UnicodeNormalization;

use super::{Cx, RuleMeta, checked_name, fix, sources};
use crate::diagnostic::{Applicability, Severity};

pub static META: RuleMeta = RuleMeta {
    code: "SPG038",
    name: "name-dir-mismatch",
    summary: "`name` differs from the folder's name.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    // Read without its folder: the folder's name is not known, and no name is invented for
    // it. The verdict is what a folder named after the skill gives (this check passes there).
    if cx.a.folder_unknown {
        let message = format!(
            "needs the folder: this SKILL.md was read without its folder, so whether the folder is named `{name}` cannot be checked (in a folder of that name it passes); pick the folder to check it"
        );
        let span = cx.yaml_span(&scalar.span);
        if let Some(d) = cx.report_md(&META, span, message) {
            d.severity = Severity::Info;
        }
        return;
    }
    let dir: String = cx.a.dir_name.nfkc().collect();
    // Crush compares with `strings.EqualFold`: `MySkill` in `myskill` matches there.
    if dir == name || (cx.profile.name_dir_fold_case && dir.to_lowercase() == name.to_lowercase()) {
        return;
    }
    let message = format!(
        "Directory name '{}' must match skill name '{}'",
        cx.a.dir_name, name
    );
    let span = cx.yaml_span(&scalar.span);
    let dir_name = cx.a.dir_name.clone();
    let dir_is_valid = !dir_name.is_empty()
        && dir_name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if let Some(d) = cx.report_md(&META, span.clone(), message)
        && let Some(span) = span.filter(|s| !s.is_empty() && dir_is_valid)
    {
        d.fix = Some(fix(
            "Set `name` to the folder's name",
            span,
            crate::fix::yaml_value("name", &dir_name),
            Applicability::Unsafe,
        ));
    }
}
