//! The sample routing sets' `(name, description)` pairs, read from `web/samples/<set>/*/SKILL.md`
//! in folder order: shared by the decoder's CPU and GPU benchmarks (`#[path]`-included by both).

use std::path::{Path, PathBuf};

/// Every skill of `web/samples/<set>`, as its one-line frontmatter states it.
pub fn sample_skills(root: &Path, set: &str) -> Vec<(String, String)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("web/samples").join(set)).unwrap().filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            let text = std::fs::read_to_string(d.join("SKILL.md")).unwrap();
            let field = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).map(|v| v.trim().to_owned()).unwrap();
            (field("name:"), field("description:"))
        })
        .collect()
}
