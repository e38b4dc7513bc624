//! ## What it checks
//! The frontmatter is YAML that a parser reads to the end.
//! ## Why it matters
//! skills-ref, the packager and strict clients refuse the skill; Claude Code loads it with
//! empty metadata, so Claude never sees its description.
//! The commonest cause is an unquoted `: ` inside a value (`description: Use when: ...`).
//! ## Example
//! `description: Use this skill when: the user asks`
//! ## Fix
//! For an unquoted `: ` in a value, quote the value (safe: the text stays the same).
//! ## Source
//! YAML 1.2 §7.3.3 (plain scalars); Agent Skills client guide, "lenient loading".

use super::{Cx, RuleMeta, fix, sources, yaml_quote};
use crate::diagnostic::{Applicability, LineIndex, Severity};
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG015",
    name: "invalid-yaml",
    summary: "The frontmatter is not valid YAML.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(err) = doc.yaml.as_ref().and_then(|y| y.error.as_ref()) else {
        return;
    };
    let Some(yaml_range) = doc.yaml_range() else {
        return;
    };
    let offset = yaml_range.start + err.offset.min(yaml_range.len());
    let index = LineIndex::new(&doc.text);
    let at = index.line_col(&doc.text, offset);
    let message = match cx.profile.wording {
        Wording::SkillsRef | Wording::AnthropicUpload => format!(
            "Invalid YAML in frontmatter: {} (line {}, column {})",
            err.message, at.line, at.column
        ),
        Wording::Playground => format!(
            "invalid YAML in frontmatter: {} (line {}, column {})",
            err.message, at.line, at.column
        ),
    };
    // Claude Code documents what it does with malformed YAML: it loads the body anyway; other
    // clients say what they do in their profile.
    let message = if let Some(then) = cx.profile.on_bad_yaml {
        format!("{message}; {then}")
    } else if cx.profile.name_required {
        message
    } else {
        format!(
            "{message}; {} still loads the body, with empty metadata: `/{}` works, but the model has no description to choose the skill by",
            cx.profile.title, cx.a.dir_name
        )
    };
    let quote_fix = unquoted_colon_fix(&doc.text, &index, at.line);
    let span = offset
        ..(offset
            + doc.text[offset..]
                .chars()
                .next()
                .map(char::len_utf8)
                .unwrap_or(0));
    if let Some(d) = cx.report_md(&META, Some(span), message) {
        d.fix = quote_fix;
    }
}

/// When line `line` is `key: value` with an unquoted `: ` (or ` #`) inside the value, a fix that
/// double-quotes the value.
fn unquoted_colon_fix(
    text: &str,
    index: &LineIndex,
    line: usize,
) -> Option<crate::diagnostic::Fix> {
    // The parser reports the error on the line of the colon or, for a folded value, the next one.
    for candidate in [line, line.saturating_sub(1)]
        .into_iter()
        .filter(|&l| l > 0)
    {
        let range = index.line_range(text, candidate);
        let line_text = &text[range.clone()];
        let Some(colon) = line_text.find(": ") else {
            continue;
        };
        let key = &line_text[..colon];
        if key.trim().is_empty() || key.contains(['"', '\'', '#', ' ']) && !key.starts_with(' ') {
            continue;
        }
        let value_start = colon + 2;
        let value = line_text[value_start..].trim_end();
        if value.is_empty()
            || value.starts_with(['"', '\'', '|', '>', '[', '{'])
            || !value.contains(": ")
        {
            continue;
        }
        let start = range.start + value_start;
        return Some(fix(
            "Quote the value",
            start..start + value.len(),
            yaml_quote(value),
            Applicability::Safe,
        ));
    }
    None
}
