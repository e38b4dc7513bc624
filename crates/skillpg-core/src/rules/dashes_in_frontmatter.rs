//! ## What it checks
//! No `---` inside a frontmatter line (in a value, say).
//! ## Why it matters
//! skills-ref ends the frontmatter at the first `---` anywhere (`split("---", 2)`), so it reads
//! `description: Use this --- or that` as `Use this` and the rest as body, silently.
//! The specification's text ends the frontmatter at a `---` line, as this playground does.
//! ## Example
//! `description: Summarize --- then translate`
//! ## Fix
//! Use another dash (`—`) or rephrase.
//! ## Source
//! skills-ref `parse_frontmatter`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;
use crate::frontmatter::Split;
use crate::profile::SplitRule;

pub static META: RuleMeta = RuleMeta {
    code: "SPG014",
    name: "dashes-in-frontmatter",
    summary: "A `---` inside the frontmatter, where skills-ref cuts it short.",
    default_severity: Severity::Warning,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let Some(doc) = cx.doc() else { return };
    let (Some(cut), Split::Closed { .. }) = (doc.skills_ref_cut, &doc.split) else {
        return;
    };
    let message = match cx.profile.split {
        SplitRule::SkillsRef => {
            "skills-ref ends the frontmatter at this `---` and reads the rest as body, as this profile does; the specification's text ends it at the `---` line"
        }
        SplitRule::SpecText | SplitRule::Fences { .. } => {
            "skills-ref ends the frontmatter at this `---` and reads the rest as body; the specification's text ends it at the `---` line, as this profile does"
        }
    }
    .to_owned();
    cx.report_md(&META, Some(cut..cut + 3), message);
}
