//! ## What it checks
//! No invisible or bidirectional-control characters in `name`, `description` or the body:
//! zero-width spaces and joiners, bidi embeddings, overrides and isolates, soft hyphens,
//! Unicode tag characters.
//! ## Why it matters
//! They hide text from a human reviewer while the model reads it (Trojan Source, tag-character
//! prompt injection), and they make names that look equal differ.
//! ## Example
//! `description: Formats tables\u{E0041}\u{E0042}` (invisible tag characters).
//! ## Fix
//! Delete them (unsafe: review what they hid first).
//! ## Source
//! Unicode TR #36; CVE-2021-42574.

use super::{Cx, RuleMeta, fix, sources};
use crate::diagnostic::{Applicability, Severity};

pub static META: RuleMeta = RuleMeta {
    code: "SPG068",
    name: "invisible-unicode",
    summary: "Invisible or bidirectional-control characters.",
    default_severity: Severity::Warning,
    source: sources::UNICODE_SECURITY,
};

fn is_invisible(c: char, in_body: bool) -> bool {
    match c {
        // The zero-width joiner builds emoji sequences in prose; flag it only in name and description.
        '\u{200D}' => !in_body,
        '\u{200B}'
        | '\u{200C}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{00AD}'
        | '\u{180E}'
        | '\u{FEFF}'
        | '\u{E0000}'..='\u{E007F}' => true,
        _ => false,
    }
}

pub fn check(cx: &mut Cx) {
    let hits = cx.a.scans.invisible.get_or_init(|| hits(cx)).clone();
    for (what, start, c, count) in hits {
        let message = format!(
            "{count} invisible or bidirectional-control character(s) in the {what}, first U+{:04X} at this position; they hide text from reviewers but not from the model",
            c as u32
        );
        if let Some(d) = cx.report_md(&META, Some(start..start + c.len_utf8()), message)
            && count == 1
        {
            d.fix = Some(fix(
                "Delete the character",
                start..start + c.len_utf8(),
                String::new(),
                Applicability::Unsafe,
            ));
        }
    }
}

/// Per part of SKILL.md (`name`, `description`, `body`) with any: the first hit's offset, its
/// character and how many there are (the same under every profile).
fn hits(cx: &Cx) -> Vec<(&'static str, usize, char, usize)> {
    let Some(doc) = cx.doc() else {
        return Vec::new();
    };
    let mut ranges = Vec::new();
    for field in ["name", "description"] {
        if let Some(span) = cx.field(field).and_then(|n| cx.yaml_span(&n.span())) {
            ranges.push((field, span, false));
        }
    }
    ranges.push(("body", doc.body_range(), true));
    let mut found = Vec::new();
    for (what, range, in_body) in ranges {
        let text = &doc.text[range.clone()];
        let mut hits = text
            .char_indices()
            .filter(|(_, c)| is_invisible(*c, in_body));
        if let Some((first, c)) = hits.next() {
            found.push((what, range.start + first, c, 1 + hits.count()));
        }
    }
    found
}
