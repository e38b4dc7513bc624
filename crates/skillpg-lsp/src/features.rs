//! What the server answers, as pure functions of a checked [`Skill`] and a file's text:
//! diagnostics per file, code actions through the engine's one fix applier, hovers, completion,
//! document links and inlay hints.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeDescription, CompletionItem,
    CompletionItemKind, DiagnosticSeverity, DocumentLink, Documentation, Hover, HoverContents,
    InlayHint, InlayHintLabel, MarkupContent, MarkupKind, NumberOrString, TextEdit, Url,
    WorkspaceEdit,
};
use skillpg_core::catalog::{self, InstalledSkill};
use skillpg_core::links::Target;
use skillpg_core::{Analysis, Applicability, Diagnostic, Profile, Severity};

use crate::position::{Encoding, Lines};
use crate::workspace::Skill;

/// The context window the level-1 hover prices a listing at (the CLI's default).
const CONTEXT_WINDOW: usize = 200_000;

/// Says that counts are o200k_base's, on every hover that shows one.
const TOKENIZER_NOTE: &str =
    "Tokens are o200k_base counts, an approximation of each vendor's own tokenizer.";

/// One finding as every profile that raised it sees it.
struct Merged<'a> {
    d: &'a Diagnostic,
    profiles: Vec<&'static str>,
}

/// The skill's findings, merged across profiles (the same code, span, severity and message
/// raised by several profiles is one diagnostic naming them) and grouped by the file they are
/// in (a finding without a file goes on SKILL.md).
fn merged(skill: &Skill) -> BTreeMap<String, Vec<Merged<'_>>> {
    let mut by_file: BTreeMap<String, Vec<Merged<'_>>> = BTreeMap::new();
    let skill_md = skill
        .analysis
        .skill_md_path
        .clone()
        .unwrap_or_else(|| "SKILL.md".to_owned());
    // Each finding's place in its file's list, by what makes two findings one: a hashed
    // look-up, since a file can hold 100,000 findings (a SKILL.md of broken links), and a
    // search of the list for each was quadratic (30 s for one check of such a file).
    type Key<'a> = (&'a str, &'static str, Option<(usize, usize)>, u8, &'a str);
    let mut at: std::collections::HashMap<Key<'_>, usize> = std::collections::HashMap::new();
    for (p, diags) in &skill.findings {
        for d in diags {
            let file = if d.file.is_empty() {
                skill_md.as_str()
            } else {
                d.file.as_str()
            };
            let key: Key<'_> = (
                file,
                d.code,
                d.span.as_ref().map(|r| (r.start, r.end)),
                d.severity as u8,
                d.message.as_str(),
            );
            let list = by_file.entry(file.to_owned()).or_default();
            match at.get(&key) {
                Some(&i) => list[i].profiles.push(p.key),
                None => {
                    at.insert(key, list.len());
                    list.push(Merged {
                        d,
                        profiles: vec![p.key],
                    });
                }
            }
        }
    }
    by_file
}

/// The protocol's diagnostics of every file of the skill that has findings, by path on disk.
pub fn diagnostics(skill: &Skill, enc: Encoding) -> BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> {
    let several = skill.findings.len() > 1;
    merged(skill)
        .into_iter()
        .map(|(file, list)| {
            let text = skill.text(&file).unwrap_or_default();
            let lines = Lines::new(text);
            let diags = list
                .iter()
                .map(|m| to_lsp(m, text, &lines, enc, several))
                .collect();
            (skill.dir.join(&file), diags)
        })
        .collect()
}

fn to_lsp(
    m: &Merged<'_>,
    text: &str,
    lines: &Lines,
    enc: Encoding,
    several: bool,
) -> lsp_types::Diagnostic {
    let d = m.d;
    let range = d
        .span
        .clone()
        .map(|s| lines.range(text, s, enc))
        .unwrap_or_default();
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    let mut message = d.message.clone();
    if several {
        message.push_str(&format!(" [{}]", m.profiles.join(", ")));
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.to_owned())),
        code_description: Url::parse(d.source.url)
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(format!("skillpg {}", d.rule)),
        message,
        ..Default::default()
    }
}

