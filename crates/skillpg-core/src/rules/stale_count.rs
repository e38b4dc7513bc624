//! ## What it checks
//! Counts stated in prose ("70 rules", "40+ rules") agree with the files on disk and with
//! each other.
//! ## Why it matters
//! A skill is a document, and documents drift: vercel-react-best-practices' body says 70 rules,
//! `rules/` holds 72 files (two of them scaffolding), and `metadata.json` says "40+ rules".
//! An agent that trusts the wrong number stops looking early or looks for rules that do not
//! exist.
//! ## Example
//! `metadata.json`: "Contains 40+ rules across 8 categories".
//! ## Fix
//! Update the stale count, or drop it.
//! ## Source
//! Skill Playground chapter, "Staleness".

use super::{Cx, RuleMeta, sources};
use crate::diagnostic::Severity;

pub static META: RuleMeta = RuleMeta {
    code: "SPG065",
    name: "stale-count",
    summary: "A count in prose that disagrees with the files or another count.",
    default_severity: Severity::Warning,
    source: sources::CHAPTER,
};

/// Nouns whose counts are compared; the ones that name a folder are counted on disk.
const NOUNS: [&str; 8] = [
    "rules",
    "references",
    "scripts",
    "examples",
    "templates",
    "patterns",
    "checks",
    "categories",
];

#[derive(Debug)]
struct Claim {
    file: String,
    span: std::ops::Range<usize>,
    n: usize,
    at_least: bool,
    noun: &'static str,
}

pub fn check(cx: &mut Cx) {
    let reports =
        cx.a.scans
            .stale_counts
            .get_or_init(|| disagreements(cx))
            .clone();
    for (file, span, message) in reports {
        cx.report(&META, &file, Some(span), message);
    }
}

/// Every count that disagrees with the files or another count: its file, span and message
/// (the same under every profile).
fn disagreements(cx: &Cx) -> Vec<(String, std::ops::Range<usize>, String)> {
    let mut claims: Vec<Claim> = Vec::new();
    if let Some(doc) = cx.doc() {
        let body = doc.body_range();
        find_claims(
            &doc.text[body.clone()],
            body.start,
            cx.a.skill_md_path.as_deref().unwrap_or("SKILL.md"),
            &mut claims,
        );
    }
    for f in &cx.a.files {
        // History files count what used to be true.
        let history = f.path.to_ascii_lowercase().starts_with("changelog")
            || f.path.to_ascii_lowercase().starts_with("history");
        if f.path.contains('/') || Some(&f.path) == cx.a.skill_md_path.as_ref() || history {
            continue;
        }
        if let Some(text) = f.text.text() {
            find_claims(text, 0, &f.path, &mut claims);
        }
    }
    let mut reports = Vec::new();
    for noun in NOUNS {
        let these: Vec<&Claim> = claims.iter().filter(|c| c.noun == noun).collect();
        if these.is_empty() {
            continue;
        }
        let prefix = format!("{noun}/");
        let in_dir: Vec<&str> =
            cx.a.files
                .iter()
                .filter(|f| f.path.starts_with(&prefix))
                .map(|f| f.path.as_str())
                .collect();
        if !in_dir.is_empty() {
            let scaffolding: Vec<&str> = in_dir
                .iter()
                .copied()
                .filter(|p| p.rsplit('/').next().is_some_and(|n| n.starts_with('_')))
                .collect();
            let on_disk = in_dir.len() - scaffolding.len();
            let disk_note = if scaffolding.is_empty() {
                format!("{noun}/ holds {on_disk} files")
            } else {
                let names: Vec<&str> = scaffolding
                    .iter()
                    .map(|p| p.rsplit('/').next().unwrap_or(p))
                    .collect();
                format!(
                    "{noun}/ holds {} files, {} of them scaffolding ({}), so {on_disk}",
                    in_dir.len(),
                    scaffolding.len(),
                    names.join(", ")
                )
            };
            for c in these.iter().filter(|c| c.n != on_disk) {
                let said = format!("{}{} {noun}", c.n, if c.at_least { "+" } else { "" });
                let why = if c.at_least {
                    "; likely left from an earlier version"
                } else {
                    ""
                };
                reports.push((
                    c.file.clone(),
                    c.span.clone(),
                    format!("{} says {said}, but {disk_note}{why}", c.file,),
                ));
            }
        } else {
            // No folder to count: claims in different files must agree (one file may well
            // count a part, "4 patterns" of a category, beside the whole).
            let first = these[0];
            for c in these
                .iter()
                .skip(1)
                .filter(|c| c.n != first.n && c.file != first.file)
            {
                let message = format!(
                    "{} says {}{} {noun}, but {} says {}{} {noun}",
                    c.file,
                    c.n,
                    if c.at_least { "+" } else { "" },
                    first.file,
                    first.n,
                    if first.at_least { "+" } else { "" }
                );
                reports.push((c.file.clone(), c.span.clone(), message));
            }
        }
    }
    reports
}

/// Finds `<number>[+] <noun>` in `text` (offsets shifted by `base`).
fn find_claims(text: &str, base: usize, file: &str, out: &mut Vec<Claim>) {
    let bytes = text.as_bytes();
    let mut idx = 0;
    while idx < bytes.len() {
        if !bytes[idx].is_ascii_digit()
            || idx > 0
                && (bytes[idx - 1].is_ascii_alphanumeric()
                    || matches!(bytes[idx - 1], b'.' | b'-' | b'/' | b'_' | b','))
        {
            idx += 1;
            continue;
        }
        let start = idx;
        while idx < bytes.len() && bytes[idx].is_ascii_digit() {
            idx += 1;
        }
        let Ok(n) = text[start..idx].parse::<usize>() else {
            continue;
        };
        let mut cursor = idx;
        let at_least = bytes.get(cursor) == Some(&b'+');
        if at_least {
            cursor += 1;
        }
        if bytes.get(cursor) != Some(&b' ') {
            continue;
        }
        cursor += 1;
        let word_end = text[cursor..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .map(|e| cursor + e)
            .unwrap_or(text.len());
        let word = text[cursor..word_end].to_ascii_lowercase();
        if let Some(noun) = NOUNS.iter().find(|n| **n == word)
            && n > 1
        {
            out.push(Claim {
                file: file.to_owned(),
                span: base + start..base + word_end,
                n,
                at_least,
                noun,
            });
        }
        idx = word_end.max(idx);
    }
}
