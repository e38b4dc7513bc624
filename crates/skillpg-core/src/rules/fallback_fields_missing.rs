//! ## What it checks
//! Under a client that reads the frontmatter as `key: value` lines when its YAML does not parse
//! (Gemini CLI's `parseSimpleFrontmatter`), that reading finds both a `name:` and a
//! `description:` line. It speaks only where the YAML failed: there the client's fallback, not
//! YAML, decides whether the skill loads.
//! ## Why it matters
//! The fallback returns nothing unless it sees both lines, and the skill is skipped without a
//! word; with both it loads whatever the lines hold (`name:` alone reads as an empty name).
//! ## Example
//! A frontmatter with a tab-indented line (so the YAML fails) and no `description:` line.
//! ## Fix
//! Make the YAML parse (see `invalid-yaml`), and give the skill a `name` and a `description`.
//! ## Source
//! google-gemini/gemini-cli `packages/core/src/skills/skillLoader.ts` (`parseFrontmatter`,
//! `parseSimpleFrontmatter`), called in `tests/client_oracles.rs` at the pinned
//! `@google/gemini-cli-core`.

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG093",
    name: "fallback-fields-missing",
    summary: "The YAML fails, and the client's line-by-line fallback finds no `name:` or no `description:` line.",
    default_severity: Severity::Error,
    source: sources::GEMINI_CLI,
};

/// Which of `name:` and `description:` a `parseSimpleFrontmatter` reading of `yaml` finds:
/// each line, split at `\r?\n`, is tested against `/^\s*name:\s*(.*)$/` and
/// `/^\s*description:\s*(.*)$/` (indented lines too).
pub fn fallback_finds(yaml: &str) -> (bool, bool) {
    let mut found = (false, false);
    for line in yaml.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let key = line.trim_start();
        found.0 |= key.starts_with("name:");
        found.1 |= key.starts_with("description:");
    }
    found
}

pub fn check(cx: &mut Cx) {
    if !cx.profile.line_fallback {
        return;
    }
    let Some(doc) = cx.doc() else { return };
    if doc.yaml.as_ref().and_then(|y| y.error.as_ref()).is_none() {
        return;
    }
    let Some(range) = doc.yaml_range() else {
        return;
    };
    let missing: Vec<&str> = match fallback_finds(&doc.text[range.clone()]) {
        (true, true) => return,
        (false, false) => vec!["`name:`", "`description:`"],
        (false, true) => vec!["`name:`"],
        (true, false) => vec!["`description:`"],
    };
    let message = format!(
        "the YAML does not parse, so {} reads the frontmatter line by line, and finds no {} line: the skill is skipped",
        cx.profile.title,
        missing.join(" and no ")
    );
    cx.report_md(&META, Some(range.start..range.start), message);
}

#[cfg(test)]
mod tests {
    use super::fallback_finds;

    #[test]
    fn the_fallback_reads_indented_lines_and_crlf() {
        assert_eq!(fallback_finds("name: a\r\ndescription: b"), (true, true));
        assert_eq!(fallback_finds("\tbad: x\n  name: a"), (true, false));
        assert_eq!(fallback_finds("names: a\ndescriptions: b"), (false, false));
    }
}
