//! ## What it checks
//! No key appears twice in one mapping of the frontmatter.
//! ## Why it matters
//! strictyaml and js-yaml refuse the file; PyYAML keeps the last value silently, so the
//! first one is dead text that a reader believes. Codex (serde) refuses a repeated field it
//! reads and ignores any other repeated key (`DuplicateKeys::Fields`).
//! ## Example
//! `description: old` ... `description: new`
//! ## Fix
//! Delete the one that is not meant.
//! ## Source
//! skills-ref `parse_frontmatter` (strictyaml); YAML 1.2 §3.2.1.1 (keys are unique).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::{DuplicateKeys, YamlDialect};
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
            _ => format!(
                "duplicate key '{}': lenient loaders keep the last value, strict ones refuse the file",
                issue.detail
            ),
        };
        // A client that reads a fixed set of fields ignores any other key, however often.
        let ignored = match cx.profile.duplicate_keys {
            DuplicateKeys::AnyKey => false,
            DuplicateKeys::Fields(fields) => !fields.contains(&issue.detail.as_str()),
        };
        let message = if ignored {
            format!(
                "duplicate key '{}': {} reads only its own fields and ignores this one, but a reader of the file sees two values",
                issue.detail, cx.profile.title
            )
        } else {
            message
        };
        if let Some(d) = cx.report_md(&META, Some(doc.yaml_span(&issue.span)), message)
            && ignored
        {
            d.severity = Severity::Warning;
        }
    }
}
