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
pub mod catalog;
pub mod cost;
pub mod diagnostic;
pub mod fix;
pub mod frontmatter;
pub mod ingest;
pub mod install;
pub mod links;
pub mod profile;
pub mod replay;
pub mod rules;
pub mod yaml;

pub use analysis::{Analysis, AnalysisFacts, Levels, Section, analyze};
pub use bundle::{BundleFile, FileFacts, FileText, SkillBundle};
pub use diagnostic::{
    Applicability, Diagnostic, Edit, Fix, LineCol, LineIndex, Severity, SourceRef,
};
pub use profile::Profile;

use rules::{Cx, listing_budget};

/// Runs every rule of `profile` over one analyzed skill. Diagnostics come in rule order, with
/// their line and column filled in. Only the profile's gates are errors: whatever a rule set,
/// any other finding is capped at a warning here, so no advisory rule can change a verdict.
pub fn check(analysis: &Analysis, profile: &Profile) -> Vec<Diagnostic> {
    check_with(analysis, profile, &catalog::ListingSettings::default())
}

/// [`check`] under a person's listing `settings` where the client's listing has them (Claude
/// Code's `skillListingMaxDescChars` is the cap its `listing-cap` rule holds a description to,
/// as its listing does: one number, `ListingSettings::description_cap`).
pub fn check_with(
    analysis: &Analysis,
    profile: &Profile,
    settings: &catalog::ListingSettings,
) -> Vec<Diagnostic> {
    let mut cx = Cx {
        a: analysis,
        profile,
        settings,
        out: Vec::new(),
    };
    for (_, rule) in rules::ALL {
        rule(&mut cx);
    }
    let mut res = cx.out;
    cap_to_gates(profile, &mut res);
    locate(analysis, &mut res);
    res
}

/// The errors [`check`] gives, and nothing else: only `profile`'s gates run (each rule reports
/// under its own name, and no rule reads another's findings, so the rules left out cannot add
/// or change an error). A verdict needs no more: the page's client matrix runs this for every
/// client but the chosen one, which [`check`] runs whole.
pub fn check_gates(analysis: &Analysis, profile: &Profile) -> Vec<Diagnostic> {
    let settings = catalog::ListingSettings::default();
    let mut cx = Cx {
        a: analysis,
        profile,
        settings: &settings,
        out: Vec::new(),
    };
    for (meta, rule) in rules::ALL {
        if profile.is_gate(meta.name) {
            rule(&mut cx);
        }
    }
    let mut res = cx.out;
    res.retain(|d| d.severity == Severity::Error);
    locate(analysis, &mut res);
    res
}

/// Whether `diagnostics` hold no error.
pub fn is_valid(diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// The findings about several skills installed together, beyond each skill's own: Claude
/// Code's listing budget over all their level-1 entries. One list for the whole catalog (each
/// finding is about the catalog, not one skill); empty when the profile has no such rule.
pub fn check_catalog(
    analyses: &[Analysis],
    profile: &Profile,
    context_window_tokens: usize,
) -> Vec<Diagnostic> {
    check_catalog_with(
        analyses,
        profile,
        context_window_tokens,
        &catalog::ListingSettings::default(),
    )
}

/// [`check_catalog`] with a person's listing settings, where the client's listing has them.
pub fn check_catalog_with(
    analyses: &[Analysis],
    profile: &Profile,
    context_window_tokens: usize,
    settings: &catalog::ListingSettings,
) -> Vec<Diagnostic> {
    let mut res: Vec<Diagnostic> =
        listing_budget::check(analyses, profile, context_window_tokens, settings)
            .into_iter()
            .collect();
    res.extend(rules::name_collision::check(analyses, profile));
    cap_to_gates(profile, &mut res);
    res
}

/// Lowers every error that is not one of `profile`'s gates to a warning.
fn cap_to_gates(profile: &Profile, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.severity == Severity::Error && !profile.is_gate(d.rule))
    {
        d.severity = Severity::Warning;
    }
}

/// Fills in each diagnostic's line and column from its span.
fn locate(analysis: &Analysis, diagnostics: &mut [Diagnostic]) {
    let mut indexes: Vec<(String, LineIndex)> = Vec::new();
    for d in diagnostics.iter_mut() {
        let Some(span) = &d.span else { continue };
        if Some(&d.file) == analysis.skill_md_path.as_ref()
            && let (Some(doc), Some(index)) = (analysis.doc.as_ref(), analysis.md_line_index())
        {
            d.location = Some(index.line_col(&doc.text, span.start));
            continue;
        }
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
