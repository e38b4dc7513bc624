//! ## What it checks
//! No key appears twice in one mapping of the frontmatter.
//! ## Why it matters
//! strictyaml and js-yaml refuse the file; PyYAML keeps the last value silently, so the
//! first one is dead text that a reader believes.
//! ## Example
//! `description: old` ... `description: new`
//! ## Fix
//! Delete the one that is not meant.
//! ## Source
//! skills-ref `parse_frontmatter` (strictyaml); YAML 1.2 §3.2.1.1 (keys are unique).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::YamlDialect;
use crate::yaml::YamlIssueKind;

pub static META: RuleMeta = RuleMeta {
    code: "SPG018",
    name: "duplicate-key",
    summary: "A key appears twice in a mapping.",
    default_severity: Severity::Warning,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(parsed) = doc.yaml.as_ref() else {
        return;
    };
    for issue in parsed
        .issues
        .iter()
        .filter(|i| i.kind == YamlIssueKind::DuplicateKey)
    {
        let message = match cx.profile.yaml {
            YamlDialect::StrictYaml => format!(
                "Invalid YAML in frontmatter: Duplicate key '{}' found",
                issue.detail
            ),
            YamlDialect::Lenient => format!(
                "duplicate key '{}': lenient loaders keep the last value, strict ones refuse the file",
                issue.detail
            ),
        };
        cx.report_md(&META, Some(doc.yaml_span(&issue.span)), message);
    }
}
