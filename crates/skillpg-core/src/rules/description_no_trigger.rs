//! ## What it checks
//! The description says when to use the skill, not only what it is about.
//! ## Why it matters
//! Level 1 is a routing decision made from one sentence. In the chapter's experiment the same
//! six skills were routed right 18/24 times with "what and when" descriptions and 10/24 with
//! bare subjects, and the thin ones drew NONE on 9 of 24 requests.
//! ## Example
//! `description: Helps with SQL.`
//! ## Fix
//! Name the trigger: "Use when someone adds or changes a migration, an index, or a column."
//! ## Source
//! Agent Skills specification, `description` ("should describe both what the skill does and
//! when to use it"); Skill Playground chapter, "Failure one".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG069",
    name: "description-no-trigger",
    summary: "The description does not say when to use the skill.",
    default_severity: Severity::Warning,
    source: sources::SPEC,
};

/// Words that introduce a trigger in the descriptions of the corpus.
const TRIGGERS: [&str; 16] = [
    "when",
    "whenever",
    "if",
    "use",
    "using",
    "trigger",
    "triggers",
    "triggered",
    "invoke",
    "asks",
    "ask",
    "wants",
    "needs",
    "before",
    "after",
    "during",
];

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("description") else {
        return;
    };
    let Some(scalar) = node.as_scalar() else {
        return;
    };
    if scalar.value.trim().is_empty() {
        return;
    }
    let lower = scalar.value.to_lowercase();
    let has_trigger = lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| TRIGGERS.contains(&w));
    if has_trigger {
        return;
    }
    let message =
        "the description says what the skill is about but not when to use it (no \"use when\", \"if\", \"before\"...): routing risk, an agent may never open it"
            .to_owned();
    let span = cx.yaml_span(&scalar.span);
    cx.report_md(&META, span, message);
}
