//! Applies fixes to a file's text.

use crate::diagnostic::{Applicability, Diagnostic, Edit};

/// The outcome of applying fixes to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The new text.
    pub text: String,
    /// The codes of the diagnostics whose fixes were applied, in order.
    pub applied: Vec<&'static str>,
    /// Fixes skipped because they overlapped an earlier one (run again to apply them).
    pub n_skipped: usize,
}

/// Applies the fixes of `diagnostics` that target `file` to `text`: safe ones always, unsafe
/// ones when `include_unsafe`. A fix whose edits overlap one already taken is skipped whole, and
/// so is one whose edits do not fit the text (a range backwards, past the end, off a character
/// boundary, or overlapping another edit of the same fix): whatever edits a rule makes, applying
/// them never panics.
pub fn apply(text: &str, file: &str, diagnostics: &[Diagnostic], include_unsafe: bool) -> Fixed {
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = Vec::new();
    let mut n_skipped = 0;
    for d in diagnostics.iter().filter(|d| d.file == file) {
        let Some(fix) = &d.fix else { continue };
        if fix.applicability == Applicability::Unsafe && !include_unsafe {
            continue;
        }
        let fits = fix.edits.iter().enumerate().all(|(i, e)| {
            e.range.start <= e.range.end
                && e.range.end <= text.len()
                && text.is_char_boundary(e.range.start)
                && text.is_char_boundary(e.range.end)
                && !taken
                    .iter()
                    .copied()
                    .chain(&fix.edits[..i])
                    .any(|t| overlaps(&t.range, &e.range))
        });
        if !fits {
            n_skipped += 1;
            continue;
        }
        taken.extend(fix.edits.iter());
        applied.push(d.code);
    }
    taken.sort_by_key(|e| (e.range.start, e.range.end));
    let mut res = String::with_capacity(text.len());
    let mut cursor = 0;
    for e in taken {
        res.push_str(&text[cursor..e.range.start]);
        res.push_str(&e.replacement);
        cursor = e.range.end;
    }
    res.push_str(&text[cursor..]);
    Fixed {
        text: res,
        applied,
        n_skipped,
    }
}

/// Whether two edits' ranges conflict.
pub(crate) fn overlaps(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    // Two insertions at one point conflict too: their order would be arbitrary.
    a.start < b.end && b.start < a.end || a.start == b.start
}

/// Applies the edits of one fix to `text` (edits that do not fit the text are skipped).
pub fn apply_one(text: &str, fix: &crate::diagnostic::Fix) -> String {
    let d = Diagnostic {
        code: "",
        rule: "",
        severity: crate::diagnostic::Severity::Info,
        message: String::new(),
        file: String::new(),
        span: None,
        location: None,
        fix: Some(fix.clone()),
        source: crate::diagnostic::SourceRef { title: "", url: "" },
    };
    apply(text, "", std::slice::from_ref(&d), true).text
}

