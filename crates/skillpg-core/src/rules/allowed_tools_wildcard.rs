//! ## What it checks
//! `allowed-tools` grants no blanket permission: `Bash`, `Bash(*)`, `Bash(*:*)` or `*`.
//! ## Why it matters
//! Tools in `allowed-tools` run without asking while the skill is active; a wildcard pre-approves
//! any shell command a prompt injection in a read file can suggest.
//! ## Example
//! `allowed-tools: Bash(*) Read`
//! ## Fix
//! List the commands: `Bash(git status:*) Bash(git diff:*)`.
//! ## Source
//! Agent Skills specification, `allowed-tools`; Claude Code docs, `allowed-tools`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG067",
    name: "allowed-tools-wildcard",
    summary: "`allowed-tools` pre-approves a blanket wildcard.",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("allowed-tools") else {
        return;
    };
    let scalars: Vec<&crate::yaml::Scalar> = match node {
        Node::Scalar(s) => vec![s],
        Node::Seq { items, .. } => items.iter().filter_map(Node::as_scalar).collect(),
        Node::Map { .. } => return,
    };
    for scalar in scalars {
        for tool in scalar.value.split([' ', ',']).filter(|t| !t.is_empty()) {
            let blanket = matches!(
                tool,
                "*" | "Bash"
                    | "Bash(*)"
                    | "Bash(*:*)"
                    | "Bash(:*)"
                    | "PowerShell"
                    | "PowerShell(*)"
            );
            if blanket {
                let message = format!(
                    "`{tool}` in allowed-tools pre-approves every shell command while the skill is active (security note)"
                );
                let span = cx.yaml_span(&scalar.span);
                cx.report_md(&META, span, message);
            }
        }
    }
}
