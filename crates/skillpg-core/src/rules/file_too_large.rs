//! ## What it checks
//! No file is over 8 MB.
//! ## Why it matters
//! claude.ai refuses uploads with larger files; the playground neither decodes nor counts them.
//! ## Example
//! A 20 MB video in `assets/`.
//! ## Fix
//! Remove it, or link to it instead of bundling it.
//! ## Source
//! claude.ai upload limits.

use super::{Cx, RuleMeta, sources};
use crate::bundle::MAX_FILE_BYTES;
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG003",
    name: "file-too-large",
    summary: "A file is over 8 MB.",
    default_severity: Severity::Error,
    source: sources::CLAUDE_API,
};

pub fn check(cx: &mut Cx) {
    let large: Vec<(String, usize)> =
        cx.a.files
            .iter()
            .filter(|f| f.too_large)
            .map(|f| (f.path.clone(), f.n_bytes))
            .collect();
    for (path, n_bytes) in large {
        // The edges read one byte past the limit and no more (a 2 GB file is not held whole
        // to be refused): a file of exactly that size is over the limit, by how much unknown.
        let limit = MAX_FILE_BYTES / 1_048_576;
        let message = if n_bytes == MAX_FILE_BYTES + 1 {
            format!(
                "{path} is over the {limit} MB upload limit; it was not read and counts 0 tokens"
            )
        } else {
            format!(
                "{path} is {:.1} MB, over the {limit} MB upload limit; it was not read and counts 0 tokens",
                n_bytes as f64 / 1_048_576.0
            )
        };
        cx.report(&META, &path, None, message);
    }
}
