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
    let Some(index) = cx.a.md_line_index() else {
        return;
    };
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
    let message = if let Some(replay) = cx.profile.replay {
        // A replayed loader reads broken YAML its own way: say what its reading gives.
        match replay(&doc.text, &cx.a.dir_name) {
            Ok(read) => format!(
                "{message}; {} reads the frontmatter its own way and still loads the skill, as `{}`; stricter clients refuse it",
                cx.profile.title, read.name
            ),
            Err(_) => format!(
                "{message}; {} skips the skill (loader-replay-refuses says why)",
                cx.profile.title
            ),
        }
    } else if let Some(then) = cx.profile.on_bad_yaml {
        format!("{message}; {then}")
    } else if cx.profile.name_required {
        message
    } else {
        format!(
            "{message}; {} still loads the body, with empty metadata: `/{}` works, but the model has no description to choose the skill by",
            cx.profile.title, cx.a.dir_name
        )
    };
    // OpenCode parses again after re-quoting colon values: when that reads, it loads.
    let after_requote = cx
        .profile
        .requotes_colon_values
        .then(|| requoted_reading(&doc.text[yaml_range.clone()]));
    let message = match &after_requote {
        Some(Ok(())) => format!(
            "{message}; {} then turns each unquoted `key: a: b` into a block scalar and parses again, which reads: it loads the skill, but stricter clients refuse it",
            cx.profile.title
        ),
        Some(Err(why)) => format!(
            "{message}; {} re-quotes colon values and parses again, and still {why}",
            cx.profile.title
        ),
        None => message,
    };
    let quote_fix = unquoted_colon_fix(&doc.text, index, at.line);
    let span = offset
        ..(offset
            + doc.text[offset..]
                .chars()
                .next()
                .map(char::len_utf8)
                .unwrap_or(0));
    if let Some(d) = cx.report_md(&META, Some(span), message) {
        d.fix = quote_fix;
        if matches!(after_requote, Some(Ok(()))) {
            d.severity = d.severity.min(Severity::Warning);
        }
    }
}

/// OpenCode's `fallbackSanitization` (`src/config/markdown.ts`) of the frontmatter `yaml`: every
/// top-level `key: value` whose unquoted value holds a `:` becomes `key: |-` with the value on
/// the next line, indented (keys of letters, digits and `_` only; comments, blank and indented
/// lines, empty, quoted and block values are kept).
pub fn opencode_requote(yaml: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in yaml.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        let trimmed = line.trim();
        let keep =
            trimmed.is_empty() || trimmed.starts_with('#') || line.starts_with(char::is_whitespace);
        let key_len = line
            .char_indices()
            .take_while(|&(i, c)| {
                c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())
            })
            .count();
        let after_key = line[key_len..].trim_start();
        if keep || key_len == 0 || !after_key.starts_with(':') {
            out.push(line.to_owned());
            continue;
        }
        let value = after_key[1..].trim();
        if value.is_empty()
            || value == ">"
            || value == "|"
            || value.starts_with(['"', '\''])
            || !value.contains(':')
        {
            out.push(line.to_owned());
            continue;
        }
        out.push(format!("{}: |-", &line[..key_len]));
        out.push(format!("  {value}"));
    }
    out.join("\n")
}

/// Whether OpenCode reads the frontmatter after [`opencode_requote`]: js-yaml (3, through
/// gray-matter) reads it and zod finds `name` and `description` as strings; else why not.
fn requoted_reading(yaml: &str) -> Result<(), &'static str> {
    use crate::profile::{FieldReading, FrontmatterReading, YamlDialect};
    match YamlDialect::JsYaml3.read_fields(&opencode_requote(yaml)) {
        FrontmatterReading::Fields {
            name: FieldReading::Str(_),
            description: FieldReading::Str(_),
        } => Ok(()),
        FrontmatterReading::Error => Err("js-yaml refuses it too"),
        _ => Err("zod finds no `name` and `description` strings in what it reads"),
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