/// Every distinct fix of the findings on `file`, with the finding it resolves.
fn fixes<'a>(skill: &'a Skill, file: &str) -> Vec<&'a Diagnostic> {
    let mut out: Vec<&Diagnostic> = Vec::new();
    for (_, diags) in &skill.findings {
        for d in diags.iter().filter(|d| d.file == file && d.fix.is_some()) {
            if !out.iter().any(|o| o.fix == d.fix) {
                out.push(d);
            }
        }
    }
    out
}

/// The code actions on `range` of `file` (whose text is `text`): one quick fix per fix of a
/// finding there, and "fix all safe" for the file. Each edit is what the engine's one applier
/// (`skillpg_core::fix`) makes of the text, as the CLI and the page apply it, sent as the one
/// changed stretch.
pub fn code_actions(
    skill: &Skill,
    file: &str,
    uri: &Url,
    range: Range<usize>,
    enc: Encoding,
) -> Vec<CodeActionOrCommand> {
    let Some(text) = skill.text(file) else {
        return Vec::new();
    };
    let lines = Lines::new(text);
    let fixes = fixes(skill, file);
    let mut actions = Vec::new();
    for d in &fixes {
        let Some(fix) = &d.fix else { continue };
        let span = d.span.clone().unwrap_or(0..0);
        if span.start > range.end || span.end < range.start {
            continue;
        }
        let after = skillpg_core::fix::apply_one(text, fix);
        let Some(edit) = change(text, &after, &lines, enc) else {
            continue;
        };
        let safe = fix.applicability == Applicability::Safe;
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: if safe {
                fix.title.clone()
            } else {
                format!("{} (review: changes what the skill says)", fix.title)
            },
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(one_edit(uri, edit)),
            is_preferred: Some(safe),
            ..Default::default()
        }));
    }
    let all: Vec<Diagnostic> = fixes.iter().map(|d| (*d).clone()).collect();
    let fixed = skillpg_core::fix::apply(text, file, &all, false);
    if fixed.applied.len() > 1
        && let Some(edit) = change(text, &fixed.text, &lines, enc)
    {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!(
                "Apply every safe fix in this file ({})",
                fixed.applied.len()
            ),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(one_edit(uri, edit)),
            ..Default::default()
        }));
    }
    actions
}

fn one_edit(uri: &Url, edit: TextEdit) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
        ..Default::default()
    }
}

/// The one stretch where `after` differs from `before`, as an edit of `before`.
pub fn change(before: &str, after: &str, lines: &Lines, enc: Encoding) -> Option<TextEdit> {
    if before == after {
        return None;
    }
    let mut start = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(start) || !after.is_char_boundary(start) {
        start -= 1;
    }
    let max_tail = before.len().min(after.len()) - start;
    let mut tail = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take(max_tail)
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(before.len() - tail)
        || !after.is_char_boundary(after.len() - tail)
    {
        tail -= 1;
    }
    Some(TextEdit {
        range: lines.range(before, start..before.len() - tail, enc),
        new_text: after[start..after.len() - tail].to_owned(),
    })
}

