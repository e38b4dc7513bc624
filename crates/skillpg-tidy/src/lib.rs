//! The tree's own rules, each in a module of its own with its doc, held by `tests/tidy.rs`
//! inside `cargo test` (the fast tier), as rust-analyzer's `xtask/src/tidy.rs` holds its tree.
//! Each rule is a pure function from the tree's text (or `cargo metadata`'s) to the violations
//! it finds, worded to say what to change, so that a planted violation of each can be tested
//! without touching the tree.

pub mod crate_edges;
pub mod fn_length;
pub mod length_unit;
pub mod live_html;
pub mod module_cycles;
pub mod module_docs;
pub mod pure_core;
pub mod shared_literals;
pub mod test_counts;
pub mod unknown_fields;

use std::path::{Path, PathBuf};

/// The workspace's root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, with its path relative to `dir` (`/`-separated) and its text,
/// in path order.
pub fn rust_files(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
    Ok(())
}
