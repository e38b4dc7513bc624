//! A doc comment (`//!`) opens every module file of every crate's `src/`: what the module is
//! for and the invariant it keeps, before any code, so a reader knows where they are.

/// Whether `text` opens with an inner doc comment (`//!` or `/*!`), after blank lines, plain
/// comments and inner attributes.
pub fn has_module_doc(text: &str) -> bool {
    for line in text.lines().map(str::trim) {
        if line.starts_with("//!") || line.starts_with("/*!") {
            return true;
        }
        let skippable = line.is_empty()
            || (line.starts_with("//") && !line.starts_with("///"))
            || line.starts_with("#![");
        if !skippable {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_without_its_doc_is_found() {
        assert!(has_module_doc("//! What it is.\n\nuse std::fmt;"));
        assert!(has_module_doc("#![allow(x)]\n// SPDX\n//! What it is."));
        assert!(!has_module_doc("use std::fmt;\n//! Too late."));
        assert!(!has_module_doc("/// An item's doc.\nfn f() {}"));
        assert!(!has_module_doc(""));
    }
}
