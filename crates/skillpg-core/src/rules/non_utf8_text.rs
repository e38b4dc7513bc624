//! ## What it checks
//! Text files are valid UTF-8.
//! ## Why it matters
//! skills-ref reads SKILL.md as UTF-8 and stops with a decoding error; agents see replacement
//! characters in other files.
//! ## Example
//! A Latin-1 `é` (byte `E9`) in a reference file.
//! ## Fix
//! Re-save the file as UTF-8.
//! ## Source
//! skills-ref `validate` (`read_text(encoding='utf-8')`).

use super::{Cx, RuleMeta, sources};
use crate::bundle::FileText;
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG005",
    name: "non-utf8-text",
    summary: "A text file that is not valid UTF-8.",
    default_severity: Severity::Warning,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let skill_md = cx.a.skill_md_path.clone();
    let bad: Vec<(String, usize)> = cx
        .a
        .files
        .iter()
        .filter_map(|f| match f.text {
            FileText::Lossy { bad_offset, .. } => Some((f.path.clone(), bad_offset)),
            _ => None,
        })
        .collect();
    for (path, offset) in bad {
        let message = format!("not valid UTF-8 (first bad byte at offset {offset}); decoded with replacement characters");
        let is_skill_md = Some(&path) == skill_md.as_ref();
        // In the decoded text the bad byte became U+FFFD, three bytes long.
        if let Some(d) = cx.report(&META, &path, Some(offset..offset + '\u{FFFD}'.len_utf8()), message) {
            if is_skill_md {
                d.severity = Severity::Error;
            }
        }
    }
}
