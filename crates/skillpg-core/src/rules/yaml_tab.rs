//! ## What it checks
//! No tab as indentation or right after `key:` in the frontmatter.
//! ## Why it matters
//! PyYAML and ruamel (under strictyaml) stop with "found character '\t' that cannot start any
//! token"; YAML 1.2 parsers accept the second form, so the skill works in some products only.
//! ## Example
//! `name:<TAB>my-skill`
//! ## Fix
//! Replace the tab with a space (safe).
//! ## Source
//! skills-ref `parse_frontmatter` (strictyaml on ruamel); PyYAML scanner.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::yaml::YamlIssueKind;

pub static META: RuleMeta = RuleMeta {
    code: "SPG020",
    name: "yaml-tab",
    summary: "A tab that PyYAML and strictyaml refuse.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let Some(parsed) = doc.yaml.as_ref() else {
        return;
    };
    for issue in parsed.issues.iter().filter(|i| {
        matches!(
            i.kind,
            YamlIssueKind::TabIndent | YamlIssueKind::TabAfterColon
        ) && cx.profile.yaml.refuses_tab(i.kind)
    }) {
        let span = doc.yaml_span(&issue.span);
        let message =
            "Invalid YAML in frontmatter: found character '\\t' that cannot start any token"
                .to_owned();
        if let Some(d) = cx.report_md(&META, Some(span.clone()), message) {
            d.fix = Some(fix(
                "Replace the tab with a space",
                span,
                " ".to_owned(),
                Applicability::Safe,
            ));
        }
    }
}
