//! ## What it checks
//! The frontmatter is a YAML mapping (`key: value` lines).
//! ## Why it matters
//! A list, a bare string or an empty frontmatter has no `name` or `description`.
//! ## Example
//! `---` then `---` with nothing between.
//! ## Fix
//! Write `name: ...` and `description: ...` between the delimiters.
//! ## Source
//! skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG016",
    name: "frontmatter-not-mapping",
    summary: "The frontmatter is not a YAML mapping.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(parsed) = doc.yaml.as_ref() else {
        return;
    };
    if parsed.error.is_some() || matches!(parsed.root, Some(Node::Map { .. })) {
        return;
    }
    // A client that loads a skill without frontmatter reads an empty one as none (Kimi Code
    // CLI's `parse_frontmatter`: `if not frontmatter: return None`).
    let empty = doc
        .yaml_range()
        .is_some_and(|r| doc.text[r].trim().is_empty());
    if empty && !cx.profile.needs_frontmatter() {
        let message = format!(
            "the frontmatter is empty: {} reads it as none (see frontmatter-missing for what it lists)",
            cx.profile.title
        );
        if let Some(d) = cx.report_md(&META, doc.yaml_range(), message) {
            d.severity = d.severity.min(Severity::Warning);
        }
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => "Frontmatter must be a YAML dictionary",
        _ => "SKILL.md frontmatter must be a YAML mapping",
    };
    let span = doc.yaml_range();
    cx.report_md(&META, span, message.to_owned());
}
