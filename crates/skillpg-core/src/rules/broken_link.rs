//! ## What it checks
//! Every relative link and backticked path of SKILL.md that points into the folder resolves
//! to a file or folder there, and none climbs out of it.
//! ## Why it matters
//! The body is how an agent reaches level 3; a broken path is a dead end it will try to read.
//! ## Example
//! `See [the guide](references/gude.md)`.
//! ## Fix
//! Correct the path or add the file.
//! ## Source
//! Agent Skills specification, "File references".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::links::Target;

pub static META: RuleMeta = RuleMeta {
    code: "SPG063",
    name: "broken-link",
    summary: "A path in SKILL.md that is not in the folder.",
    default_severity: Severity::Error,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    for link in &cx.a.links {
        let message = match link.target {
            Target::Missing => format!("`{}` is referenced from SKILL.md but is not in the skill folder", link.path),
            Target::OutsideFolder => format!("`{}` points outside the skill folder; bundled files must be inside it", link.path),
            Target::File { .. } | Target::Dir { .. } => continue,
        };
        cx.report_md(&META, Some(link.span.clone()), message);
    }
}
