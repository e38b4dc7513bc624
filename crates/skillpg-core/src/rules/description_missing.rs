//! ## What it checks
//! The frontmatter has a `description`.
//! ## Why it matters
//! The description is level 1: the only text an agent reads before deciding to open the skill.
//! Claude Code falls back to the body's first paragraph, which rarely says when to use it.
//! ## Example
//! Frontmatter with only `name`.
//! ## Fix
//! Add a description that says what the skill does and when to use it.
//! ## Source
//! Agent Skills specification, `description`; skills-ref `validate_metadata`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::{FieldSet, Wording};
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG041",
    name: "description-missing",
    summary: "The frontmatter has no `description`.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(Node::Map { .. }) = cx.doc().and_then(|d| d.root()) else {
        return;
    };
    if cx.field("description").is_some() {
        return;
    }
    let message = match (cx.profile.wording, cx.profile.fields) {
        (Wording::AnthropicUpload, _) => "Missing 'description' in frontmatter".to_owned(),
        (_, FieldSet::ClaudeCode) => "no `description`: Claude Code uses the body's first paragraph, which rarely says when to use the skill".to_owned(),
        _ => "Missing required field in frontmatter: description".to_owned(),
    };
    let at = cx
        .doc()
        .and_then(|d| d.yaml_range())
        .map(|r| r.start..r.start);
    cx.report_md(&META, at, message);
}
