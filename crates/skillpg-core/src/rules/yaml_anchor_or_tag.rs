//! ## What it checks
//! Under strictyaml (skills-ref), no anchors (`&a`), aliases (`*a`) or tags (`!!str`).
//! ## Why it matters
//! strictyaml refuses them ("Found confusing disallowed anchor token", "Found disallowed tag
//! tokens"), so skills-ref rejects the file.
//! ## Example
//! `name: !!str my-skill`
//! ## Fix
//! Write the value out, quoted if it needs to be.
//! ## Source
//! skills-ref `parse_frontmatter` (strictyaml).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::YamlDialect;
use crate::yaml::YamlIssueKind;

pub static META: RuleMeta = RuleMeta {
    code: "SPG019",
    name: "yaml-anchor-or-tag",
    summary: "An anchor, alias or tag, which strictyaml refuses.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    if cx.profile.yaml != YamlDialect::StrictYaml {
        return;
    }
    let Some(doc) = cx.doc() else { return };
    let Some(parsed) = doc.yaml.as_ref() else {
        return;
    };
    for issue in &parsed.issues {
        let message = match issue.kind {
            YamlIssueKind::Anchor | YamlIssueKind::Alias => {
                "Invalid YAML in frontmatter: Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)".to_owned()
            }
            YamlIssueKind::Tag => format!("Invalid YAML in frontmatter: Found disallowed tag tokens (do not specify types in markup): `{}`", issue.detail),
            YamlIssueKind::ComplexKey => "Invalid YAML in frontmatter: a key must be a plain string".to_owned(),
            _ => continue,
        };
        cx.report_md(&META, Some(doc.yaml_span(&issue.span)), message);
    }
}
