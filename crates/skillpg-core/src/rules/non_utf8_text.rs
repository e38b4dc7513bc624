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
use crate::profile::Utf8Reading;

pub static META: RuleMeta = RuleMeta {
    code: "SPG005",
    name: "non-utf8-text",
    summary: "A text file that is not valid UTF-8.",
    default_severity: Severity::Warning,
    source: sources::SKILLS_REF,
};

pub fn check(cx: &mut Cx) {
    let skill_md = cx.a.skill_md_path.clone();
    // What a loader does with a UTF-16 SKILL.md, in the words of this client's verdict: one
    // that needs frontmatter refuses it; one that falls back to the folder (Claude Code) loads
    // it under the folder's name.
    let reading = cx.profile.utf8;
    let consequence = if reading == Utf8Reading::Sniffs {
        // Mistral Vibe's `read_safe` tries the byte order mark first (run in its oracle test).
        format!(
            "{} decodes it by its byte order mark and reads the frontmatter; other clients read skills as UTF-8 and see none",
            cx.profile.title
        )
    } else if reading == Utf8Reading::Strict
        && cx.profile.is_gate(META.name)
        && !cx.profile.needs_frontmatter()
    {
        format!(
            "{} reads skills as strict UTF-8, and the decoding error keeps this one out",
            cx.profile.title
        )
    } else if cx.profile.needs_frontmatter() {
        "skills are read as UTF-8, so loaders see no frontmatter".to_owned()
    } else {
        format!(
            "{} reads it as UTF-8, sees no frontmatter, and still loads it (see frontmatter-missing for what it lists)",
            cx.profile.title
        )
    };
    // Each file that does not decode: its path, the bad byte's span, the message, and whether
    // it is UTF-16 (which a loader reading UTF-8 sees no frontmatter in).
    let bad: Vec<(String, Option<std::ops::Range<usize>>, String, bool)> =
        cx.a.files
            .iter()
            .filter_map(|f| match f.text {
                // In the decoded text the bad byte became U+FFFD, three bytes long.
                FileText::Lossy { bad_offset, .. } => Some((
                    f.path.clone(),
                    Some(bad_offset..bad_offset + '\u{FFFD}'.len_utf8()),
                    match reading {
                        Utf8Reading::Strict => format!("not valid UTF-8 (first bad byte at offset {bad_offset}); decoded with replacement characters"),
                        Utf8Reading::Lossy => format!("not valid UTF-8 (first bad byte at offset {bad_offset}); {} reads it with replacement characters in place of those bytes", cx.profile.title),
                        Utf8Reading::Sniffs => format!("not valid UTF-8 (first bad byte at offset {bad_offset}); {} guesses its encoding, other clients read replacement characters", cx.profile.title),
                    },
                    false,
                )),
                FileText::Utf16 { big_endian, .. } => Some((
                    f.path.clone(),
                    None,
                    format!(
                        "encoded as UTF-16 ({}, byte order mark {}); {consequence}. Save it as UTF-8",
                        if big_endian { "big-endian" } else { "little-endian" },
                        if big_endian { "FE FF" } else { "FF FE" }
                    ),
                    true,
                )),
                _ => None,
            })
            .collect();
    for (path, span, message, utf16) in bad {
        let is_skill_md = Some(&path) == skill_md.as_ref();
        // A loader that replaces bad bytes still reads the frontmatter; UTF-16 it reads only
        // where it decodes by the byte order mark.
        let decodes = match reading {
            Utf8Reading::Strict => false,
            Utf8Reading::Lossy => !utf16,
            Utf8Reading::Sniffs => true,
        };
        // Where refusing it does more than skip this skill (Kimi Code CLI's `discover_skills`
        // leaves the whole folder's scan), the client's own consequence is said.
        let message = match cx.profile.gate(META.name) {
            Some(g) if is_skill_md && !decodes && g.models.contains("whole folder") => {
                format!("{message}; {}: {}", cx.profile.title, g.models)
            }
            _ => message,
        };
        if let Some(d) = cx.report(&META, &path, span, message) {
            // Only SKILL.md is parsed by loaders; another file that does not decode still loads.
            if !is_skill_md || decodes {
                d.severity = d.severity.min(Severity::Warning);
            }
        }
    }
}
