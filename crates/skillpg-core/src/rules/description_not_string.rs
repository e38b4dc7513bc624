//! ## What it checks
//! `description` is a string, empty or not: for a client that refuses only a description that
//! is not a string (OpenCode's zod `description: z.string()` takes `""`), this is its gate,
//! where `description-empty` is only a warning. It speaks only under such a client: elsewhere
//! `description-empty` says it.
//! ## Why it matters
//! A null, a number, a list or a map is refused outright, and the skill is not loaded.
//! ## Example
//! `description:` with nothing after it, or `description: 42`.
//! ## Fix
//! Say what the skill does and when to use it.
//! ## Source
//! OpenCode `packages/opencode/src/skill/index.ts`: `Info.pick({ name, description })` with
//! `description: z.string()`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::yaml::Node;

pub static META: RuleMeta = RuleMeta {
    code: "SPG092",
    name: "description-not-string",
    summary: "`description` is not a string (a client that takes an empty one refuses this).",
    default_severity: Severity::Error,
    source: sources::OPENCODE,
};

pub fn check(cx: &mut Cx) {
    if !cx.profile.is_gate(META.name) {
        return;
    }
    let Some(node) = cx.field("description") else {
        return;
    };
    let Err(type_name) = cx.as_string(node) else {
        return;
    };
    // A falsy one gives way to the body's first line where the client has that fallback (Kimi
    // Code CLI's `frontmatter.get("description") or …`).
    if cx.profile.description_fallback.is_some()
        && let Node::Scalar(s) = node
        && cx.profile.yaml.reads_falsy(s)
    {
        return;
    }
    // The engine names YAML's types as Python does; a JavaScript client reads `null`.
    let type_name = if type_name == "NoneType" {
        "null"
    } else {
        type_name
    };
    let message = format!(
        "`description` is {type_name}, not a string: {} refuses the skill (an empty string would load)",
        cx.profile.title
    );
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
