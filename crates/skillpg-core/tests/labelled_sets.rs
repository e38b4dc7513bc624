//! Labelled sets of real cases for the two rules that judge prose: unresolved paths
//! (`broken-link`, SPG063) and links to large files that state no cost or condition
//! (`escape-hatch`, SPG064). Each set is built from the shared corpus and labelled by hand in
//! `tests/fixtures/*.tsv`; the tests report precision and recall and hold them above a floor.
//!
//! `DUMP_CANDIDATES=1 cargo test -p skillpg-core --test labelled_sets -- --nocapture` prints
//! every candidate the engine sees, to label new ones.

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use skillpg_core::links::Target;
use skillpg_core::{
    Analysis, BundleFile, LineIndex, Severity, SkillBundle, analyze, check, profile,
};

/// Every skill of the corpus, as `repo/skill` with its bundle.
fn corpus() -> Vec<(String, SkillBundle)> {
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        corpus.display()
    );
    let mut repos: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    let mut res = Vec::new();
    for repo in repos {
        let repo_name = repo
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for skill in skillpg_fs::read_path(&repo).expect("readable repo").skills {
            res.push((format!("{repo_name}/{}", skill.dir_name), skill));
        }
    }
    res
}

/// `(skill, path) -> label` from a TSV whose first two columns are the skill and the path and
/// whose third is the label; `#` lines are comments.
fn labels(file: &str) -> BTreeMap<(String, String), String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(
                cols.len() >= 3,
                "{file}: a row needs skill, path and label: {l:?}"
            );
            ((cols[0].to_owned(), cols[1].to_owned()), cols[2].to_owned())
        })
        .collect()
}

fn line_of(a: &Analysis, offset: usize) -> (usize, String) {
    let text = &a.doc.as_ref().expect("doc").text;
    let index = LineIndex::new(text);
    let line = index.line_col(text, offset).line;
    (
        line,
        text[index.line_range(text, line)]
            .chars()
            .take(140)
            .collect(),
    )
}

fn dump() -> bool {
    std::env::var_os("DUMP_CANDIDATES").is_some()
}

/// Precision and recall of "warned" against "labelled positive".
fn score(name: &str, outcomes: &[(bool, bool)]) -> (f64, f64) {
    let tp = outcomes
        .iter()
        .filter(|(warned, pos)| *warned && *pos)
        .count();
    let fp = outcomes
        .iter()
        .filter(|(warned, pos)| *warned && !*pos)
        .count();
    let fn_ = outcomes
        .iter()
        .filter(|(warned, pos)| !*warned && *pos)
        .count();
    let precision = if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    };
    let recall = if tp + fn_ == 0 {
        1.0
    } else {
        tp as f64 / (tp + fn_) as f64
    };
    println!(
        "{name}: {} labelled cases; warned {} (true {tp}, false {fp}); missed {fn_}; precision {precision:.3}; recall {recall:.3}",
        outcomes.len(),
        tp + fp
    );
    (precision, recall)
}

