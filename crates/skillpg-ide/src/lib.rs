//! What an editor shows of a skill, computed once for every editor: the findings as marks,
//! their quick fixes through the engine's one fix applier, the hovers, the token hints and the
//! field completion. Pure functions of an [`Analysis`], the findings of each client and a
//! file's text, in byte offsets; each edge translates them: the language server
//! (`skillpg-lsp`) to the protocol's line and character, the page's editor (CodeMirror) to
//! UTF-16 offsets ([`Utf16`]). So the two editors cannot drift, as rust-analyzer's `ide` crate
//! sits under its LSP.
//!
//! Invariants: nothing here reads a file, a clock or the DOM; every offset it returns lies on a
//! character boundary of the text it was given.

mod completion;
mod hover;
mod utf16;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use skillpg_core::links::Target;
use skillpg_core::{Analysis, Applicability, Diagnostic, Profile};

pub use completion::{Completion, CompletionKind, completion};
pub use hover::{Hover, TOKENIZER_NOTE, hover, level_one};
pub use utf16::{EditorOffsets, Utf16};

/// Each client's findings on one skill, as the checks return them.
pub type Findings = [(&'static Profile, Vec<Diagnostic>)];

/// One finding as every client that raised it sees it: the same code, span, severity and
/// message raised by several clients is one mark naming them.
#[derive(Debug, Clone)]
pub struct Mark<'a> {
    pub diagnostic: &'a Diagnostic,
    /// The keys of the clients that raised it, in the order of `findings`.
    pub profiles: Vec<&'static str>,
}

/// The skill's findings as marks, grouped by the file they are in (a finding without a file
/// goes on SKILL.md).
pub fn marks<'a>(analysis: &Analysis, findings: &'a Findings) -> BTreeMap<String, Vec<Mark<'a>>> {
    let mut by_file: BTreeMap<String, Vec<Mark<'a>>> = BTreeMap::new();
    let skill_md = analysis
        .skill_md_path
        .clone()
        .unwrap_or_else(|| "SKILL.md".to_owned());
    // Each finding's place in its file's list, by what makes two findings one: a hashed
    // look-up, since a file can hold 100,000 findings (a SKILL.md of broken links), and a
    // search of the list for each was quadratic (30 s for one check of such a file).
    type Key<'a> = (&'a str, &'static str, Option<(usize, usize)>, u8, &'a str);
    let mut at: HashMap<Key<'_>, usize> = HashMap::new();
    for (p, diags) in findings {
        for d in diags {
            let file = if d.file.is_empty() {
                skill_md.as_str()
            } else {
                d.file.as_str()
            };
            let key: Key<'_> = (
                file,
                d.code,
                d.span.as_ref().map(|r| (r.start, r.end)),
                d.severity as u8,
                d.message.as_str(),
            );
            let list = by_file.entry(file.to_owned()).or_default();
            match at.get(&key) {
                Some(&i) => list[i].profiles.push(p.key),
                None => {
                    at.insert(key, list.len());
                    list.push(Mark {
                        diagnostic: d,
                        profiles: vec![p.key],
                    });
                }
            }
        }
    }
    by_file
}

/// One replacement of a stretch of a text, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub new_text: String,
}

/// The one stretch where `after` differs from `before`, as an edit of `before` (on character
/// boundaries of both).
pub fn change(before: &str, after: &str) -> Option<Edit> {
    if before == after {
        return None;
    }
    let mut start = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(start) || !after.is_char_boundary(start) {
        start -= 1;
    }
    let max_tail = before.len().min(after.len()) - start;
    let mut tail = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take(max_tail)
        .take_while(|(a, b)| a == b)
        .count();
    while !before.is_char_boundary(before.len() - tail)
        || !after.is_char_boundary(after.len() - tail)
    {
        tail -= 1;
    }
    Some(Edit {
        range: start..before.len() - tail,
        new_text: after[start..after.len() - tail].to_owned(),
    })
}

/// A quick fix: its title as an editor shows it, whether it is safe (a fix that changes what the
/// skill says is labelled for review), and the edit the engine's one applier
/// (`skillpg_core::fix`) makes of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub safe: bool,
    /// Every safe fix of the file at once ("fix all"), not one finding's.
    pub all: bool,
    pub edit: Edit,
    /// The finding's span it resolves (the whole file for "fix all").
    pub span: Range<usize>,
}

/// The title of a fix as every editor words it.
pub fn fix_title(fix: &skillpg_core::Fix) -> String {
    if fix.applicability == Applicability::Safe {
        fix.title.clone()
    } else {
        format!("{} (review: changes what the skill says)", fix.title)
    }
}

