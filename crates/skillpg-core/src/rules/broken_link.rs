//! ## What it checks
//! The paths SKILL.md sends the agent to read resolve to files of the folder. A Markdown link,
//! or a path under `references/`, `scripts/` or `assets/`, that does not resolve is a warning.
//! Any other unresolved path is only a note: it may be a file of the user's project, of the
//! repository or of a plugin, another skill's file, or one the agent is told to write (those
//! are not reported at all).
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
    default_severity: Severity::Warning,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    for link in &cx.a.links {
        let (message, severity) = match link.target {
            Target::File { .. } | Target::Dir { .. } => continue,
            Target::OutsideFolder => (
                format!(
                    "`{}` points outside the skill folder (another skill's or the repository's file): it is not bundled when this skill is installed on its own",
                    link.path
                ),
                Severity::Info,
            ),
            // Read without its folder: the files beside SKILL.md are not known, not missing.
            Target::Missing if cx.a.folder_unknown => (
                format!(
                    "needs the folder: `{}` cannot be checked, because this SKILL.md was read without the files beside it; pick the folder to check its bundled files",
                    link.path
                ),
                Severity::Info,
            ),
            Target::Missing if link.sent => (
                format!(
                    "`{}` is referenced from SKILL.md but is not in the skill folder",
                    link.path
                ),
                Severity::Warning,
            ),
            Target::Missing if link.output => continue,
            Target::Missing => (
                format!(
                    "`{}` is not in the skill folder; if the agent is meant to read it, bundle it (it may also be a path of the user's project or the repository)",
                    link.path
                ),
                Severity::Info,
            ),
        };
        if let Some(d) = cx.report_md(&META, Some(link.span.clone()), message) {
            d.severity = d.severity.min(severity);
        }
    }
}