/// The hover at byte `offset` of SKILL.md: on `name` or `description`, the level-1 line as
/// each profile lists it, its tokens and each profile's limits in its own unit; on a heading,
/// its section's tokens; on a link, the tokens it sends the agent to.
pub fn hover(skill: &Skill, offset: usize, lines: &Lines, enc: Encoding) -> Option<Hover> {
    let a = &skill.analysis;
    let doc = a.doc.as_ref()?;
    let text = doc.text.as_str();
    if let Some(skillpg_core::yaml::Node::Map { entries, .. }) = doc.root() {
        for (key, value) in entries {
            let span = doc.yaml_span(&(key.span.start..value.span().end.max(key.span.end)));
            if !span.contains(&offset) && span.end != offset {
                continue;
            }
            if key.value == "name" || key.value == "description" {
                return Some(markdown(
                    level_one(a, skill.findings.iter().map(|(p, _)| *p).collect()),
                    Some(lines.range(text, span, enc)),
                ));
            }
        }
    }
    if let Some(link) = a.links.iter().find(|l| l.span.contains(&offset)) {
        let what = match &link.target {
            Target::File { .. } | Target::Dir { .. } => format!(
                "**Level 3:** `{}` costs **{}** tokens when the agent reads it{}.",
                link.path,
                thousands(a.link_tokens(link)),
                if link.sent {
                    " (the body sends it there)"
                } else {
                    "; the body does not send the agent there"
                }
            ),
            Target::Missing => format!("`{}` is not in the skill folder.", link.path),
            Target::OutsideFolder => format!(
                "`{}` leaves the skill folder: it is not bundled with the skill.",
                link.path
            ),
        };
        return Some(markdown(
            format!("{what}\n\n{TOKENIZER_NOTE}"),
            Some(lines.range(text, link.span.clone(), enc)),
        ));
    }
    let body = doc.body_range();
    if body.contains(&offset) {
        let line = lines.position(text, offset, Encoding::Utf8).line as usize;
        let line_range = lines.line_range(text, line);
        if text[line_range.clone()].starts_with('#') {
            let section = a.sections().iter().find(|s| s.range.contains(&offset))?;
            let tokens = a.section_tokens(section);
            let body_tokens = a.body_tokens().max(1);
            return Some(markdown(
                format!(
                    "**{}**: {} tokens, {:.0}% of the body (level 2: {} tokens, read when the skill is used).\n\n{TOKENIZER_NOTE}",
                    if section.title.is_empty() {
                        "Preamble"
                    } else {
                        section.title.as_str()
                    },
                    thousands(tokens),
                    100.0 * tokens as f64 / body_tokens as f64,
                    thousands(a.body_tokens()),
                ),
                Some(lines.range(text, line_range, enc)),
            ));
        }
    }
    None
}

fn markdown(value: String, range: Option<lsp_types::Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

fn thousands(n: usize) -> String {
    skillpg_core::diagnostic::thousands(n as u64)
}

/// The level-1 hover: each distinct listed line with the profiles that list it so, then each
/// profile's lengths against its limits, in its unit.
pub fn level_one(a: &Analysis, profiles: Vec<&'static Profile>) -> String {
    let mut lines: Vec<(String, Vec<&str>)> = Vec::new();
    for p in &profiles {
        let line = listed_line(a, p);
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, ps)) => ps.push(p.key),
            None => lines.push((line, vec![p.key])),
        }
    }
    let mut out =
        String::from("**Level 1**: the line every session lists before the skill is used.\n\n");
    for (line, ps) in &lines {
        out.push_str(&format!(
            "```text\n{line}\n```\n{} tokens · {}\n\n",
            thousands(skillpg_tokens::count(line) + 1),
            ps.join(", ")
        ));
    }
    out.push_str("| client | name | description | over a limit |\n|---|---|---|---|\n");
    let name = a.name().unwrap_or_default();
    let description = a.description().unwrap_or_default();
    for p in &profiles {
        let unit = p.length_unit.noun();
        out.push_str(&format!(
            "| {} | {} / 64 {unit} | {} / 1,024 {unit}{} | {} |\n",
            p.key,
            thousands(p.length(name)),
            thousands(p.length(description)),
            p.listing_cap_chars
                .map(|c| format!("; lists the first {}", thousands(c)))
                .unwrap_or_default(),
            over_limit(p),
        ));
    }
    out.push('\n');
    out.push_str(TOKENIZER_NOTE);
    out
}

