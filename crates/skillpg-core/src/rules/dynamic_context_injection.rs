//! ## What it checks
//! Notes Claude Code's dynamic context injection: `` !`command` `` and ```` ```! ```` blocks.
//! ## Why it matters
//! Claude Code runs these shell commands before the body is sent, with the user's permissions,
//! every time the skill is invoked: read them as you would read a script.
//! Outside Claude Code they do not run, and the agent sees the literal text instead.
//! ## Example
//! ``Current branch: !`git branch --show-current` ``
//! ## Fix
//! Keep commands read-only and narrow; say in `compatibility` that the skill needs Claude Code.
//! ## Source
//! Claude Code docs, "Inject dynamic context".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::FieldSet;

pub static META: RuleMeta = RuleMeta {
    code: "SPG066",
    name: "dynamic-context-injection",
    summary: "A shell command Claude Code runs before sending the body.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let body = doc.body_range();
    let text = &doc.text[body.clone()];
    // Both forms hold a `!`: most bodies have none, and one search skips them whole.
    if !text.contains('!') {
        return;
    }
    let mut found = Vec::new();
    let mut offset = body.start;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```!") {
            found.push((
                offset..offset + line.trim_end().len(),
                "a ```! block".to_owned(),
            ));
        }
        let bytes = line.as_bytes();
        let mut idx = 0;
        while let Some(pos) = line[idx..].find("!`") {
            let at = idx + pos;
            let starts_word = at == 0 || bytes[at - 1].is_ascii_whitespace();
            if let Some(end) = line[at + 2..].find('`').filter(|_| starts_word) {
                let cmd = &line[at + 2..at + 2 + end];
                found.push((offset + at..offset + at + 3 + end, format!("!`{cmd}`")));
                idx = at + 3 + end;
            } else {
                idx = at + 2;
            }
        }
        offset += line.len();
    }
    let in_claude_code = cx.profile.fields == FieldSet::ClaudeCode;
    for (span, what) in found {
        let message = if in_claude_code {
            format!(
                "{what} runs a shell command when the skill is invoked, before Claude sees the body (security note: review it like a script)"
            )
        } else {
            format!(
                "{what} is Claude Code's dynamic context injection: it runs a shell command there, and elsewhere the agent sees the literal text"
            )
        };
        cx.report_md(&META, Some(span), message);
    }
}
