//! Completion in SKILL.md's frontmatter: at a line's start, the fields the chosen clients read
//! (each saying which read it) not already set; after `key: `, the values the field documents.

use skillpg_core::{Analysis, Profile};

/// What a completion offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    /// A frontmatter field.
    Field,
    /// A documented value of a field.
    Value,
}

/// One completion: what is shown, what is inserted at the cursor (replacing the word before
/// it), and a line of detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: String,
    pub insert: String,
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

/// The completions at byte `offset` of SKILL.md's `text` (the text `a` was analysed from)
/// under `profiles`; none outside the frontmatter.
pub fn completion(
    a: &Analysis,
    profiles: &[&'static Profile],
    text: &str,
    offset: usize,
) -> Vec<Completion> {
    let Some(doc) = &a.doc else {
        return Vec::new();
    };
    let Some(yaml) = doc.yaml_range() else {
        return Vec::new();
    };
    if offset < yaml.start || offset > yaml.end || !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    match before.split_once(':') {
        None if !before.starts_with([' ', '\t']) => {
            let present: Vec<&str> = match doc.root() {
                Some(skillpg_core::yaml::Node::Map { entries, .. }) => {
                    entries.iter().map(|(k, _)| k.value.as_str()).collect()
                }
                _ => Vec::new(),
            };
            let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
            for p in profiles {
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
                .map(|(f, ps)| Completion {
                    label: f.to_owned(),
                    kind: CompletionKind::Field,
                    detail: if ps.len() == profiles.len() {
                        "every chosen client reads it".to_owned()
                    } else {
                        format!("read by {}", ps.join(", "))
                    },
                    insert: if f == "metadata" {
                        "metadata:\n  ".to_owned()
                    } else {
                        format!("{f}: ")
                    },
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
                .map(|v| Completion {
                    label: v.to_owned(),
                    kind: CompletionKind::Value,
                    detail: format!("a documented `{key}`"),
                    insert: v.to_owned(),
                })
                .collect()
        }
        _ => Vec::new(),
    }
}
