//! ## What it checks
//! The frontmatter has a `name`.
//! ## Why it matters
//! The specification requires it; Claude Code falls back to the folder's name.
//! ## Example
//! Frontmatter with only `description`.
//! ## Fix
//! Add `name:` with the folder's name.
//! ## Source
//! Agent Skills specification, `name`; skills-ref `validate_metadata`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::profile::Wording;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG031",
    name: "name-missing",
    summary: "The frontmatter has no `name`.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(Node::Map { .. }) = cx.doc().and_then(|d| d.root()) else {
        return;
    };
    if cx.field("name").is_some() {
        return;
    }
    let message = if !cx.profile.name_required {
        format!(
            "no `name`: {} uses the folder's name, `{}`",
            cx.profile.title, cx.a.dir_name
        )
    } else {
        match cx.profile.wording {
            Wording::AnthropicUpload => "Missing 'name' in frontmatter".to_owned(),
            _ => "Missing required field in frontmatter: name".to_owned(),
        }
    };
    let insert_at = cx.doc().and_then(|d| d.yaml_range()).map(|r| r.start);
    let dir = cx.a.dir_name.clone();
    let severity_info = !cx.profile.name_required;
    if let Some(d) = cx.report_md(&META, insert_at.map(|s| s..s), message) {
        if severity_info {
            d.severity = Severity::Info;
        }
        if let Some(at) = insert_at {
            d.fix = Some(fix(
                "Add `name` from the folder's name",
                at..at,
                // A folder named `null`, `yes` or `123` is a string only when quoted.
                format!("name: {}\n", crate::fix::yaml_value("name", &dir)),
                Applicability::Unsafe,
            ));
        }
    }
}