/// The quick fix of one finding on `text`, if it has a fix that changes the text.
pub fn quick_fix(d: &Diagnostic, text: &str) -> Option<QuickFix> {
    let fix = d.fix.as_ref()?;
    let after = skillpg_core::fix::apply_one(text, fix);
    Some(QuickFix {
        title: fix_title(fix),
        safe: fix.applicability == Applicability::Safe,
        all: false,
        edit: change(text, &after)?,
        span: d.span.clone().unwrap_or(0..0),
    })
}

/// The quick fixes of the findings on `file` (whose text is `text`) that touch `range`: one per
/// distinct fix, then, where the file has more than one safe fix, "apply every safe fix".
pub fn quick_fixes(
    findings: &Findings,
    file: &str,
    text: &str,
    range: Range<usize>,
) -> Vec<QuickFix> {
    let mut distinct: Vec<&Diagnostic> = Vec::new();
    for (_, diags) in findings {
        for d in diags.iter().filter(|d| d.file == file && d.fix.is_some()) {
            if !distinct.iter().any(|o| o.fix == d.fix) {
                distinct.push(d);
            }
        }
    }
    let mut out: Vec<QuickFix> = distinct
        .iter()
        .filter(|d| {
            let span = d.span.clone().unwrap_or(0..0);
            span.start <= range.end && span.end >= range.start
        })
        .filter_map(|d| quick_fix(d, text))
        .collect();
    let all: Vec<Diagnostic> = distinct.iter().map(|d| (*d).clone()).collect();
    let fixed = skillpg_core::fix::apply(text, file, &all, false);
    if fixed.applied.len() > 1
        && let Some(edit) = change(text, &fixed.text)
    {
        out.push(QuickFix {
            title: format!(
                "Apply every safe fix in this file ({})",
                fixed.applied.len()
            ),
            safe: true,
            all: true,
            edit,
            span: 0..text.len(),
        });
    }
    out
}

/// A count shown in the text, after the byte `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub at: usize,
    pub label: String,
}

/// Each level's tokens where it starts, at the end of its line: level 1 after the description,
/// level 2 after the frontmatter's closing line, each section's after its heading, level 3
/// after each link the body sends the agent to. In the order of the text.
pub fn hints(a: &Analysis) -> Vec<Hint> {
    let Some(doc) = &a.doc else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let line_end = |offset: usize| {
        let offset = offset.min(text.len());
        text[offset..].find('\n').map_or(text.len(), |i| offset + i)
    };
    let mut hints: Vec<Hint> = Vec::new();
    if let Some(value) = doc.root().and_then(|r| r.get("description")) {
        let span = doc.yaml_span(&value.span());
        hints.push(Hint {
            at: line_end(span.end.saturating_sub(1).max(span.start)),
            label: format!("L1 {} tok", thousands(a.levels().level1)),
        });
    }
    if let skillpg_core::frontmatter::Split::Closed { closing_line, .. } = &doc.split {
        hints.push(Hint {
            at: line_end(closing_line.start),
            label: format!("L2 body {} tok", thousands(a.body_tokens())),
        });
    }
    for s in a.sections().iter().filter(|s| !s.title.is_empty()) {
        hints.push(Hint {
            at: line_end(s.range.start),
            label: format!("{} tok", thousands(a.section_tokens(s))),
        });
    }
    for l in a.links.iter().filter(|l| l.sent) {
        if matches!(l.target, Target::File { .. } | Target::Dir { .. }) {
            hints.push(Hint {
                at: l.span.end,
                label: format!("L3 {} tok", thousands(a.link_tokens(l))),
            });
        }
    }
    hints.sort_by_key(|h| h.at);
    hints
}

fn thousands(n: usize) -> String {
    skillpg_core::diagnostic::thousands(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_the_one_stretch_that_differs() {
        let e = change(
            "name: a b\ndescription: x\n",
            "name: \"a b\"\ndescription: x\n",
        )
        .expect("they differ");
        assert_eq!(
            e,
            Edit {
                range: 6..9,
                new_text: "\"a b\"".to_owned()
            }
        );
        assert!(change("same", "same").is_none());
        // A change inside a multi-byte character stays on its boundaries.
        let e = change("xéy", "xèy").expect("they differ");
        assert_eq!(
            e,
            Edit {
                range: 1..3,
                new_text: "è".to_owned()
            }
        );
    }
}
