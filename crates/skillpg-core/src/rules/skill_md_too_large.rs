//! ## What it checks
//! SKILL.md is no larger than the client reads: a client with a size limit on SKILL.md
//! (Zed: 100 KiB) refuses a larger file before reading it. Only under such a client.
//! ## Why it matters
//! The skill is not loaded at all, and nothing in the file explains why.
//! ## Example
//! A SKILL.md of 150 KB with a long reference pasted into its body.
//! ## Fix
//! Move the long parts into `references/` and link to them from the body (level 3: read only
//! when needed).
//! ## Source
//! Zed's `agent_skills.rs`: a SKILL.md over 100 KiB is refused before it is read (still so
//! after the May 2026 read fixes, zed#57466 and zed#57510).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG091",
    name: "skill-md-too-large",
    summary: "SKILL.md is larger than the client reads.",
    default_severity: Severity::Error,
    source: sources::ZED,
};

pub fn check(cx: &mut Cx) {
    let Some(max) = cx.profile.skill_md_max_bytes else {
        return;
    };
    let Some(path) = cx.a.skill_md_path.clone() else {
        return;
    };
    let Some(size) =
        cx.a.files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.n_bytes)
    else {
        return;
    };
    if size <= max {
        return;
    }
    let message = format!(
        "SKILL.md is {} bytes; {} reads a SKILL.md of at most {} bytes ({} KiB) and refuses a larger one before reading it",
        super::super::diagnostic::thousands(size as u64),
        cx.profile.title,
        super::super::diagnostic::thousands(max as u64),
        max / 1024
    );
    cx.report(&META, &path, None, message);
}
