//! One answer, for every edge, to "this skill's findings under this client, in this project":
//! the input's own findings (an archive's layout) weighed by the client, then the client's
//! rules under the person's listing settings, then the project's ignores and severities
//! (`skillpg.toml`). `skillpg check`, `where`, `doctor`, `listing`, `github`, the language
//! server and the page all take a skill's findings from here, and a client lists exactly the
//! skills whose findings here hold no error ([`loads`]), so that no edge says "loads" or
//! prices a skill another says fails.

use skillpg_core::catalog::ListingSettings;
use skillpg_core::{Analysis, Diagnostic, Profile, Severity};

use crate::config::Config;

/// A project's settings, as every check reads them.
#[derive(Debug, Clone, Copy)]
pub struct Project<'a> {
    /// `skillpg.toml`, when the project has one.
    pub config: Option<&'a Config>,
    /// The person's listing settings (Claude Code's `skillListingMaxDescChars`, ...).
    pub listing: &'a ListingSettings,
}

/// How much of a client's check a caller needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every finding: what a client's column, an editor or a report lists.
    Whole,
    /// The errors alone, which decide whether the skill loads: what the page's matrix needs for
    /// the clients not chosen. With no `skillpg.toml` they come from the client's gates alone
    /// (`skillpg_core::check_gates`, held to the whole check's errors in `tests/rules.rs`),
    /// several times faster; a project's severities can make any rule an error, so there it is
    /// the whole check's errors.
    Verdict,
}

impl Project<'_> {
    /// One skill's findings under `profile`, with `own` (the input's findings, as read) first;
    /// and how many the project ignored.
    pub fn findings(
        &self,
        profile: &Profile,
        analysis: &Analysis,
        own: &[Diagnostic],
    ) -> (Vec<Diagnostic>, usize) {
        self.findings_in(Scope::Whole, profile, analysis, own)
    }

    /// [`Project::findings`], whole or only the errors that make the verdict.
    pub fn findings_in(
        &self,
        scope: Scope,
        profile: &Profile,
        analysis: &Analysis,
        own: &[Diagnostic],
    ) -> (Vec<Diagnostic>, usize) {
        let mut all = skillpg_core::ingest::findings_under(own, profile);
        if scope == Scope::Verdict && self.config.is_none() {
            all.retain(|d| d.severity == Severity::Error);
            all.extend(skillpg_core::check_gates(analysis, profile));
            return (all, 0);
        }
        all.extend(skillpg_core::check_with(analysis, profile, self.listing));
        let ignored = self.config.map_or(0, |c| {
            c.apply(&mut all, analysis.display_name(), &analysis.dir_name)
        });
        if scope == Scope::Verdict {
            all.retain(|d| d.severity == Severity::Error);
        }
        (all, ignored)
    }
}

/// Whether findings let the skill load: none is an error.
pub fn loads(findings: &[Diagnostic]) -> bool {
    !findings.iter().any(|d| d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projects_severities_and_ignores_decide_whether_a_skill_loads() {
        let bundle = skillpg_core::SkillBundle::new(
            "notes",
            vec![skillpg_core::BundleFile {
                path: "SKILL.md".to_owned(),
                bytes: b"---\nname: notes\ndescription: Writes notes.\n---\n# Notes\n".to_vec(),
            }],
        );
        let a = skillpg_core::analyze(&bundle);
        let claude = Profile::by_key("claude-code").expect("a profile");
        let settings = ListingSettings::default();
        let plain = Project {
            config: None,
            listing: &settings,
        };
        let (found, ignored) = plain.findings(claude, &a, &[]);
        assert!(loads(&found) && ignored == 0, "{found:?}");
        let strict =
            Config::parse("[severity]\ndescription-no-trigger = \"error\"\n").expect("a config");
        let project = Project {
            config: Some(&strict),
            listing: &settings,
        };
        assert!(!loads(&project.findings(claude, &a, &[]).0));
        let forgiving = Config::parse(
            "[severity]\ndescription-no-trigger = \"error\"\n[[ignore]]\nrule = \"description-no-trigger\"\nreason = \"a test\"\n",
        )
        .expect("a config");
        let project = Project {
            config: Some(&forgiving),
            listing: &settings,
        };
        let (found, ignored) = project.findings(claude, &a, &[]);
        assert!(loads(&found) && ignored == 1, "{found:?}");
    }

    /// The verdict scope gives exactly the whole check's errors, with a project's severities
    /// and without.
    #[test]
    fn the_verdict_scope_gives_the_whole_checks_errors() {
        let bundle = skillpg_core::SkillBundle::new(
            "Notes",
            vec![skillpg_core::BundleFile {
                path: "SKILL.md".to_owned(),
                bytes: b"---\nname: Notes\ndescription: Writes notes.\n---\n# Notes\n".to_vec(),
            }],
        );
        let a = skillpg_core::analyze(&bundle);
        let settings = ListingSettings::default();
        let strict =
            Config::parse("[severity]\ndescription-no-trigger = \"error\"\n").expect("a config");
        for config in [None, Some(&strict)] {
            let project = Project {
                config,
                listing: &settings,
            };
            for p in skillpg_core::profile::ALL {
                let errors: Vec<Diagnostic> = project
                    .findings(p, &a, &[])
                    .0
                    .into_iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect();
                let verdict = project.findings_in(Scope::Verdict, p, &a, &[]).0;
                let codes = |l: &[Diagnostic]| {
                    let mut c: Vec<&str> = l.iter().map(|d| d.code).collect();
                    c.sort_unstable();
                    c
                };
                assert_eq!(codes(&verdict), codes(&errors), "{} {config:?}", p.key);
            }
        }
        assert!(!loads(
            &Project {
                config: Some(&strict),
                listing: &settings
            }
            .findings_in(
                Scope::Verdict,
                Profile::by_key("spec").expect("spec"),
                &a,
                &[]
            )
            .0
        ));
    }
}