/// A unified diff of `before` and `after` with `a/`/`b/` headers for `path`, as `skillpg fix`
/// prints it and the page previews a fix.
pub fn unified_diff(before: &str, after: &str, path: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// A top-level frontmatter field's value written as YAML reads it back: plain where the text is
/// safe as a plain scalar for every loader (checked by parsing the result as the engine parses
/// frontmatter), else double-quoted with `\` escapes. `None` when the value cannot be one line
/// either way (it never happens: double quotes escape everything).
pub fn yaml_value(key: &str, value: &str) -> String {
    let reads_back = |written: &str| {
        let doc = crate::frontmatter::SkillDoc::parse(&format!("---\n{key}: {written}\n---\n"));
        let ok = doc
            .yaml
            .as_ref()
            .is_some_and(|y| y.error.is_none() && y.issues.is_empty());
        ok && doc
            .root()
            .and_then(|r| r.get(key))
            .and_then(crate::yaml::Node::as_scalar)
            .is_some_and(|s| s.value == value)
    };
    // YAML 1.1 loaders type these; a description must stay a string.
    let typed = matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | "y" | "n"
    ) || value.parse::<f64>().is_ok();
    let plain_safe = !value.is_empty()
        && !typed
        && value.trim() == value
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !value.chars().any(char::is_control)
        && !value.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ]);
    if plain_safe && reads_back(value) {
        return value.to_owned();
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The fix that sets the top-level frontmatter field `key` to `value` (one line, quoted as
/// [`yaml_value`] quotes it): the field's whole entry replaced (a folded or literal block
/// included), or a new line after `name` (or first) when there is none. `None` when SKILL.md has
/// no frontmatter that parses into a mapping: there is nowhere safe to write it.
pub fn set_field(text: &str, key: &str, value: &str) -> Option<crate::diagnostic::Fix> {
    use crate::diagnostic::{Applicability, Fix};
    let doc = crate::frontmatter::SkillDoc::parse(text);
    let yaml = doc.yaml_range()?;
    let crate::yaml::Node::Map { entries, .. } = doc.root()? else {
        return None;
    };
    let line = format!("{key}: {}", yaml_value(key, value));
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i);
    let edit = match entries.iter().rposition(|(k, _)| k.value == key) {
        Some(i) => {
            let (k, v) = &entries[i];
            let start = line_start(doc.yaml_span(&k.span).start);
            // The entry ends with its value's last line (a block scalar's span may run past its
            // line ending), and before the next entry's line or the closing delimiter.
            let before_newline = |at: usize| {
                if at > start && text.as_bytes()[at - 1] == b'\n' {
                    at - 1
                } else {
                    at
                }
            };
            let limit = before_newline(entries.get(i + 1).map_or(yaml.end, |(next, _)| {
                line_start(doc.yaml_span(&next.span).start)
            }));
            let value_end =
                before_newline(doc.yaml_span(&v.span()).end.max(doc.yaml_span(&k.span).end));
            let end = line_end(value_end).min(limit).max(start);
            let end = if text[start..end].ends_with('\r') {
                end - 1
            } else {
                end
            };
            crate::diagnostic::Edit {
                range: start..end,
                replacement: line.clone(),
            }
        }
        None => {
            let after = entries
                .iter()
                .find(|(k, _)| k.value == "name")
                .map(|(k, _)| line_end(doc.yaml_span(&k.span).end));
            match after {
                Some(at) if at < text.len() => crate::diagnostic::Edit {
                    range: at + 1..at + 1,
                    replacement: format!("{line}\n"),
                },
                _ => crate::diagnostic::Edit {
                    range: yaml.start..yaml.start,
                    replacement: format!("{line}\n"),
                },
            }
        }
    };
    Some(Fix {
        title: format!("Set `{key}`"),
        edits: vec![edit],
        applicability: Applicability::Safe,
    })
}

#[cfg(test)]
mod set_field_tests {
    use super::*;

    fn set(text: &str, value: &str) -> String {
        apply_one(
            text,
            &set_field(text, "description", value).expect("frontmatter"),
        )
    }

    fn reads(text: &str) -> Option<String> {
        let doc = crate::frontmatter::SkillDoc::parse(text);
        assert!(
            doc.yaml.as_ref().is_some_and(|y| y.error.is_none()),
            "{text}"
        );
        doc.field_str("description").map(str::to_owned)
    }

    #[test]
    fn a_value_with_a_colon_is_quoted_and_reads_back() {
        for value in [
            "Reviews migrations: locks, indexes and defaults. Use when a migration changes.",
            "Plain words, safe as they are",
            "# not a comment",
            "yes",
            "She said \"hi\" \\ then left",
            "- a list? no",
            "ends with a colon:",
            "tab\there",
            "émojis 😀 and “quotes”",
        ] {
            let before =
                "---\nname: sql-review\ndescription: Old one.\nlicense: MIT\n---\n\n# Body\n";
            let after = set(before, value);
            assert_eq!(reads(&after).as_deref(), Some(value), "{after}");
            assert!(
                after.contains("license: MIT\n---\n\n# Body\n")
                    && after.starts_with("---\nname: sql-review\n"),
                "{after}"
            );
        }
        assert_eq!(
            yaml_value("description", "Plain words, safe as they are"),
            "Plain words, safe as they are"
        );
        assert!(yaml_value("description", "a: b").starts_with('"'));
    }

    #[test]
    fn a_block_scalar_is_replaced_whole_and_a_missing_field_is_added() {
        let folded =
            "---\nname: x\ndescription: >\n  Folded over\n  two lines.\nlicense: MIT\n---\nBody\n";
        let after = set(folded, "New: one line.");
        assert_eq!(
            after,
            "---\nname: x\ndescription: \"New: one line.\"\nlicense: MIT\n---\nBody\n"
        );
        let last = "---\nname: x\ndescription: |\n  Literal\n  block\n---\nBody\n";
        assert_eq!(
            set(last, "Short."),
            "---\nname: x\ndescription: Short.\n---\nBody\n"
        );
        let missing = "---\nname: x\nlicense: MIT\n---\nBody\n";
        assert_eq!(
            set(missing, "Added."),
            "---\nname: x\ndescription: Added.\nlicense: MIT\n---\nBody\n"
        );
        assert!(set_field("# no frontmatter\n", "description", "x").is_none());
    }
}
