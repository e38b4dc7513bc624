//! ## What it checks
//! Among skills installed together, no two are listed under the same name, and (in Claude
//! Code) no two names are the same once case, spacing, invisible characters and compatibility
//! forms (full-width letters, dash variants) are folded away.
//! ## Why it matters
//! A client keeps one skill of a name and drops the other by a rule of its own (the project's
//! copy, the global one, the first found): the other is never listed. Claude Code skips a skill
//! synced from claude.ai whose name matches another command after folding, so `PDF-Tools` and
//! `pdf tools` cannot both arrive.
//! ## Example
//! Two folders, `pdf` and `pdf-tools`, whose SKILL.md both say `name: pdf-tools`.
//! ## Fix
//! Give each skill a distinct name (and folder), different in more than case or spacing.
//! ## Source
//! Claude Code skills documentation (synced skills, docs v2.1.240); each client's loader, as
//! "which copy wins" in `skillpg where`.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use super::RuleMeta;
use super::sources;
use crate::analysis::Analysis;
use crate::catalog::InstalledSkill;
use crate::diagnostic::{Diagnostic, Severity};
use crate::profile::Profile;

pub static META: RuleMeta = RuleMeta {
    code: "SPG089",
    name: "name-collision",
    summary: "Two skills installed together share a listed name (or, in Claude Code, a folded one).",
    default_severity: Severity::Warning,
    source: sources::CLAUDE_CODE,
};

/// `name` as Claude Code compares synced skills' names: NFKC (full-width letters and other
/// compatibility forms), lowercased, without whitespace or invisible (format) characters, every
/// dash a hyphen.
pub fn folded_name(name: &str) -> String {
    name.nfkc()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace() && c.general_category() != GeneralCategory::Format)
        .map(|c| {
            if c.general_category() == GeneralCategory::DashPunctuation {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// The findings over `analyses` installed together under `profile`: one per group of skills
/// that share a listed name (where the client loads skills from folders), and in a client that
/// folds synced names, one per group that shares a folded name only.
pub fn check(analyses: &[Analysis], profile: &Profile) -> Vec<Diagnostic> {
    let Some(severity) = profile.severity(META.name, META.default_severity) else {
        return Vec::new();
    };
    let Some(install) = crate::install::install_for(profile.key)
        .filter(|i| i.looks != crate::install::Looks::Nowhere)
    else {
        return Vec::new();
    };
    let installed: Vec<InstalledSkill> = analyses
        .iter()
        .map(|a| InstalledSkill::from_analysis(a, profile))
        .collect();
    let folds = profile.listing.is_some_and(|l| l.folds_synced_names);
    // Each name's key once, and the skills of each key in order of first appearance: a catalog
    // of a thousand skills is grouped in one pass (comparing every pair, folding each name
    // anew, took about 1 s in the page for the twenty clients).
    let keys: Vec<String> = installed
        .iter()
        .map(|s| {
            if folds {
                folded_name(&s.name)
            } else {
                s.name.clone()
            }
        })
        .collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (j, key) in keys.iter().enumerate() {
        match group_of.get(key.as_str()) {
            Some(&g) => groups[g].push(j),
            None => {
                group_of.insert(key, groups.len());
                groups.push(vec![j]);
            }
        }
    }
    let mut out = Vec::new();
    for group in groups.into_iter().filter(|g| g.len() >= 2) {
        let skill = &installed[group[0]];
        let named: Vec<String> = group
            .iter()
            .map(|&j| format!("`{}` (folder `{}`)", installed[j].name, installed[j].dir))
            .collect();
        let exact = group.iter().all(|&j| installed[j].name == skill.name);
        if exact && install.keeps_duplicates {
            continue;
        }
        let message = if exact {
            format!(
                "{} skills are listed as `{}`: {}; {} keeps one: {}",
                group.len(),
                skill.name,
                named.join(", "),
                profile.title,
                install.wins
            )
        } else {
            format!(
                "{} are the same name once case, spacing, invisible characters and compatibility forms are folded: {} skips a skill synced from claude.ai whose name matches another this way",
                named.join(" and "),
                profile.title
            )
        };
        out.push(super::catalog_finding(&META, severity, message));
    }
    out
}
