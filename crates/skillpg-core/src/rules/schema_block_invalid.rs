//! ## What it checks
//! When SKILL.md declares `## Input Schema` or `## Output Schema`, the first ```` ```json ````
//! block under the heading is valid JSON and a plausible JSON Schema (an object; `type` a JSON
//! type name; `properties` an object; `required` a list of strings).
//! ## Why it matters
//! A skill written as an interface contract is only as good as its schemas; a syntax error
//! makes the contract unreadable to tools and ambiguous to the model.
//! ## Example
//! `{"type": "object", "properties": {"id": {"type": "sting"}}}`
//! ## Fix
//! Correct the JSON at the reported line and column.
//! ## Source
//! JSON Schema 2020-12 core; "SKILL.md as an interface contract".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG080",
    name: "schema-block-invalid",
    summary: "An Input or Output Schema block that is not valid JSON Schema.",
    default_severity: Severity::Warning,
    source: sources::CONTRACT,
};

const TYPES: [&str; 7] = [
    "object", "array", "string", "number", "integer", "boolean", "null",
];

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let mut reports = Vec::new();
    for section in cx.a.sections() {
        let title = section.title.to_lowercase();
        if title != "input schema" && title != "output schema" {
            continue;
        }
        let text = &doc.text[section.range.clone()];
        let Some(open) = text.find("```json") else {
            continue;
        };
        let Some(content_start) = text[open..].find('\n').map(|i| open + i + 1) else {
            continue;
        };
        let Some(close) = text[content_start..].find("```").map(|i| content_start + i) else {
            continue;
        };
        let json = &text[content_start..close];
        let base = section.range.start + content_start;
        match serde_json::from_str::<serde_json::Value>(json) {
            Err(err) => {
                let offset = offset_of(json, err.line(), err.column());
                reports.push((
                    base + offset,
                    format!("{}: invalid JSON: {err}", section.title),
                ));
            }
            Ok(value) => {
                if let Some(problem) = schema_problem(&value, "") {
                    reports.push((
                        base,
                        format!("{}: not a valid JSON Schema: {problem}", section.title),
                    ));
                }
            }
        }
    }
    for (at, message) in reports {
        cx.report_md(&META, Some(at..at), message);
    }
}

/// Byte offset of serde_json's 1-based line and column (column in bytes, as serde_json counts).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// The first structural problem of a schema, with its JSON pointer.
fn schema_problem(value: &serde_json::Value, pointer: &str) -> Option<String> {
    let obj = match value {
        serde_json::Value::Object(obj) => obj,
        serde_json::Value::Bool(_) => return None,
        _ => {
            return Some(format!(
                "{} must be an object or a boolean",
                if pointer.is_empty() {
                    "the schema"
                } else {
                    pointer
                }
            ));
        }
    };
    if let Some(t) = obj.get("type") {
        let ok = match t {
            serde_json::Value::String(s) => TYPES.contains(&s.as_str()),
            serde_json::Value::Array(items) => items
                .iter()
                .all(|i| i.as_str().is_some_and(|s| TYPES.contains(&s))),
            _ => false,
        };
        if !ok {
            return Some(format!(
                "{pointer}/type is {t}, not one of {}",
                TYPES.join(", ")
            ));
        }
    }
    if let Some(req) = obj.get("required")
        && !req
            .as_array()
            .is_some_and(|a| a.iter().all(|i| i.is_string()))
    {
        return Some(format!("{pointer}/required must be a list of strings"));
    }
    if let Some(pattern) = obj.get("pattern")
        && !pattern.is_string()
    {
        return Some(format!("{pointer}/pattern must be a string"));
    }
    if let Some(props) = obj.get("properties") {
        let serde_json::Value::Object(props) = props else {
            return Some(format!("{pointer}/properties must be an object"));
        };
        for (name, sub) in props {
            if let Some(p) = schema_problem(sub, &format!("{pointer}/properties/{name}")) {
                return Some(p);
            }
        }
    }
    if let Some(items) = obj.get("items") {
        return schema_problem(items, &format!("{pointer}/items"));
    }
    None
}
