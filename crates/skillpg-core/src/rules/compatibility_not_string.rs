//! ## What it checks
//! `compatibility`, when present, is a string.
//! ## Why it matters
//! The specification defines it as a short string naming environment requirements.
//! ## Example
//! `compatibility:` followed by a list.
//! ## Fix
//! Write one sentence: "Requires Python 3.11 and network access".
//! ## Source
//! skills-ref `_validate_compatibility`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::profile::Wording;

pub static META: RuleMeta = RuleMeta {
    code: "SPG044",
    name: "compatibility-not-string",
    summary: "`compatibility` is not a string.",
    default_severity: Severity::Error,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(node) = cx.field("compatibility") else {
        return;
    };
    let Err(type_name) = cx.as_string(node) else {
        return;
    };
    // An empty value is `compatibility-empty`'s to report.
    if type_name == "NoneType" {
        return;
    }
    let message = match cx.profile.wording {
        Wording::AnthropicUpload => format!("Compatibility must be a string, got {type_name}"),
        _ => "Field 'compatibility' must be a string".to_owned(),
    };
    let span = cx.yaml_span(&node.span());
    cx.report_md(&META, span, message);
}
