//! Golden test over the 152 real skills of the shared corpus: every finding of every profile,
//! with the levels, kept as a reviewed snapshot (`UPDATE_EXPECT=1 cargo test` rewrites it).
//! A change in what the engine says about real skills shows up as a diff to review.

use std::fmt::Write;

use skillpg_core::{analyze, check, check_catalog, profile};

#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn corpus_findings_are_reviewed() {
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        corpus.display()
    );
    let mut repos: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    let mut out = String::new();
    let mut n_skills = 0;
    for repo in repos {
        let ingested = skillpg_fs::read_path(&repo).expect("readable repo folder");
        assert!(
            ingested.diagnostics.is_empty(),
            "{:?}",
            ingested.diagnostics
        );
        let analyses: Vec<_> = ingested.skills.iter().map(analyze).collect();
        n_skills += analyses.len();
        let repo_name = repo
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let per_profile: Vec<_> = profile::ALL
            .iter()
            .map(|p| {
                let all = analyses.iter().map(|a| check(a, p)).collect::<Vec<_>>();
                // The gates alone give the same errors (the page's matrix runs only them).
                for (a, d) in analyses.iter().zip(&all) {
                    let errors: Vec<_> = d
                        .iter()
                        .filter(|d| d.severity == skillpg_core::Severity::Error)
                        .cloned()
                        .collect();
                    assert_eq!(
                        skillpg_core::check_gates(a, p),
                        errors,
                        "{} under {}",
                        a.display_path,
                        p.key
                    );
                }
                (p.key, all)
            })
            .collect();
        // Each repository as one catalog installed together (as its plugin installs it).
        for p in profile::ALL {
            for d in check_catalog(&analyses, p, 200_000) {
                let _ = writeln!(
                    out,
                    "## {repo_name} (catalog of {})\n  {:11} {} {:7}: {}",
                    analyses.len(),
                    p.key,
                    d.code,
                    d.severity.as_str(),
                    d.message
                );
            }
        }
        for (idx, a) in analyses.iter().enumerate() {
            let l = a.levels();
            let _ = writeln!(
                out,
                "## {repo_name}/{} [{}] L1 {} L2 {} L3 {} files {}",
                a.dir_name,
                a.display_name(),
                l.level1,
                l.level2,
                l.level3,
                l.files
            );
            for (key, diags) in &per_profile {
                for d in &diags[idx] {
                    let at = d
                        .location
                        .map(|l| format!(":{}:{}", l.line, l.column))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "  {key:11} {} {:7} {}{at}: {}",
                        d.code,
                        d.severity.as_str(),
                        d.file,
                        d.message
                    );
                }
            }
        }
    }
    assert_eq!(n_skills, 152, "the shared corpus should hold 152 skills");
    expect_test::expect_file!["fixtures/corpus.snap"].assert_eq(&out);
}
