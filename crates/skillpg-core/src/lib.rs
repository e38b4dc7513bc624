//! The skill engine: bytes of skill folders in, reports out.
//!
//! [`ingest`] turns dropped files or archives into [`SkillBundle`]s, [`analyze`] reads one
//! (frontmatter, tokens, levels, links), [`check`] runs a [`Profile`]'s rules over the
//! analysis, [`cost`] prices it over n turns and [`fix`] applies the fixes the rules offer.
//!
//! Nothing here touches a file system, a clock, the network or the DOM, and nothing fails on
//! user input: every problem is a [`Diagnostic`].

pub mod analysis;
pub mod bundle;
pub mod cost;
pub mod diagnostic;
pub mod fix;
pub mod frontmatter;
pub mod ingest;
pub mod links;
pub mod profile;
pub mod rules;
pub mod yaml;

pub use analysis::{Analysis, FileFacts, Levels, Section, analyze};
pub use bundle::{BundleFile, FileText, SkillBundle};
pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, LineCol, LineIndex, Severity, SourceRef};
pub use profile::Profile;

use rules::{Cx, listing_budget};

/// Runs every rule of `profile` over one analyzed skill. Diagnostics come in rule order, with
/// their line and column filled in.
pub fn check(analysis: &Analysis, profile: &Profile) -> Vec<Diagnostic> {
    let mut cx = Cx { a: analysis, profile, out: Vec::new() };
    for (_, rule) in rules::ALL {
        rule(&mut cx);
    }
    let mut res = cx.out;
    locate(analysis, &mut res);
    res
}

/// Whether `diagnostics` hold no error.
pub fn is_valid(diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// Checks several skills loaded together: each skill's own rules, plus the rules that look at
/// the catalog as a whole (Claude Code's listing budget). Returns one list per skill.
pub fn check_catalog(analyses: &[Analysis], profile: &Profile, context_window_tokens: usize) -> Vec<Vec<Diagnostic>> {
    let mut res: Vec<Vec<Diagnostic>> = analyses.iter().map(|a| check(a, profile)).collect();
    if profile.listing_cap_chars.is_none() {
        return res;
    }
    let Some(severity) = profile.severity(listing_budget::META.name, listing_budget::META.default_severity) else { return res };
    // 1% of the context window, at 4 characters per token.
    let budget = context_window_tokens / 100 * 4;
    let mut entries: Vec<(usize, usize)> = analyses.iter().enumerate().map(|(idx, a)| (idx, a.level1_line.chars().count())).collect();
    let total: usize = entries.iter().map(|(_, n)| n).sum();
    if total <= budget {
        return res;
    }
    // Estimate: the listing is filled in name order and what does not fit is dropped.
    entries.sort_by(|a, b| analyses[a.0].display_name().cmp(analyses[b.0].display_name()));
    let mut used = 0;
    for (idx, n) in entries {
        used += n;
        if used > budget {
            let meta = &listing_budget::META;
            res[idx].push(Diagnostic {
                code: meta.code,
                rule: meta.name,
                severity,
                message: format!(
                    "the {} skills' level-1 entries take {total} characters, over Claude Code's listing budget of {budget} (1% of a {context_window_tokens}-token window at 4 characters a token); this one falls past it (estimate: filled in name order)",
                    analyses.len()
                ),
                file: analyses[idx].skill_md_path.clone().unwrap_or_default(),
                span: None,
                location: None,
                fix: None,
                source: meta.source,
            });
        }
    }
    res
}

/// Fills in each diagnostic's line and column from its span.
fn locate(analysis: &Analysis, diagnostics: &mut [Diagnostic]) {
    let mut indexes: Vec<(String, LineIndex)> = Vec::new();
    for d in diagnostics.iter_mut() {
        let Some(span) = &d.span else { continue };
        let text = if Some(&d.file) == analysis.skill_md_path.as_ref() {
            analysis.doc.as_ref().map(|doc| doc.text.as_str())
        } else {
            analysis.file(&d.file).and_then(|f| f.text.text())
        };
        let Some(text) = text else { continue };
        let index = match indexes.iter().position(|(f, _)| *f == d.file) {
            Some(pos) => &indexes[pos].1,
            None => {
                indexes.push((d.file.clone(), LineIndex::new(text)));
                &indexes[indexes.len() - 1].1
            }
        };
        d.location = Some(index.line_col(text, span.start));
    }
}