/// SPG063 on the corpus as it is (every unresolved path the engine extracts, labelled by hand
/// as a reference the agent is sent to read or not), and on real references made broken by
/// removing their file from the bundle (the common real failure: a file renamed or not copied).
#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn broken_link_precision_on_labelled_real_cases() {
    let labelled = labels("broken_link_labels.tsv");
    let mut outcomes: Vec<(bool, bool)> = Vec::new();
    let mut unlabelled = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut removed = 0;
    for (id, bundle) in corpus() {
        let a = analyze(&bundle);
        let diags = check(&a, &profile::SPEC);
        for link in a
            .links
            .iter()
            .filter(|l| matches!(l.target, Target::Missing | Target::OutsideFolder))
        {
            let warned = diags.iter().any(|d| {
                d.rule == "broken-link"
                    && d.severity == Severity::Warning
                    && d.span.as_ref() == Some(&link.span)
            });
            let (line, text) = line_of(&a, link.span.start);
            if dump() {
                println!("{id}\t{}\t?\tline {line}: {text}", link.path);
            }
            match labelled.get(&(id.clone(), link.path.clone())) {
                Some(label) => {
                    seen.insert((id.clone(), link.path.clone()));
                    outcomes.push((warned, label == "reference"));
                }
                None => unlabelled.push(format!("{id}\t{}\tline {line}: {text}", link.path)),
            }
        }
        // A real reference made broken: the first resolving Markdown link or bundled-folder
        // path of the skill, with its file removed.
        let Some(link) = a
            .links
            .iter()
            .find(|l| matches!(l.target, Target::File { .. }) && l.sent)
        else {
            continue;
        };
        let files: Vec<BundleFile> = bundle
            .files
            .iter()
            .filter(|f| f.path != link.path)
            .cloned()
            .collect();
        let broken = analyze(&SkillBundle::new(&bundle.dir_name, files));
        let warned = check(&broken, &profile::SPEC).iter().any(|d| {
            d.rule == "broken-link"
                && d.severity == Severity::Warning
                && d.message.contains(&format!("`{}`", link.path))
        });
        outcomes.push((warned, true));
        removed += 1;
    }
    assert!(
        unlabelled.is_empty(),
        "unlabelled unresolved paths in the corpus (add them to tests/fixtures/broken_link_labels.tsv):\n{}",
        unlabelled.join("\n")
    );
    assert_eq!(
        seen.len(),
        labelled.len(),
        "every labelled row names a path the engine extracts"
    );
    println!(
        "SPG063: {} hand-labelled unresolved paths; {removed} references made broken",
        seen.len()
    );
    assert!(
        outcomes.len() >= 40,
        "the labelled set needs at least 40 cases, has {}",
        outcomes.len()
    );
    let (precision, recall) = score("SPG063 broken-link", &outcomes);
    assert!(
        precision >= 0.95,
        "SPG063 precision {precision:.3} under 0.95"
    );
    assert!(recall >= 0.9, "SPG063 recall {recall:.3} under 0.9");
}

/// SPG064's judgement of a sentence (does it say what the linked file costs, when to read it, or
/// what it covers?) on every line of the corpus that links a file over five times its body and
/// on every 7th other line that links a bundled file, labelled by hand: `bare` (an escape hatch
/// if the file were large) or `says-when`. The rule fires only on `bare` links to large files.
#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn escape_hatch_precision_on_labelled_real_cases() {
    let labelled = labels("escape_hatch_labels.tsv");
    let mut outcomes: Vec<(bool, bool)> = Vec::new();
    let mut unlabelled = Vec::new();
    let mut n_links = 0;
    for (id, bundle) in corpus() {
        let a = analyze(&bundle);
        let text = &a.doc.as_ref().expect("doc").text;
        let mut lines_seen = std::collections::BTreeSet::new();
        for link in &a.links {
            let Target::File { .. } = link.target else {
                continue;
            };
            let tokens = a.link_tokens(link);
            let (line, line_text) = line_of(&a, link.span.start);
            if !lines_seen.insert(line) {
                continue;
            }
            n_links += 1;
            let large = tokens > 5 * a.body_tokens().max(1);
            if n_links % 7 != 0 && !large {
                continue;
            }
            let bare = !skillpg_core::rules::escape_hatch::says_when(text, link.span.clone());
            let key = (id.clone(), format!("{}:{line}", link.path));
            if dump() {
                println!("{id}\t{}:{line}\t?\t{line_text}", link.path);
            }
            match labelled.get(&key) {
                Some(label) => {
                    if bare != (label == "bare") {
                        println!(
                            "SPG064 misjudged ({label}): {id} {}:{line}: {line_text}",
                            link.path
                        );
                    }
                    outcomes.push((bare, label == "bare"));
                }
                None => unlabelled.push(format!("{id}\t{}:{line}\t{line_text}", link.path)),
            }
        }
    }
    assert!(
        unlabelled.is_empty(),
        "unlabelled sampled lines (add them to tests/fixtures/escape_hatch_labels.tsv):\n{}",
        unlabelled.join("\n")
    );
    assert!(
        outcomes.len() >= 40,
        "the labelled set needs at least 40 cases, has {}",
        outcomes.len()
    );
    let (precision, recall) = score("SPG064 escape-hatch (line judged bare)", &outcomes);
    assert!(
        precision >= 0.85,
        "SPG064 precision {precision:.3} under 0.85"
    );
    assert!(recall >= 0.8, "SPG064 recall {recall:.3} under 0.8");
}
