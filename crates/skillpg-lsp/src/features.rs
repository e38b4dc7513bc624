//! What the server answers: the editor features `skillpg-ide` computes (marks, quick fixes,
//! hovers, completion, token hints), in the protocol's types and positions, plus document links
//! (the protocol's file addresses).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeDescription, CompletionItem,
    CompletionItemKind, DiagnosticSeverity, DocumentLink, Documentation, Hover, HoverContents,
    InlayHint, InlayHintLabel, MarkupContent, MarkupKind, NumberOrString, TextEdit, Url,
    WorkspaceEdit,
};
use skillpg_core::links::Target;
use skillpg_core::{Profile, Severity};
use skillpg_ide::{CompletionKind, Mark};

use crate::position::{Encoding, Lines};
use crate::workspace::Skill;

/// The protocol's diagnostics of every file of the skill that has findings, by path on disk.
pub fn diagnostics(skill: &Skill, enc: Encoding) -> BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> {
    let several = skill.findings.len() > 1;
    skillpg_ide::marks(&skill.analysis, &skill.findings)
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
    m: &Mark<'_>,
    text: &str,
    lines: &Lines,
    enc: Encoding,
    several: bool,
) -> lsp_types::Diagnostic {
    let d = m.diagnostic;
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

/// The code actions on `range` of `file`: `skillpg_ide::quick_fixes`, each sent as the one
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
    skillpg_ide::quick_fixes(&skill.findings, file, text, range)
        .into_iter()
        .map(|f| {
            let edit = TextEdit {
                range: lines.range(text, f.edit.range, enc),
                new_text: f.edit.new_text,
            };
            CodeActionOrCommand::CodeAction(CodeAction {
                title: f.title,
                kind: Some(if f.all {
                    CodeActionKind::SOURCE_FIX_ALL
                } else {
                    CodeActionKind::QUICKFIX
                }),
                edit: Some(one_edit(uri, edit)),
                is_preferred: (!f.all).then_some(f.safe),
                ..Default::default()
            })
        })
        .collect()
}

fn one_edit(uri: &Url, edit: TextEdit) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
        ..Default::default()
    }
}

/// The hover at byte `offset` of SKILL.md (`skillpg_ide::hover`).
pub fn hover(skill: &Skill, offset: usize, lines: &Lines, enc: Encoding) -> Option<Hover> {
    let text = skill.analysis.doc.as_ref()?.text.as_str();
    let profiles: Vec<&'static Profile> = skill.findings.iter().map(|(p, _)| *p).collect();
    let h = skillpg_ide::hover(&skill.analysis, &profiles, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: h.markdown,
        }),
        range: Some(lines.range(text, h.span, enc)),
    })
}

fn thousands(n: usize) -> String {
    skillpg_core::diagnostic::thousands(n as u64)
}

/// Completion at byte `offset` of SKILL.md's `text` (`skillpg_ide::completion`).
pub fn completion(skill: &Skill, text: &str, offset: usize) -> Vec<CompletionItem> {
    let profiles: Vec<&'static Profile> = skill.findings.iter().map(|(p, _)| *p).collect();
    skillpg_ide::completion(&skill.analysis, &profiles, text, offset)
        .into_iter()
        .map(|c| match c.kind {
            CompletionKind::Field => CompletionItem {
                label: c.label,
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(c.detail),
                insert_text: Some(c.insert),
                ..Default::default()
            },
            CompletionKind::Value => CompletionItem {
                label: c.label,
                kind: Some(CompletionItemKind::VALUE),
                documentation: Some(Documentation::String(c.detail)),
                ..Default::default()
            },
        })
        .collect()
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

/// Each level's tokens where it starts (`skillpg_ide::hints`), those inside `range` (bytes).
pub fn inlay_hints(
    skill: &Skill,
    lines: &Lines,
    enc: Encoding,
    range: Range<usize>,
) -> Vec<InlayHint> {
    let Some(doc) = &skill.analysis.doc else {
        return Vec::new();
    };
    skillpg_ide::hints(&skill.analysis)
        .into_iter()
        .filter(|h| range.contains(&h.at) || h.at == range.end)
        .map(|h| InlayHint {
            position: lines.position(&doc.text, h.at, enc),
            label: InlayHintLabel::String(h.label),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        })
        .collect()
}
