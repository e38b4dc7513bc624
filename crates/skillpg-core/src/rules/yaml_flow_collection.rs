//! ## What it checks
//! Under strictyaml (skills-ref), no flow collection (`[a, b]`, `{a: b}`) in the frontmatter.
//! ## Why it matters
//! skills-ref refuses the whole file: "Found ugly disallowed JSONesque flow mapping".
//! PyYAML-based hosts accept it, so a skill can work in one product and fail validation.
//! ## Example
//! `allowed-tools: [Read, Write]`
//! ## Fix
//! For `allowed-tools`, write the space-separated string the specification defines (safe).
//! ## Source
//! skills-ref `parse_frontmatter` (strictyaml); Agent Skills specification, `allowed-tools`.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};
use crate::profile::YamlDialect;
use crate::yaml::{Node, YamlIssueKind};

pub static META: RuleMeta = RuleMeta {
    code: "SPG017",
    name: "yaml-flow-collection",
    summary: "A flow collection, which strictyaml refuses.",
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
    let allowed_tools = cx.field("allowed-tools");
    for issue in parsed
        .issues
        .iter()
        .filter(|i| i.kind == YamlIssueKind::FlowCollection)
    {
        let span = doc.yaml_span(&issue.span);
        let message = "Invalid YAML in frontmatter: Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)".to_owned();
        let tools_fix = match allowed_tools {
            Some(
                node @ Node::Seq {
                    items,
                    span: seq_span,
                },
            ) if *seq_span == issue.span => {
                let words: Option<Vec<&str>> = items
                    .iter()
                    .map(|i| i.as_scalar().map(|s| s.value.as_str()))
                    .collect();
                words.map(|w| {
                    fix(
                        "Write allowed-tools as a space-separated string",
                        doc.yaml_span(&node.span()),
                        crate::fix::yaml_value("allowed-tools", &w.join(" ")),
                        Applicability::Safe,
                    )
                })
            }
            _ => None,
        };
        if let Some(d) = cx.report_md(&META, Some(span), message) {
            d.fix = tools_fix;
        }
    }
}
