//! ## What it checks
//! Notes each binary file (images, archives, fonts).
//! ## Why it matters
//! Binary files count 0 tokens here, but an agent that opens one pays in another currency
//! (an image's tokens depend on its pixels), so the level-3 total understates them.
//! ## Example
//! `assets/logo.png`
//! ## Fix
//! Nothing to fix; keep binary assets for scripts to use, not for the model to read.
//! ## Source
//! Agent Skills specification, "Optional directories" (`assets/`).

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG004",
    name: "binary-file",
    summary: "A binary file, counted as 0 tokens.",
    default_severity: Severity::Info,
    source: sources::SPEC,
};

pub fn check(cx: &mut Cx) {
    let binary: Vec<(String, usize)> =
        cx.a.files
            .iter()
            .filter(|f| f.is_binary())
            .map(|f| (f.path.clone(), f.n_bytes))
            .collect();
    for (path, n_bytes) in binary {
        cx.report(
            &META,
            &path,
            None,
            format!("binary file ({n_bytes} bytes): counted as 0 tokens"),
        );
    }
}
