//! ## What it checks
//! `name` holds only letters, digits and hyphens: any script's letters and digits for the
//! specification as skills-ref applies it (Python `isalnum` after NFKC), ASCII `a-z0-9` for
//! Anthropic's products.
//! ## Why it matters
//! Names become folder names, command names (`/name`) and listing keys.
//! ## Example
//! `name: pdf_tools` or `name: pdf tools`.
//! ## Fix
//! Replace other characters with hyphens.
//! ## Source
//! Agent Skills specification, `name`; skills-ref `_validate_name`; Claude API docs, `name`.

use super::{Cx, RuleMeta, checked_name, python_isalnum, sources};
use crate::diagnostic::Severity;
use crate::profile::{NameCharset, Wording};

pub static META: RuleMeta = RuleMeta {
    code: "SPG037",
    name: "name-invalid-chars",
    summary: "`name` has characters other than letters, digits and hyphens.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some((name, scalar)) = checked_name(cx) else {
        return;
    };
    let ok = match cx.profile.name_charset {
        NameCharset::UnicodeAlnum => name.chars().all(|c| python_isalnum(c) || c == '-'),
        // Uppercase ASCII is `name-not-lowercase`'s to report.
        NameCharset::AsciiKebab => name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
        NameCharset::NoSlash => !name.contains('/'),
    };
    if ok {
        return;
    }
    let message = match (cx.profile.wording, cx.profile.name_charset) {
        (Wording::AnthropicUpload, _) => format!(
            "Name '{name}' should be kebab-case (lowercase letters, digits, and hyphens only)"
        ),
        (_, NameCharset::UnicodeAlnum) => format!(
            "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
        ),
        (_, NameCharset::AsciiKebab) => {
            format!("Skill name '{name}' may hold only lowercase ASCII letters, digits and hyphens")
        }
        (_, NameCharset::NoSlash) => format!(
            "Skill name '{name}' contains '/': {} skips the skill",
            cx.profile.title
        ),
    };
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
