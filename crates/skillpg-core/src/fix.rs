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
                && !taken.iter().copied().chain(&fix.edits[..i]).any(|t| overlaps(&t.range, &e.range))
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
    Fixed { text: res, applied, n_skipped }
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
    similar::TextDiff::from_lines(before, after).unified_diff().header(&format!("a/{path}"), &format!("b/{path}")).to_string()
}
