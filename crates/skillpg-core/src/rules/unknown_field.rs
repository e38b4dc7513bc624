//! ## What it checks
//! Every frontmatter field is one the product knows: the specification's six, Claude Code's
//! twenty, or the fields another client documents (`FieldSet::known`).
//! ## Why it matters
//! skills-ref, claude.ai upload, the Skills API and `package_skill.py` refuse the whole skill
//! ("Unexpected key(s) in SKILL.md frontmatter"); Claude Code ignores fields it does not know.
//! ## Example
//! `version: 1.2.0` or `argument-hint: [file]` at the top level.
//! ## Fix
//! Move the field under `metadata` (unsafe: Claude Code stops acting on its own fields there).
//! ## Source
//! skills-ref `_validate_metadata_fields`; Claude Code docs, "Using skill frontmatter outside
//! Claude Code".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::profile::{CLAUDE_CODE_FIELDS, FieldSet, Wording};
use crate::yaml::{Node, Scalar};

pub static META: RuleMeta = RuleMeta {
    code: "SPG030",
    name: "unknown-field",
    summary: "A frontmatter field the product does not know.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(entries) = cx.entries() else { return };
    let known = cx.profile.fields.known();
    let unknown: Vec<&(Scalar, Node)> = entries
        .iter()
        .filter(|(k, _)| !known.contains(&k.value.as_str()))
        .collect();
    if unknown.is_empty() {
        return;
    }
    let mut names: Vec<&str> = unknown.iter().map(|(k, _)| k.value.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let first_span = cx.yaml_span(&unknown[0].0.span);
    match cx.profile.wording {
        Wording::SkillsRef | Wording::AnthropicUpload => {
            let mut message = if cx.profile.wording == Wording::SkillsRef {
                format!(
                    "Unexpected fields in frontmatter: {}. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
                    names.join(", ")
                )
            } else {
                format!(
                    "Unexpected key(s) in SKILL.md frontmatter: {}. Allowed properties are: allowed-tools, compatibility, description, license, metadata, name",
                    names.join(", ")
                )
            };
            let cc: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| CLAUDE_CODE_FIELDS.contains(n))
                .collect();
            if !cc.is_empty() && cx.profile.wording == Wording::AnthropicUpload {
                message.push_str(&format!(" ({} only work in Claude Code)", cc.join(", ")));
            }
            let fix = move_under_metadata(cx, &unknown);
            if let Some(d) = cx.report_md(&META, first_span, message) {
                d.fix = fix;
            }
        }
        Wording::Playground => {
            for (key, _) in unknown {
                let message = match cx.profile.fields {
                    // These clients read a few fields and never look at the rest: nothing is wrong.
                    FieldSet::Codex | FieldSet::Gemini => {
                        format!(
                            "`{}` does nothing in {}, which reads only {}",
                            key.value,
                            cx.profile.title,
                            known.join(", ")
                        )
                    }
                    _ => format!(
                        "unknown field `{}`: {} ignores it",
                        key.value, cx.profile.title
                    ),
                };
                let span = cx.yaml_span(&key.span);
                cx.report_md(&META, span, message);
            }
        }
    }
}

/// Moves single-line scalar fields under `metadata` (creating it when absent).
fn move_under_metadata(cx: &Cx, unknown: &[&(Scalar, Node)]) -> Option<Fix> {
    let doc = cx.doc()?;
    let yaml_range = doc.yaml_range()?;
    let index = cx.a.md_line_index()?;
    let mut edits = Vec::new();
    let mut moved = String::new();
    for (key, value) in unknown {
        let Node::Scalar(scalar) = value else {
            return None;
        };
        let key_span = doc.yaml_span(&key.span);
        let line = index.line_col(&doc.text, key_span.start).line;
        let line_range = index.line_range(&doc.text, line);
        let value_end = doc.yaml_span(&scalar.span).end;
        if value_end > line_range.end || key_span.start != line_range.start {
            return None; // multi-line or indented: leave it to a person
        }
        let raw_value = if scalar.span.is_empty() {
            "\"\"".to_owned()
        } else {
            doc.text[doc.yaml_span(&scalar.span)].to_owned()
        };
        moved.push_str(&format!("  {}: {}\n", key.value, raw_value));
        // The line and its end, `\n` or `\r\n` (`line_range` stops before the `\r`).
        let rest = &doc.text[line_range.end..];
        let end = line_range.end
            + if rest.starts_with("\r\n") {
                2
            } else {
                usize::from(rest.starts_with('\n'))
            };
        edits.push(Edit {
            range: line_range.start..end,
            replacement: String::new(),
        });
    }
    let insert_at = match cx.field("metadata") {
        Some(Node::Map { span, .. }) => {
            let end = doc.yaml_span(span).end;
            let line = index.line_col(&doc.text, end.saturating_sub(1)).line;
            (index.line_range(&doc.text, line).end + 1).min(yaml_range.end)
        }
        Some(_) => return None,
        None => {
            moved.insert_str(0, "metadata:\n");
            yaml_range.end
        }
    };
    // Where the frontmatter has no line of its own to end (unclosed, or closed on the moved
    // line), the insertion would land in a line it deletes: leave it to a person.
    if edits
        .iter()
        .any(|e| crate::fix::overlaps(&e.range, &(insert_at..insert_at)))
    {
        return None;
    }
    edits.push(Edit {
        range: insert_at..insert_at,
        replacement: moved,
    });
    edits.sort_by_key(|e| e.range.start);
    Some(Fix {
        title: "Move the fields under `metadata`".to_owned(),
        edits,
        applicability: Applicability::Unsafe,
    })
}
