//! ## What it checks
//! Lists the codes of an error table (a `## Error Cases` or `## Errors` section with a
//! Markdown table), so a reviewer can check them against the test cases.
//! ## Why it matters
//! In a contract-style skill the error table is the recovery plan; listing its codes makes
//! missing or duplicated ones visible.
//! ## Example
//! `| E_NOT_FOUND | order id unknown | ask for another id |`
//! ## Fix
//! Nothing to fix; a duplicated code is reported as a warning.
//! ## Source
//! "SKILL.md as an interface contract" (Error Cases).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG082",
    name: "error-code-table",
    summary: "The codes of an error table.",
    default_severity: Severity::Info,
    source: sources::CONTRACT,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let mut reports = Vec::new();
    for section in cx.a.sections() {
        let title = section.title.to_lowercase();
        if !(title.starts_with("error cases") || title == "errors" || title == "error codes") {
            continue;
        }
        let text = &doc.text[section.range.clone()];
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with('|'))
            .collect();
        // The header row and the `|---|` separator come first.
        let codes: Vec<String> = rows
            .iter()
            .skip(2)
            .filter_map(|row| row.trim().trim_start_matches('|').split('|').next())
            .map(|c| c.trim().trim_matches('`').to_owned())
            .filter(|c| !c.is_empty())
            .collect();
        if codes.is_empty() {
            continue;
        }
        let mut sorted = codes.clone();
        sorted.sort();
        let dups: Vec<&String> = sorted
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| &w[0])
            .collect();
        let mut message = format!(
            "{} declares {} error code(s): {}",
            section.title,
            codes.len(),
            codes.join(", ")
        );
        if !dups.is_empty() {
            message.push_str(&format!(
                "; duplicated: {}",
                dups.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        reports.push((section.range.start, message, !dups.is_empty()));
    }
    for (at, message, dup) in reports {
        if let Some(d) = cx.report_md(&META, Some(at..at), message)
            && dup
        {
            d.severity = Severity::Warning;
        }
    }
}