/// The skill's level-1 line as `p` lists it (its cut included), else `- name: description`.
fn listed_line(a: &Analysis, p: &Profile) -> String {
    let skill = InstalledSkill::from_analysis(a, p);
    catalog::listing(p, std::slice::from_ref(&skill), Some(CONTEXT_WINDOW))
        .and_then(|r| r.skills.into_iter().next())
        .map(|s| s.line)
        .unwrap_or_else(|| format!("- {}: {}", skill.name, skill.description))
}

/// What `p` does with a name or description over its limit.
fn over_limit(p: &Profile) -> String {
    let does = |rule: &str| {
        if p.is_gate(rule) {
            "refuses"
        } else {
            match p.severity(rule, Severity::Error) {
                Some(_) => "warns",
                None => "accepts",
            }
        }
    };
    let (n, d) = (does("name-too-long"), does("description-too-long"));
    if n == d {
        n.to_owned()
    } else {
        format!("name: {n}; description: {d}")
    }
}

/// Fields Claude Code's docs list for `allowed-tools` (its built-in tools).
const TOOLS: [&str; 10] = [
    "Read",
    "Edit",
    "Write",
    "Bash",
    "Grep",
    "Glob",
    "WebFetch",
    "WebSearch",
    "Task",
    "NotebookEdit",
];

/// SPDX identifiers skills commonly carry, and the proprietary form Anthropic's skills use.
const LICENSES: [&str; 7] = [
    "MIT",
    "Apache-2.0",
    "BSD-3-Clause",
    "ISC",
    "MPL-2.0",
    "GPL-3.0-only",
    "Proprietary. LICENSE.txt has complete terms",
];

/// Completion at byte `offset` of SKILL.md's `text`: in the frontmatter, at a line's start, the
/// fields the profiles know (each saying which know it) not already set; after `key: `, the
/// values the field documents.
pub fn completion(skill: &Skill, text: &str, offset: usize) -> Vec<CompletionItem> {
    let Some(doc) = &skill.analysis.doc else {
        return Vec::new();
    };
    let Some(yaml) = doc.yaml_range() else {
        return Vec::new();
    };
    if offset < yaml.start || offset > yaml.end {
        return Vec::new();
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let profiles: Vec<&Profile> = skill.findings.iter().map(|(p, _)| *p).collect();
    match before.split_once(':') {
        None if !before.starts_with([' ', '\t']) => {
            let present: Vec<&str> = match doc.root() {
                Some(skillpg_core::yaml::Node::Map { entries, .. }) => {
                    entries.iter().map(|(k, _)| k.value.as_str()).collect()
                }
                _ => Vec::new(),
            };
            let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
            for p in &profiles {
                for f in p.fields.known() {
                    match fields.iter_mut().find(|(n, _)| n == f) {
                        Some((_, ps)) => ps.push(p.key),
                        None => fields.push((f, vec![p.key])),
                    }
                }
            }
            fields
                .into_iter()
                .filter(|(f, _)| !present.contains(f))
                .map(|(f, ps)| CompletionItem {
                    label: f.to_owned(),
                    kind: Some(CompletionItemKind::FIELD),
                    detail: Some(if ps.len() == profiles.len() {
                        "every chosen client reads it".to_owned()
                    } else {
                        format!("read by {}", ps.join(", "))
                    }),
                    insert_text: Some(if f == "metadata" {
                        "metadata:\n  ".to_owned()
                    } else {
                        format!("{f}: ")
                    }),
                    ..Default::default()
                })
                .collect()
        }
        Some((key, _)) if !key.starts_with([' ', '\t']) => {
            let key = key.trim();
            let values: Vec<&str> = match key {
                "license" => LICENSES.to_vec(),
                "allowed-tools" => TOOLS.to_vec(),
                _ => skillpg_core::rules::claude_code_values(key)
                    .map(<[&str]>::to_vec)
                    .unwrap_or_default(),
            };
            values
                .into_iter()
                .map(|v| CompletionItem {
                    label: v.to_owned(),
                    kind: Some(CompletionItemKind::VALUE),
                    documentation: Some(Documentation::String(format!("a documented `{key}`"))),
                    ..Default::default()
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A link per path out of SKILL.md that resolves in the folder; a broken one has no target and
/// says why (the `broken-link` finding marks it too).
pub fn document_links(skill: &Skill, lines: &Lines, enc: Encoding) -> Vec<DocumentLink> {
    let a = &skill.analysis;
    let Some(doc) = &a.doc else {
        return Vec::new();
    };
    a.links
        .iter()
        .map(|l| {
            let (target, tooltip) = match &l.target {
                Target::File { .. } | Target::Dir { .. } => (
                    Url::from_file_path(skill.dir.join(&l.path)).ok(),
                    format!("{} tokens (level 3)", thousands(a.link_tokens(l))),
                ),
                Target::Missing => (None, format!("broken: no `{}` in the skill folder", l.path)),
                Target::OutsideFolder => (
                    None,
                    format!("`{}` leaves the skill folder: not bundled", l.path),
                ),
            };
            DocumentLink {
                range: lines.range(&doc.text, l.span.clone(), enc),
                target,
                tooltip: Some(tooltip),
                data: None,
            }
        })
        .collect()
}

/// Each level's tokens where it starts: level 1 after the description, level 2 after the
/// frontmatter's closing line, each section's after its heading, level 3 after each link the
/// body sends the agent to. Only hints inside `range` (bytes) are given.
pub fn inlay_hints(
    skill: &Skill,
    lines: &Lines,
    enc: Encoding,
    range: Range<usize>,
) -> Vec<InlayHint> {
    let a = &skill.analysis;
    let Some(doc) = &a.doc else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let mut hints: Vec<(usize, String)> = Vec::new();
    let line_end = |offset: usize| {
        let line = lines.position(text, offset, Encoding::Utf8).line as usize;
        lines.line_range(text, line).end
    };
    if let Some(value) = doc.root().and_then(|r| r.get("description")) {
        let end = doc.yaml_span(&value.span()).end;
        hints.push((
            line_end(
                end.saturating_sub(1)
                    .max(doc.yaml_span(&value.span()).start),
            ),
            format!("L1 {} tok", thousands(a.levels().level1)),
        ));
    }
    if let skillpg_core::frontmatter::Split::Closed { closing_line, .. } = &doc.split {
        hints.push((
            line_end(closing_line.start),
            format!("L2 body {} tok", thousands(a.body_tokens())),
        ));
    }
    for s in a.sections().iter().filter(|s| !s.title.is_empty()) {
        hints.push((
            line_end(s.range.start),
            format!("{} tok", thousands(a.section_tokens(s))),
        ));
    }
    for l in a.links.iter().filter(|l| l.sent) {
        if matches!(l.target, Target::File { .. } | Target::Dir { .. }) {
            hints.push((
                l.span.end,
                format!("L3 {} tok", thousands(a.link_tokens(l))),
            ));
        }
    }
    hints
        .into_iter()
        .filter(|(at, _)| range.contains(at) || *at == range.end)
        .map(|(at, label)| InlayHint {
            position: lines.position(text, at, enc),
            label: InlayHintLabel::String(label),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_the_one_stretch_that_differs() {
        let before = "name: a b\ndescription: x\n";
        let after = "name: \"a b\"\ndescription: x\n";
        let lines = Lines::new(before);
        let e = change(before, after, &lines, Encoding::Utf16).expect("they differ");
        assert_eq!(e.new_text, "\"a b\"");
        assert_eq!(e.range.start, lsp_types::Position::new(0, 6));
        assert_eq!(e.range.end, lsp_types::Position::new(0, 9));
        assert!(change(before, before, &lines, Encoding::Utf16).is_none());
        // A change inside a multi-byte character stays on its boundaries.
        let (b, a) = ("xéy", "xèy");
        let e = change(b, a, &Lines::new(b), Encoding::Utf8).expect("they differ");
        assert_eq!(e.new_text, "è");
        assert_eq!((e.range.start.character, e.range.end.character), (1, 3));
    }
}
